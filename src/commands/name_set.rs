//! A long list of program names looked up in any ASCII case without a scan: sorted once, on
//! first use, and searched by halves. The list itself stays as written, grouped and
//! commented where it is defined.

use std::cmp::Ordering;
use std::sync::OnceLock;

/// The names of `list`, found in any ASCII case.
pub(crate) struct NameSet {
    list: &'static [&'static str],
    sorted: OnceLock<Vec<&'static str>>,
}

impl NameSet {
    /// A set of the names of `list`.
    pub(crate) const fn new(list: &'static [&'static str]) -> NameSet {
        NameSet {
            list,
            sorted: OnceLock::new(),
        }
    }

    /// Whether `name` is one of the names, in any ASCII case.
    pub(crate) fn contains(&self, name: &str) -> bool {
        let sorted = self.sorted.get_or_init(|| {
            let mut names = self.list.to_vec();
            names.sort_by(|a, b| folded_cmp(a, b));
            names
        });
        sorted
            .binary_search_by(|probe| folded_cmp(probe, name))
            .is_ok()
    }
}

/// `a` against `b` with ASCII letters folded to lower case.
fn folded_cmp(a: &str, b: &str) -> Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_found_in_any_case_and_only_a_listed_one() {
        static SET: NameSet = NameSet::new(&["psql", "Mysql", "ftp", "b", "a"]);
        for name in ["psql", "PSQL", "mysql", "MySQL", "ftp", "a", "B"] {
            assert!(SET.contains(name), "{name}");
        }
        for name in ["", "psq", "psqlx", "sftp", "c"] {
            assert!(!SET.contains(name), "{name}");
        }
    }

    #[test]
    fn every_name_of_a_long_list_is_found_as_a_scan_finds_it() {
        static SET: NameSet = NameSet::new(crate::commands::TERMINAL_PROGRAMS);
        for name in crate::commands::TERMINAL_PROGRAMS {
            assert!(SET.contains(name), "{name}");
            assert!(SET.contains(&name.to_ascii_uppercase()), "{name}");
        }
    }
}
