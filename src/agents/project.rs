//! The project directory of a hook call: where its policy (`.toolgate/`) is read from, where
//! rules relative to the working directory are anchored, and what counts as inside the
//! project.
//!
//! In order, the first that gives an absolute directory:
//! 1. the agent's own project variable ([`Agent::project_variable`]: `CLAUDE_PROJECT_DIR`,
//!    `GEMINI_PROJECT_DIR`, `COPILOT_PROJECT_DIR`);
//! 2. the project the payload names ([`HookCall::project`]: Cursor's workspace root that
//!    holds the working directory);
//! 3. the nearest directory at or above the session directory holding `.toolgate`;
//! 4. the nearest one holding `.git`;
//! 5. the session directory.
//!
//! The session directory is the payload's working directory (`cwd`), except for an agent
//! whose `cwd` is where the one call runs ([`Agent::cwd_is_the_calls`]: Codex reports a
//! call's `workdir` there). For such an agent it is the hook process's own working
//! directory ([`ProjectHost::current_dir`]), where the agent starts its hooks: a call run in
//! `/` or in a vendored directory with its own `.toolgate` is still governed by the
//! session's policy, and its `cwd` only says where its relative paths lead.
//!
//! `.toolgate` is looked for above the session directory before `.git`, so a repository
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
//! /// `/p/.toolgate` and `/p/vendor/lib/.git` exist; no variable is set; the hook runs in `/p`.
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
//!     fn current_dir(&self) -> Option<std::path::PathBuf> {
//!         Some("/p".into())
//!     }
//! }
//!
//! // Claude Code's shell went into the nested repository: the project is still `/p`.
//! let claude = r#"{"session_id":"s","cwd":"/p/vendor/lib",
//!     "hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
//! let call = parse_call(None, claude).unwrap();
//! assert_eq!(project_dir(&call, &Files).unwrap(), Path::new("/p"));
//! // Codex's call runs in `/` (its `workdir`): the session's project is still `/p`.
//! let codex = r#"{"session_id":"s","turn_id":"t","cwd":"/",
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
    /// The working directory of the hook process itself, which the agent starts in its
    /// session's directory; `None` when the host cannot tell.
    fn current_dir(&self) -> Option<PathBuf>;
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

    /// Whether the payload's `cwd` is the directory of the one call rather than the
    /// session's: Codex reports a call's `workdir` there, so its project is searched for from
    /// the hook process's working directory, where Codex starts its hooks (the session's).
    ///
    /// ```
    /// use toolgate::agents::Agent;
    /// assert!(Agent::Codex.cwd_is_the_calls());
    /// assert!(!Agent::Claude.cwd_is_the_calls());
    /// ```
    pub const fn cwd_is_the_calls(self) -> bool {
        matches!(self, Agent::Codex)
    }
}

/// The project directory of `call` (see the module's documentation for the order). An
/// error when nothing names the project and the session directory is not known as an
/// absolute directory.
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
    let cwd = session_dir(call, host)?;
    let found = cwd
        .ancestors()
        .find(|d| host.is_dir(&d.join(".toolgate")))
        .or_else(|| cwd.ancestors().find(|d| host.exists(&d.join(".git"))));
    Ok(found.unwrap_or(&cwd).to_path_buf())
}

/// The directory the search for the project starts from: the hook process's working
/// directory for an agent whose `cwd` is the call's ([`Agent::cwd_is_the_calls`]), else the
/// payload's `cwd`. An error when that is not an absolute directory: never a search from
/// somewhere else, which could find a project with a looser policy.
fn session_dir(call: &HookCall, host: &dyn ProjectHost) -> Result<PathBuf> {
    if call.agent.cwd_is_the_calls() {
        return match host.current_dir() {
            Some(d) if is_absolute(&d.to_string_lossy()) => Ok(d),
            _ => Err(Error::new(
                ErrorKind::InvalidRequest,
                format!(
                    "toolgate cannot tell the hook's own working directory, which is {}'s \
                     session directory and holds the project's policy",
                    call.agent.name()
                ),
            )
            .with_hint(
                "run the hook as the agent starts it, in the session's directory, and check \
                 that the directory still exists",
            )),
        };
    }
    match &call.cwd {
        Some(c) if is_absolute(c) => Ok(PathBuf::from(c)),
        _ => Err(Error::new(
            ErrorKind::InvalidRequest,
            "the hook payload has no absolute `cwd`",
        )
        .with_hint("run the hook from an agent that reports its working directory")),
    }
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
    /// an environment of the given variables, and the hook's working directory.
    struct Fake {
        dirs: Vec<&'static str>,
        files: Vec<&'static str>,
        env: Vec<(&'static str, &'static str)>,
        hook_dir: Option<&'static str>,
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
        fn current_dir(&self) -> Option<PathBuf> {
            self.hook_dir.map(PathBuf::from)
        }
    }

    /// `/p` holds `.toolgate` and `.git`; `/p/vendor/lib` is a nested repository; the hook
    /// runs in `/p`.
    fn nested() -> Fake {
        Fake {
            dirs: vec!["/p/.toolgate", "/p/.git", "/p/vendor/lib/.git"],
            files: vec!["/p/sub/mod/.git"],
            env: Vec::new(),
            hook_dir: Some("/p"),
        }
    }

    fn project(payload: &serde_json::Value, host: &Fake) -> Result<PathBuf> {
        project_dir(&parse_call(None, &payload.to_string()).unwrap(), host)
    }

    fn codex(cwd: &str) -> serde_json::Value {
        json!({"session_id":"s","turn_id":"t","cwd":cwd,"hook_event_name":"PreToolUse",
            "tool_name":"Bash","tool_input":{"command":"git status"}})
    }

    /// A Claude Code payload, whose project is searched for from its `cwd` when
    /// `CLAUDE_PROJECT_DIR` is not set.
    fn claude(cwd: &str) -> serde_json::Value {
        json!({"session_id":"s","cwd":cwd,"hook_event_name":"PreToolUse",
            "tool_name":"Bash","tool_input":{"command":"ls"}})
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
                project(&claude(cwd), &host).unwrap(),
                Path::new("/p"),
                "{cwd}"
            );
        }
        // Without `.toolgate` anywhere, the nearest repository is the project.
        let host = Fake {
            dirs: vec!["/p/.git", "/p/vendor/lib/.git"],
            ..nested()
        };
        let p = project(&claude("/p/vendor/lib/src"), &host).unwrap();
        assert_eq!(p, Path::new("/p/vendor/lib"));
        // A `.git` file (a submodule's or a worktree's) counts as a repository too.
        let host = Fake {
            dirs: Vec::new(),
            ..nested()
        };
        assert_eq!(
            project(&claude("/p/sub/mod/x"), &host).unwrap(),
            Path::new("/p/sub/mod")
        );
        // Nothing above: the working directory.
        let p = project(&claude("/srv/app"), &host).unwrap();
        assert_eq!(p, Path::new("/srv/app"));
    }

    #[test]
    fn codexs_project_is_the_sessions_wherever_the_call_runs() {
        // Codex reports a call's `workdir` as `cwd`: `/`, a vendored directory holding a
        // `.toolgate` of its own, another repository. The session's project governs.
        let host = Fake {
            dirs: vec!["/p/.toolgate", "/p/vendor/lib/.toolgate", "/q/.toolgate"],
            ..nested()
        };
        for cwd in ["/", "/p/vendor/lib", "/p/vendor/lib/src", "/q", "/p"] {
            assert_eq!(
                project(&codex(cwd), &host).unwrap(),
                Path::new("/p"),
                "{cwd}"
            );
        }
        // The session directory is searched upward like any other.
        let host = Fake {
            hook_dir: Some("/p/sub"),
            ..nested()
        };
        assert_eq!(project(&codex("/"), &host).unwrap(), Path::new("/p"));
        // A hook that cannot tell its own directory blocks: no search from the call's.
        for hook_dir in [None, Some("p")] {
            let host = Fake {
                hook_dir,
                ..nested()
            };
            let e = project(&codex("/p"), &host).unwrap_err();
            assert_eq!(e.code(), "INVALID_REQUEST");
            assert!(e.to_string().contains("working directory"), "{e}");
        }
    }

    #[test]
    fn cursors_project_is_the_workspace_root_holding_the_working_directory() {
        let host = Fake {
            dirs: Vec::new(),
            files: vec!["/p/vendor/lib/.git", "/q/.git"],
            env: Vec::new(),
            hook_dir: Some("/q"),
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
