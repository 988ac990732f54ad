//! The project directory of a hook call: where its policy (`.toolgate/`) is read from, where
//! rules relative to the working directory are anchored, and what counts as inside the
//! project.
//!
//! In order, the first that gives an absolute directory:
//! 1. the agent's own project variable ([`Agent::project_variable`]: `CLAUDE_PROJECT_DIR`,
//!    `GEMINI_PROJECT_DIR`, `COPILOT_PROJECT_DIR`);
//! 2. the project the payload names ([`HookCall::project`]: Cursor's workspace root that
//!    holds the working directory);
//! 3. the nearest directory at or above the working directory holding `.toolgate`;
//! 4. the nearest one holding `.git`;
//! 5. the working directory.
//!
//! `.toolgate` is looked for above the working directory before `.git`, so a repository
//! nested in the project (a submodule, a vendored clone with its own `.git`) never hides the
//! project's policy.
//!
//! No I/O of its own: the host answers the few questions it asks ([`ProjectHost`]), so the
//! native hook and the npm package's hook find the same project.
//!
//! ```
//! use std::path::Path;
//! use toolgate::agents::project::{project_dir, ProjectHost};
//! use toolgate::agents::parse_call;
//!
//! /// `/p/.toolgate` and `/p/vendor/lib/.git` exist; no variable is set.
//! struct Files;
//! impl ProjectHost for Files {
//!     fn env(&self, _name: &str) -> Option<String> {
//!         None
//!     }
//!     fn is_dir(&self, path: &Path) -> bool {
//!         path == Path::new("/p/.toolgate")
//!     }
//!     fn exists(&self, path: &Path) -> bool {
//!         self.is_dir(path) || path == Path::new("/p/vendor/lib/.git")
//!     }
//! }
//!
//! let codex = r#"{"session_id":"s","turn_id":"t","cwd":"/p/vendor/lib",
//!     "hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
//! let call = parse_call(None, codex).unwrap();
//! assert_eq!(project_dir(&call, &Files).unwrap(), Path::new("/p"));
//! ```

use std::path::{Path, PathBuf};

use super::{Agent, HookCall};
use crate::error::{Error, ErrorKind, Result};

/// What finding the project asks of the host: its environment and its file system.
pub trait ProjectHost {
    /// The value of the environment variable `name`; `None` when it is not set.
    fn env(&self, name: &str) -> Option<String>;
    /// Whether `path` is a directory (`false` when the host cannot tell).
    fn is_dir(&self, path: &Path) -> bool;
    /// Whether `path` exists, as a file, a directory or a link (`false` when the host cannot
    /// tell).
    fn exists(&self, path: &Path) -> bool;
}

impl Agent {
    /// The environment variable in which the agent tells its hooks the project directory:
    /// `None` for Codex and Cursor, which set none (Cursor names its workspace roots in the
    /// payload instead).
    ///
    /// ```
    /// use toolgate::agents::Agent;
    /// assert_eq!(Agent::Claude.project_variable(), Some("CLAUDE_PROJECT_DIR"));
    /// assert_eq!(Agent::Cursor.project_variable(), None);
    /// ```
    pub const fn project_variable(self) -> Option<&'static str> {
        match self {
            Agent::Claude => Some("CLAUDE_PROJECT_DIR"),
            Agent::Gemini => Some("GEMINI_PROJECT_DIR"),
            Agent::Copilot => Some("COPILOT_PROJECT_DIR"),
            Agent::Codex | Agent::Cursor => None,
        }
    }
}

/// The project directory of `call` (see the module's documentation for the order). An
/// error when nothing names the project and the payload has no absolute working directory.
pub fn project_dir(call: &HookCall, host: &dyn ProjectHost) -> Result<PathBuf> {
    let named = call
        .agent
        .project_variable()
        .and_then(|v| host.env(v))
        .into_iter()
        .chain(call.project.clone());
    for dir in named {
        if is_absolute(&dir) {
            return Ok(PathBuf::from(dir));
        }
    }
    let cwd = match &call.cwd {
        Some(c) if is_absolute(c) => PathBuf::from(c),
        _ => {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                "the hook payload has no absolute `cwd`",
            )
            .with_hint("run the hook from an agent that reports its working directory"))
        }
    };
    let found = cwd
        .ancestors()
        .find(|d| host.is_dir(&d.join(".toolgate")))
        .or_else(|| cwd.ancestors().find(|d| host.exists(&d.join(".git"))));
    Ok(found.unwrap_or(&cwd).to_path_buf())
}

/// Whether `path` is absolute: rooted at `/`, or absolute as the platform reads paths
/// (`Path::is_absolute` is false for every path on `wasm32-unknown-unknown`).
fn is_absolute(path: &str) -> bool {
    path.starts_with('/') || Path::new(path).is_absolute()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::parse_call;
    use serde_json::json;

    /// A file system of the given directories (`.git` may also be a file: `exists` only),
    /// and an environment of the given variables.
    struct Fake {
        dirs: Vec<&'static str>,
        files: Vec<&'static str>,
        env: Vec<(&'static str, &'static str)>,
    }

    impl ProjectHost for Fake {
        fn env(&self, name: &str) -> Option<String> {
            self.env
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
        fn is_dir(&self, path: &Path) -> bool {
            self.dirs.iter().any(|d| Path::new(d) == path)
        }
        fn exists(&self, path: &Path) -> bool {
            self.is_dir(path) || self.files.iter().any(|f| Path::new(f) == path)
        }
    }

    /// `/p` holds `.toolgate` and `.git`; `/p/vendor/lib` is a nested repository.
    fn nested() -> Fake {
        Fake {
            dirs: vec!["/p/.toolgate", "/p/.git", "/p/vendor/lib/.git"],
            files: vec!["/p/sub/mod/.git"],
            env: Vec::new(),
        }
    }

    fn project(payload: &serde_json::Value, host: &Fake) -> Result<PathBuf> {
        project_dir(&parse_call(None, &payload.to_string()).unwrap(), host)
    }

    fn codex(cwd: &str) -> serde_json::Value {
        json!({"session_id":"s","turn_id":"t","cwd":cwd,"hook_event_name":"PreToolUse",
            "tool_name":"Bash","tool_input":{"command":"git status"}})
    }

    fn cursor(roots: &[&str], cwd: &str) -> serde_json::Value {
        json!({"hook_event_name":"beforeShellExecution","conversation_id":"c",
            "generation_id":"g","workspace_roots":roots,"command":"git status","cwd":cwd})
    }

    #[test]
    fn a_nested_repository_never_hides_the_projects_policy() {
        let host = nested();
        for cwd in ["/p/vendor/lib", "/p/vendor/lib/src", "/p/sub/mod", "/p"] {
            assert_eq!(
                project(&codex(cwd), &host).unwrap(),
                Path::new("/p"),
                "{cwd}"
            );
        }
        // Codex's `workdir` moves where the command runs, not the session's project.
        let mut p = codex("/p");
        p["tool_input"]["workdir"] = json!("vendor/lib");
        assert_eq!(project(&p, &host).unwrap(), Path::new("/p"));
        // Without `.toolgate` anywhere, the nearest repository is the project.
        let host = Fake {
            dirs: vec!["/p/.git", "/p/vendor/lib/.git"],
            ..nested()
        };
        let p = project(&codex("/p/vendor/lib/src"), &host).unwrap();
        assert_eq!(p, Path::new("/p/vendor/lib"));
        // A `.git` file (a submodule's or a worktree's) counts as a repository too.
        let host = Fake {
            dirs: Vec::new(),
            ..nested()
        };
        assert_eq!(
            project(&codex("/p/sub/mod/x"), &host).unwrap(),
            Path::new("/p/sub/mod")
        );
        // Nothing above: the working directory.
        let p = project(&codex("/srv/app"), &host).unwrap();
        assert_eq!(p, Path::new("/srv/app"));
    }

    #[test]
    fn cursors_project_is_the_workspace_root_holding_the_working_directory() {
        let host = Fake {
            dirs: Vec::new(),
            files: vec!["/p/vendor/lib/.git", "/q/.git"],
            env: Vec::new(),
        };
        let p = project(&cursor(&["/p"], "/p/vendor/lib"), &host).unwrap();
        assert_eq!(p, Path::new("/p"));
        let p = project(&cursor(&["/q", "/p"], "/p/vendor/lib"), &host).unwrap();
        assert_eq!(p, Path::new("/p"));
        // Outside every root: the first root.
        let p = project(&cursor(&["/q", "/p"], "/tmp"), &host).unwrap();
        assert_eq!(p, Path::new("/q"));
        // No roots: the search above the working directory.
        let p = project(&cursor(&[], "/p/vendor/lib/src"), &host).unwrap();
        assert_eq!(p, Path::new("/p/vendor/lib"));
        // A read carries no `cwd`: the first root.
        let read = json!({"hook_event_name":"beforeReadFile","conversation_id":"c",
            "workspace_roots":["/p"],"file_path":"/p/vendor/lib/a"});
        assert_eq!(project(&read, &host).unwrap(), Path::new("/p"));
    }

    #[test]
    fn the_agents_variable_comes_first_and_must_be_absolute() {
        let claude = |cwd: &str| {
            json!({"session_id":"s","cwd":cwd,"hook_event_name":"PreToolUse",
                "tool_name":"Bash","tool_input":{"command":"ls"}})
        };
        let host = Fake {
            env: vec![("CLAUDE_PROJECT_DIR", "/w")],
            ..nested()
        };
        let p = project(&claude("/p/vendor/lib"), &host).unwrap();
        assert_eq!(p, Path::new("/w"));
        // Codex sets no variable: Claude's is not read for it.
        assert_eq!(
            project(&codex("/p/vendor/lib"), &host).unwrap(),
            Path::new("/p")
        );
        let host = Fake {
            env: vec![("CLAUDE_PROJECT_DIR", "w")],
            ..nested()
        };
        let p = project(&claude("/p/vendor/lib"), &host).unwrap();
        assert_eq!(p, Path::new("/p"));
        let e = project(&claude("rel"), &host).unwrap_err();
        assert_eq!(e.code(), "INVALID_REQUEST");
    }
}
