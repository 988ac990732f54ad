//! Built-in read-only commands: a view of the program table in [`crate::commands`].

use crate::commands;

/// The names of the programs (and `git` subcommands) the table knows, for docs. A command
/// of one of them is read-only when every option it is given is in the table as an inert
/// option or a file read, and every file it reads passes the policy's read check.
pub fn read_only_commands() -> impl Iterator<Item = String> {
    commands::programs().flat_map(|p| {
        let subs = p
            .subcommands
            .iter()
            .map(move |s| format!("{} {}", p.name, s.name));
        std::iter::once(p.name.to_owned())
            .chain(p.aliases.iter().map(|a| (*a).to_owned()))
            .chain(subs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_covers_the_usual_commands() {
        let all: Vec<String> = read_only_commands().collect();
        for name in [
            "ls",
            "cat",
            "grep",
            "egrep",
            "rg",
            "jq",
            "sed",
            "git status",
            "git log",
        ] {
            assert!(all.iter().any(|n| n == name), "{name}");
        }
    }
}
