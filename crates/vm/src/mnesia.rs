//! mnesia tables (single node, in memory): records keyed on their second
//! element, stored like ETS tables. A transaction runs as one atomic step,
//! except that a dirty operation inside it (which takes no lock) ends the
//! step there; transactions take turns on one lock, and an aborted one is
//! undone by restoring a snapshot (cheap: the store is persistent).

use std::sync::Arc;

use crate::atom::Atom;
use crate::ets::{Kind, Protection, Table};
use crate::format;
use crate::term::Pid;

#[derive(Clone)]
pub struct MTable {
    pub name: Atom,
    pub record_name: Atom,
    pub attributes: Vec<Atom>,
    /// How this node keeps a copy: `ram_copies`, `disc_copies`,
    /// `disc_only_copies`, or `unknown` when the table's copies are all on
    /// other nodes (`mnesia:table_info(T, storage_type)`).
    pub storage: Atom,
    pub data: Table,
}

#[derive(Clone, Default)]
pub struct MnesiaStore {
    /// The process whose transaction is open, if any. Transactions take
    /// turns (one lock for the whole database: coarser than mnesia's record
    /// locks, never less isolated).
    pub tx_owner: Option<Pid>,
    /// Processes waiting for the open transaction to end.
    pub tx_waiters: Vec<Pid>,
    pub started: bool,
    pub tables: imbl::OrdMap<Atom, Arc<MTable>>,
}

impl MnesiaStore {
    pub fn create(
        &mut self,
        name: Atom,
        record_name: Atom,
        attributes: Vec<Atom>,
        kind: Kind,
        storage: Atom,
    ) {
        let data = Table::new(0, name, true, kind, Protection::Public, Pid(u32::MAX), 2);
        self.tables.insert(
            name,
            Arc::new(MTable {
                name,
                record_name,
                attributes,
                storage,
                data,
            }),
        );
    }

    pub fn get(&self, name: Atom) -> Option<&MTable> {
        self.tables.get(&name).map(|t| &**t)
    }

    pub fn get_mut(&mut self, name: Atom) -> Option<&mut MTable> {
        self.tables.get_mut(&name).map(Arc::make_mut)
    }

    pub fn digest(&self) -> String {
        let mut tables: Vec<&MTable> = self.tables.values().map(|t| &**t).collect();
        tables.sort_by(|a, b| a.name.name().cmp(b.name.name()));
        let mut out = String::new();
        for t in tables {
            let mut objs: Vec<String> = t.data.objects().iter().map(format::brief).collect();
            objs.sort();
            out.push_str(&format!(
                "mnesia {}: [{}]\n",
                format::atom_text(t.name),
                objs.join(",")
            ));
        }
        out
    }
}
