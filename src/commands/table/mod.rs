//! The table: one entry per program, grouped by where the knowledge came from.

mod coreutils;
mod git;
mod git_changes;
mod other;
mod search;

use super::spec::Program;

/// Every program of the table, in one list.
pub(crate) fn programs() -> impl Iterator<Item = &'static Program> {
    coreutils::PROGRAMS
        .iter()
        .chain(search::PROGRAMS)
        .chain(other::COPIERS)
        .chain(other::VERSIONS)
        .chain(std::iter::once(&git::GIT))
        .chain(std::iter::once(&FIND))
}

const FIND: Program = Program {
    operands: super::spec::Operands::Find,
    ..Program::new(
        "find",
        "GNU findutils 4.9.0 (Debian 12), find --help and man find",
    )
};
