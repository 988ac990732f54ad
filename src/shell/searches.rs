//! The directories a command line reads every file below (`grep -r`, `rg`, `git grep
//! --no-index`, `find ... -exec cat`), as the analysis finds them: a host that can list
//! directories looks for secret files there ([`crate::Request::add_realpaths_listing`]).

use std::cell::RefCell;

use super::{judge, CommandRules, Outcome};
use crate::decision::{Reason, RuleList};

/// The directories `line` reads every file below, as the analysis names them (relative ones
/// from the working directory, after any `cd`), each once. A directory known only at run
/// time is left out, and so is `/`: the analysis names it for reads it cannot place.
///
/// ```
/// use toolgate::shell::search_roots;
/// assert_eq!(search_roots("grep -rn TOKEN . && rg key src"), [".", "src"]);
/// assert!(search_roots("cd sub && grep -r x").contains(&"sub/.".to_owned()));
/// assert!(search_roots("grep TOKEN README.md").is_empty());
/// ```
pub fn search_roots(line: &str) -> Vec<String> {
    let recorder = Recorder::default();
    judge(line, &recorder);
    recorder.roots.into_inner()
}

/// A view of no rules that writes down each directory read below.
#[derive(Default)]
struct Recorder {
    roots: RefCell<Vec<String>>,
}

impl CommandRules for Recorder {
    fn match_command(&self, _list: RuleList, _words: &[String]) -> Option<Reason> {
        None
    }

    fn first_command_rule(&self, _list: RuleList, _program: &str) -> Option<Reason> {
        None
    }

    fn write_outcome(&self, _path: &str) -> Outcome {
        Outcome::NoRule
    }

    fn read_outcome(&self, _path: &str) -> Outcome {
        Outcome::ReadOnly
    }

    fn read_below_outcome(&self, dir: &str) -> Outcome {
        let mut roots = self.roots.borrow_mut();
        if dir != "/" && !roots.iter().any(|r| r == dir) {
            roots.push(dir.to_owned());
        }
        Outcome::ReadOnly
    }

    fn is_critical(&self, _path: &str) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::search_roots;

    #[test]
    fn recursive_searches_name_their_roots() {
        for (line, roots) in [
            ("grep -r TOKEN .", vec!["."]),
            ("grep -R TOKEN src tests", vec!["src", "tests"]),
            ("rg TOKEN", vec!["."]),
            ("git grep --no-index TOKEN", vec!["."]),
            ("ls && grep -r a lib", vec!["lib"]),
            ("rg --files -l TOKEN", vec!["."]),
            ("rg --files --pre ./x src", vec!["."]),
        ] {
            assert_eq!(search_roots(line), roots, "{line}");
        }
    }

    #[test]
    fn named_files_and_unparsed_lines_have_none() {
        for line in [
            "cat .env",
            "grep x a.txt",
            "echo 'unterminated",
            "ls -la",
            "rg --version",
            "rg --files | head -100",
            "rg --files -g '*.ts' src",
        ] {
            assert!(search_roots(line).is_empty(), "{line}");
        }
    }
}
