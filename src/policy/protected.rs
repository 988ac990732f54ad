//! Protected paths: files whose change would let an agent widen its own permissions or run
//! code later (version control internals, agent settings, shell start-up files, package
//! manager credentials). No allow rule or mode short of bypass allows a write to them.

/// Directory names that protect everything beneath them, at any depth.
const PROTECTED_DIRS: &[&str] = &[
    ".git", ".ssh", ".gnupg", ".claude", ".copilot", ".vscode", ".idea", ".husky",
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
