//! The flags of the commands whose flags are canonicalised.

/// One flag of a command: long name, short letter, whether it takes a value.
pub(super) type Flag = (&'static str, char, bool);

const RM: &[Flag] = &[
    ("force", 'f', false),
    ("recursive", 'r', false),
    ("interactive", 'i', false),
    ("dir", 'd', false),
    ("verbose", 'v', false),
    ("one-file-system", '\0', false),
    ("no-preserve-root", '\0', false),
    ("preserve-root", '\0', false),
];
const RMDIR: &[Flag] = &[("parents", 'p', false), ("verbose", 'v', false)];
const MV: &[Flag] = &[
    ("force", 'f', false),
    ("interactive", 'i', false),
    ("no-clobber", 'n', false),
    ("update", 'u', false),
    ("verbose", 'v', false),
    ("backup", 'b', false),
    ("target-directory", 't', true),
    ("no-target-directory", 'T', false),
];
const CP: &[Flag] = &[
    ("recursive", 'r', false),
    ("archive", 'a', false),
    ("force", 'f', false),
    ("interactive", 'i', false),
    ("no-clobber", 'n', false),
    ("preserve", 'p', false),
    ("verbose", 'v', false),
    ("update", 'u', false),
    ("link", 'l', false),
    ("symbolic-link", 's', false),
    ("target-directory", 't', true),
    ("no-target-directory", 'T', false),
];
const LN: &[Flag] = &[
    ("symbolic", 's', false),
    ("force", 'f', false),
    ("no-dereference", 'n', false),
    ("verbose", 'v', false),
    ("relative", 'r', false),
    ("target-directory", 't', true),
];
const MKDIR: &[Flag] = &[
    ("parents", 'p', false),
    ("verbose", 'v', false),
    ("mode", 'm', true),
];
const CHMOD: &[Flag] = &[
    ("recursive", 'R', false),
    ("verbose", 'v', false),
    ("changes", 'c', false),
    ("silent", 'f', false),
    ("quiet", 'f', false),
];
const CHOWN: &[Flag] = &[
    ("recursive", 'R', false),
    ("verbose", 'v', false),
    ("changes", 'c', false),
    ("silent", 'f', false),
    ("quiet", 'f', false),
    ("no-dereference", 'h', false),
];
const SHRED: &[Flag] = &[
    ("remove", 'u', false),
    ("force", 'f', false),
    ("zero", 'z', false),
    ("verbose", 'v', false),
    ("iterations", 'n', true),
];
const CURL: &[Flag] = &[
    ("request", 'X', true),
    ("output", 'o', true),
    ("remote-name", 'O', false),
    ("data", 'd', true),
    ("header", 'H', true),
    ("silent", 's', false),
    ("show-error", 'S', false),
    ("location", 'L', false),
    ("fail", 'f', false),
    ("insecure", 'k', false),
    ("user", 'u', true),
    ("form", 'F', true),
    ("upload-file", 'T', true),
    ("head", 'I', false),
    ("include", 'i', false),
    ("verbose", 'v', false),
    ("proxy", 'x', true),
    ("user-agent", 'A', true),
    ("referer", 'e', true),
    ("cookie", 'b', true),
    ("cookie-jar", 'c', true),
    ("config", 'K', true),
    ("write-out", 'w', true),
    ("max-time", 'm', true),
];
const WGET: &[Flag] = &[
    ("output-document", 'O', true),
    ("quiet", 'q', false),
    ("recursive", 'r', false),
    ("directory-prefix", 'P', true),
    ("continue", 'c', false),
    ("timestamping", 'N', false),
    ("no-verbose", '\0', false),
    ("post-data", '\0', true),
    ("input-file", 'i', true),
];
const GIT_PUSH: &[Flag] = &[
    ("force", 'f', false),
    ("set-upstream", 'u', false),
    ("delete", 'd', false),
    ("dry-run", 'n', false),
    ("quiet", 'q', false),
    ("verbose", 'v', false),
    ("all", '\0', false),
    ("mirror", '\0', false),
    ("tags", '\0', false),
    ("force-with-lease", '\0', false),
    ("no-verify", '\0', false),
];
const GIT_RESET: &[Flag] = &[
    ("hard", '\0', false),
    ("soft", '\0', false),
    ("mixed", '\0', false),
    ("keep", '\0', false),
    ("merge", '\0', false),
    ("quiet", 'q', false),
];
const GIT_CLEAN: &[Flag] = &[
    ("force", 'f', false),
    ("dry-run", 'n', false),
    ("interactive", 'i', false),
    ("quiet", 'q', false),
    ("exclude", 'e', true),
];
const GIT_CLEAN_SHORT: &str = "dxX";
const GIT_CHECKOUT: &[Flag] = &[
    ("force", 'f', false),
    ("patch", 'p', false),
    ("quiet", 'q', false),
    ("track", 't', false),
    ("detach", '\0', false),
    ("orphan", '\0', true),
];
const GIT_CHECKOUT_SHORT_VALUE: &str = "bB";
const GIT_BRANCH: &[Flag] = &[
    ("delete", 'd', false),
    ("force", 'f', false),
    ("move", 'm', false),
    ("copy", 'c', false),
    ("remotes", 'r', false),
    ("all", 'a', false),
    ("list", 'l', false),
    ("verbose", 'v', false),
    ("set-upstream-to", 'u', true),
];
const GIT_RESTORE: &[Flag] = &[
    ("source", 's', true),
    ("staged", 'S', false),
    ("worktree", 'W', false),
    ("patch", 'p', false),
    ("quiet", 'q', false),
];
const GIT_COMMIT: &[Flag] = &[
    ("message", 'm', true),
    ("all", 'a', false),
    ("no-verify", 'n', false),
    ("amend", '\0', false),
    ("quiet", 'q', false),
    ("file", 'F', true),
    ("author", '\0', true),
];

/// Flags of `command` (for `git`, the subcommand), with short letters that are not in the
/// long table: `(flags, extra boolean letters, extra value letters, letter aliases)`.
pub(super) struct Spec {
    flags: &'static [Flag],
    short_bool: &'static str,
    short_value: &'static str,
    aliases: &'static [(char, char)],
}

const fn spec(flags: &'static [Flag]) -> Spec {
    Spec {
        flags,
        short_bool: "",
        short_value: "",
        aliases: &[],
    }
}

/// The commands whose flags are canonicalised, for documentation and tests.
pub const CANONICAL_COMMANDS: &[&str] = &[
    "rm",
    "rmdir",
    "mv",
    "cp",
    "ln",
    "mkdir",
    "chmod",
    "chown",
    "chgrp",
    "shred",
    "curl",
    "wget",
    "git push",
    "git reset",
    "git clean",
    "git checkout",
    "git branch",
    "git restore",
    "git commit",
];

pub(super) fn spec_for(name: &str, sub: Option<&str>) -> Option<Spec> {
    Some(match (name, sub) {
        ("rm", _) => Spec {
            aliases: &[('R', 'r')],
            short_bool: "I",
            ..spec(RM)
        },
        ("rmdir", _) => spec(RMDIR),
        ("mv", _) => spec(MV),
        ("cp", _) => Spec {
            aliases: &[('R', 'r')],
            short_bool: "dPLH",
            ..spec(CP)
        },
        ("ln", _) => spec(LN),
        ("mkdir", _) => spec(MKDIR),
        ("chmod", _) => spec(CHMOD),
        ("chown" | "chgrp", _) => Spec {
            short_bool: "LHP",
            ..spec(CHOWN)
        },
        ("shred", _) => spec(SHRED),
        ("curl", _) => spec(CURL),
        ("wget", _) => spec(WGET),
        ("git", Some("push")) => spec(GIT_PUSH),
        ("git", Some("reset")) => spec(GIT_RESET),
        ("git", Some("clean")) => Spec {
            short_bool: GIT_CLEAN_SHORT,
            ..spec(GIT_CLEAN)
        },
        ("git", Some("checkout")) => Spec {
            short_value: GIT_CHECKOUT_SHORT_VALUE,
            ..spec(GIT_CHECKOUT)
        },
        ("git", Some("branch")) => Spec {
            short_bool: "DMC",
            ..spec(GIT_BRANCH)
        },
        ("git", Some("restore")) => spec(GIT_RESTORE),
        ("git", Some("commit")) => spec(GIT_COMMIT),
        _ => return None,
    })
}

impl Spec {
    pub(super) fn short(&self, c: char) -> Option<(char, bool)> {
        let c = self
            .aliases
            .iter()
            .find(|(from, _)| *from == c)
            .map_or(c, |(_, to)| *to);
        if let Some((_, s, v)) = self.flags.iter().find(|(_, s, _)| *s == c) {
            return Some((*s, *v));
        }
        if self.short_bool.contains(c) {
            return Some((c, false));
        }
        self.short_value.contains(c).then_some((c, true))
    }

    /// The flag a long option names, exactly or as an unambiguous prefix.
    pub(super) fn long(&self, name: &str) -> Option<Flag> {
        if let Some(f) = self.flags.iter().find(|(l, _, _)| *l == name) {
            return Some(*f);
        }
        let mut hits = self.flags.iter().filter(|(l, _, _)| l.starts_with(name));
        match (hits.next(), hits.next()) {
            (Some(f), None) if !name.is_empty() => Some(*f),
            _ => None,
        }
    }
}
