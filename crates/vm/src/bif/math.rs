//! `math:*` (floats; `badarith` on domain errors as the BEAM).

use crate::atom::Atom;
use crate::bif::Table;
use crate::term::Term;

fn num(t: &Term) -> Result<f64, Term> {
    if !t.is_number() {
        return Err(Term::Atom(Atom::BADARG));
    }
    crate::arith::number_to_f64(t).ok_or_else(|| Term::Atom(Atom::BADARG))
}

fn out(f: f64) -> Result<Term, Term> {
    if f.is_finite() {
        Ok(Term::Float(f))
    } else {
        Err(Term::Atom(Atom::BADARITH))
    }
}

pub fn register(t: &mut Table) {
    t.pure("math", "pi", 0, |_| Ok(Term::Float(std::f64::consts::PI)));
    t.pure("math", "e", 0, |_| Ok(Term::Float(std::f64::consts::E)));
    t.pure("math", "tau", 0, |_| Ok(Term::Float(std::f64::consts::TAU)));
    macro_rules! f1 {
        ($name:expr, $f:expr) => {
            t.pure("math", $name, 1, |a| {
                let x = num(&a[0])?;
                let f: fn(f64) -> f64 = $f;
                out(f(x))
            });
        };
    }
    f1!("sqrt", f64::sqrt);
    f1!("sin", f64::sin);
    f1!("cos", f64::cos);
    f1!("tan", f64::tan);
    f1!("asin", f64::asin);
    f1!("acos", f64::acos);
    f1!("atan", f64::atan);
    f1!("sinh", f64::sinh);
    f1!("cosh", f64::cosh);
    f1!("tanh", f64::tanh);
    f1!("exp", f64::exp);
    f1!("log", f64::ln);
    f1!("log2", f64::log2);
    f1!("log10", f64::log10);
    f1!("floor", f64::floor);
    f1!("ceil", f64::ceil);
    t.pure("math", "pow", 2, |a| out(num(&a[0])?.powf(num(&a[1])?)));
    t.pure("math", "atan2", 2, |a| out(num(&a[0])?.atan2(num(&a[1])?)));
    t.pure("math", "fmod", 2, |a| {
        let (x, y) = (num(&a[0])?, num(&a[1])?);
        if y == 0.0 {
            return Err(Term::Atom(Atom::BADARITH));
        }
        out(x % y)
    });
}
