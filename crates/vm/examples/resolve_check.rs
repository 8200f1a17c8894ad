//! Lists `M:F` names (from stdin, one per line) that no arity resolves to code or a BIF.
use std::io::Read;
use std::sync::Arc;

use racewit_vm::atom::Atom;
use racewit_vm::code::Target;

fn main() {
    let vm = racewit_vm::Vm::new(Arc::new(Default::default()), Default::default());
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).ok();
    for line in s.lines() {
        let Some((m, f)) = line.split_once(':') else { continue };
        let ok = (0..8).any(|a| {
            matches!(
                vm.debug_resolve(Atom::new(m), Atom::new(f), a),
                Target::Code { .. } | Target::Bif(_)
            )
        });
        if !ok {
            print!("{line} ");
        }
    }
    println!();
}
