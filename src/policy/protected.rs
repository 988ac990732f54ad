//! Protected paths: files whose change would let an agent widen its own permissions or run
//! code later (version control internals, agent settings, shell start-up files, package
//! manager credentials). No allow rule or mode short of bypass allows a write to them.

/// Directory names that protect everything beneath them, at any depth.
const PROTECTED_DIRS: &[&str] = &[
    ".git",
    ".ssh",
    ".gnupg",
    ".claude",
    ".copilot",
    ".vscode",
    ".idea",
    ".husky",
    // Agent hook settings and toolgate's own policy files: an agent that could write them
    // could turn its own gate off.
    ".toolgate",
    ".gemini",
    ".codex",
    ".cursor",
];

/// File names protected at any depth.
const PROTECTED_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".inputrc",
    ".envrc",
    ".gitconfig",
    ".gitmodules",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pypirc",
    ".netrc",
    ".pgpass",
    ".mcp.json",
    ".claude.json",
    "toolgate.json",
    ".toolgate.json",
];

/// The one protected name that does not start with a dot.
const UNDOTTED_FILE: &str = "toolgate.json";

/// Directory paths (as consecutive segments) protected at any depth.
const PROTECTED_SEQUENCES: &[&[&str]] = &[
    &[".config", "fish"],
    &[".config", "git"],
    &[".config", "gh"],
    &[".config", "github-copilot"],
    &[".config", "toolgate"],
    &[".docker"],
    &[".kube"],
    &[".aws"],
    &[".github", "hooks"],
];

/// Whether a normalised absolute path is protected.
///
/// ```
/// use toolgate::policy::is_protected;
/// assert!(is_protected("/p/.git/hooks/pre-commit"));
/// assert!(is_protected("/home/ada/.bashrc"));
/// assert!(is_protected("/p/.claude/settings.json"));
/// assert!(!is_protected("/p/src/git.rs"));
/// assert!(!is_protected("/p/.github/workflows/ci.yml"));
/// ```
pub fn is_protected(path: &str) -> bool {
    // Every protected name starts with a dot but one file name: a path with neither a segment
    // that starts with a dot nor that file name at its end is not protected (most paths).
    if !path.contains("/.") && !path.ends_with(UNDOTTED_FILE) {
        return false;
    }
    let segs: Vec<&str> = crate::path::segments(path).collect();
    if segs.iter().any(|s| PROTECTED_DIRS.contains(s)) {
        return true;
    }
    if segs.last().is_some_and(|s| PROTECTED_FILES.contains(s)) {
        return true;
    }
    PROTECTED_SEQUENCES
        .iter()
        .any(|seq| segs.windows(seq.len()).any(|w| w == *seq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protected_name_but_one_starts_with_a_dot() {
        let names = PROTECTED_DIRS
            .iter()
            .chain(PROTECTED_FILES)
            .chain(PROTECTED_SEQUENCES.iter().filter_map(|seq| seq.first()));
        for name in names {
            assert!(
                name.starts_with('.') || *name == UNDOTTED_FILE,
                "`{name}` would be missed by the quick test in `is_protected`"
            );
        }
        assert!(PROTECTED_FILES.contains(&UNDOTTED_FILE));
    }

    #[test]
    fn the_quick_test_keeps_every_protected_path() {
        assert!(is_protected("/p/toolgate.json"));
        assert!(is_protected("//p/.aws/credentials"));
        assert!(is_protected("/home/ada/.config/gh/hosts.yml"));
        assert!(!is_protected("/p/src/main.rs"));
        assert!(!is_protected("/p/my-toolgate.json.bak"));
    }
}
