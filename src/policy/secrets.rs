//! Files that hold secrets: environment files, private keys, cloud and registry credentials,
//! password stores and shell history. Reading one asks by default through every tool unless
//! an allow rule names the file, and uploading one is denied unless an allow rule names the
//! upload.
//!
//! Names match with the widest reading: case-insensitively, at any depth, with `/` or `\`
//! as separators, whether the path is absolute, `~`-relative or relative as written.
//!
//! ```
//! use toolgate::policy::secret_kind;
//! assert_eq!(secret_kind("/p/.env"), Some("an environment file"));
//! assert_eq!(secret_kind("./config/.ENV.production"), Some("an environment file"));
//! assert_eq!(secret_kind(".env.example"), None);
//! assert_eq!(secret_kind("~/.ssh/id_ed25519"), Some("a private key"));
//! assert_eq!(secret_kind("~/.ssh/id_ed25519.pub"), None);
//! assert_eq!(secret_kind("/p/README.md"), None);
//! ```

use crate::decision::{Decider, Reason, RuleList};
use crate::tool::ToolKind;

use super::evaluate::Call;
use super::index::{ClassIndex, ToolQuery};

/// Environment file names that are templates, not secrets.
const ENV_TEMPLATES: &[&str] = &[".env.example", ".env.sample", ".env.template"];

/// File names (lowercase) that hold secrets at any depth, with what they are.
const SECRET_NAMES: &[(&str, &str)] = &[
    ("id_rsa", "a private key"),
    ("id_dsa", "a private key"),
    ("id_ecdsa", "a private key"),
    ("id_ed25519", "a private key"),
    ("id_ecdsa_sk", "a private key"),
    ("id_ed25519_sk", "a private key"),
    (".npmrc", "registry credentials"),
    (".pypirc", "registry credentials"),
    (".netrc", "login credentials"),
    ("_netrc", "login credentials"),
    (".git-credentials", "git credentials"),
    (".pgpass", "database credentials"),
    (".bash_history", "shell history"),
    (".zsh_history", "shell history"),
    (".sh_history", "shell history"),
    (".history", "shell history"),
    ("fish_history", "shell history"),
    (".python_history", "shell history"),
    (".node_repl_history", "shell history"),
    (".psql_history", "shell history"),
    (".mysql_history", "shell history"),
];

/// File name endings (lowercase) of keys, certificates and password databases.
const SECRET_EXTENSIONS: &[(&str, &str)] = &[
    (".pem", "a private key or certificate"),
    (".key", "a private key"),
    (".p12", "a private key store"),
    (".pfx", "a private key store"),
    (".p8", "a private key"),
    (".ppk", "a private key"),
    (".jks", "a private key store"),
    (".keystore", "a private key store"),
    (".kdbx", "a password database"),
];

/// Consecutive directory segments (lowercase) under which every file is secret.
const SECRET_DIRS: &[(&[&str], &str)] = &[
    (&[".config", "gcloud"], "cloud credentials"),
    (&[".azure"], "cloud credentials"),
    (&[".password-store"], "a password store"),
    (&[".gnupg"], "private keys"),
];

/// Consecutive segments (lowercase) ending in the file itself.
const SECRET_FILES: &[(&[&str], &str)] = &[
    (&[".aws", "credentials"], "cloud credentials"),
    (&[".docker", "config.json"], "registry credentials"),
    (&[".config", "gh", "hosts.yml"], "GitHub credentials"),
    (&[".kube", "config"], "cluster credentials"),
];

/// Files in `~/.ssh` that are public, not secret.
const SSH_PUBLIC: &[&str] = &[
    "known_hosts",
    "known_hosts.old",
    "config",
    "authorized_keys",
];

/// What kind of secret `path` holds (`"an environment file"`, `"a private key"`, ...), or
/// `None` when its name is not a known secret location.
///
/// A path with a Windows spelling is also read as a Windows file system opens it
/// ([`crate::path::fold_windows`]): `key.pem.` and `.env::$DATA` are `key.pem` and `.env`
/// there.
///
/// ```
/// use toolgate::policy::secret_kind;
/// assert_eq!(secret_kind("/p/key.pem."), Some("a private key or certificate"));
/// assert_eq!(secret_kind("/p/.env::$DATA"), Some("an environment file"));
/// assert_eq!(secret_kind("C:\\p\\.aws\\credentials "), Some("cloud credentials"));
/// assert_eq!(secret_kind("/p/notes.txt."), None);
/// ```
pub fn secret_kind(path: &str) -> Option<&'static str> {
    kind_as_written(path).or_else(|| {
        crate::path::has_windows_spelling(path)
            .then(|| kind_as_written(&crate::path::fold_windows(path)))
            .flatten()
    })
}

/// [`secret_kind`] of `path` read as written.
fn kind_as_written(path: &str) -> Option<&'static str> {
    if cannot_be_secret(path) {
        return None;
    }
    full_kind(path)
}

/// The full check of [`secret_kind`], without the quick reject. A segment in 8.3 short-name
/// form (`ENV~1.PRO`, `CREDEN~1`) counts as every long name it could abbreviate
/// ([`crate::path::names`]), so a short name that could be a secret's is one.
fn full_kind(path: &str) -> Option<&'static str> {
    let lower = path.to_lowercase();
    let segs: Vec<&str> = lower
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let name = *segs.last()?;
    if is_environment_file(name) {
        return Some("an environment file");
    }
    if let Some((_, kind)) = SECRET_NAMES
        .iter()
        .find(|(n, _)| crate::path::names(n, name))
    {
        return Some(kind);
    }
    if let Some((_, kind)) = SECRET_EXTENSIONS
        .iter()
        .find(|(e, _)| name.ends_with(e) || short_extension_of(name, e))
    {
        return Some(kind);
    }
    let dirs = segs.get(..segs.len().saturating_sub(1)).unwrap_or_default();
    let names_all = |seq: &[&str], at: &[&str]| {
        seq.len() == at.len() && seq.iter().zip(at).all(|(n, s)| crate::path::names(n, s))
    };
    for (seq, kind) in SECRET_DIRS {
        if dirs.windows(seq.len()).any(|w| names_all(seq, w)) {
            return Some(kind);
        }
    }
    for (seq, kind) in SECRET_FILES {
        let tail = segs.get(segs.len().saturating_sub(seq.len())..);
        if tail.is_some_and(|t| names_all(seq, t)) {
            return Some(kind);
        }
    }
    let in_ssh = dirs.iter().any(|d| crate::path::names(".ssh", d));
    if in_ssh && !name.ends_with(".pub") && !SSH_PUBLIC.contains(&name) {
        return Some("a private key");
    }
    None
}

/// Whether the lowercased file name `name` is an environment file (`.env`, `.env.*` but
/// the templates), or an 8.3 short name that could stand for one (`env~1`, `env~1.pro`:
/// the start of `env` and of whatever follows it).
fn is_environment_file(name: &str) -> bool {
    let long = (name == ".env" || name.starts_with(".env.")) && !ENV_TEMPLATES.contains(&name);
    long || crate::path::short_name(name)
        .is_some_and(|(base, _)| base.starts_with("env") || "env".starts_with(&base))
}

/// Whether the lowercased name `name` is an 8.3 short name whose extension could abbreviate
/// the secret ending `ending` (`vault~1.kdb` for `.kdbx`).
fn short_extension_of(name: &str, ending: &str) -> bool {
    let ending = ending.trim_start_matches('.');
    crate::path::short_name(name)
        .is_some_and(|(_, ext)| !ext.is_empty() && ending.starts_with(&ext))
}

/// A quick reject for [`secret_kind`], without allocating: an ASCII path none of whose
/// segments is a secret directory's first segment (`.ssh`, `.aws`, ...) and whose last
/// segment is no environment file, secret name or secret ending. Other paths (any non-ASCII
/// byte, whose lowercase form may differ, or a `~`) take the full check.
fn cannot_be_secret(path: &str) -> bool {
    // A `~` may make a segment an 8.3 short name, which the full check reads widely.
    if !path.is_ascii() || path.as_bytes().contains(&b'~') {
        return false;
    }
    // ASCII, so split by bytes (the size-first build runs `str::split` through the generic
    // pattern searcher).
    let mut segs = path
        .as_bytes()
        .split(|b| *b == b'/' || *b == b'\\')
        .filter(|s| !s.is_empty() && *s != b".");
    let Some(name) = segs.next_back() else {
        return true;
    };
    // Lengths first: most names differ in length from every entry.
    let is = |a: &[u8], b: &str| a.len() == b.len() && a.eq_ignore_ascii_case(b.as_bytes());
    let ends = |a: &[u8], e: &str| {
        let e = e.as_bytes();
        a.len() >= e.len()
            && a.last().map(u8::to_ascii_lowercase) == e.last().copied()
            && a.get(a.len() - e.len()..)
                .is_some_and(|tail| tail.eq_ignore_ascii_case(e))
    };
    let starts_env = name.get(..4).is_some_and(|h| is(h, ".env"));
    if starts_env
        || SECRET_NAMES.iter().any(|(n, _)| is(name, n))
        || SECRET_EXTENSIONS.iter().any(|(e, _)| ends(name, e))
    {
        return false;
    }
    let heads = || {
        SECRET_DIRS
            .iter()
            .chain(SECRET_FILES)
            .filter_map(|(seq, _)| seq.first().copied())
            .chain(std::iter::once(".ssh"))
    };
    !heads().any(|h| is(name, h)) && !segs.any(|d| heads().any(|h| is(d, h)))
}

/// Whether `path` names a file that holds secrets (see [`secret_kind`]).
///
/// ```
/// assert!(toolgate::policy::is_secret("/home/ada/.aws/credentials"));
/// assert!(!toolgate::policy::is_secret("/p/src/env.rs"));
/// ```
pub fn is_secret(path: &str) -> bool {
    secret_kind(path).is_some()
}

/// Whether a search narrowed to `patterns` (globs relative to its root; `None` for every
/// file) opens the file at `below` (its path below the root). The widest reading: a pattern
/// counts when it matches the path, in either case, or one of its leading directories (a
/// search given a directory's name looks inside it).
///
/// ```text
/// search_opens(Some(["**/server*"]), "certs/server.key")  -> true
/// search_opens(Some(["**/.aws"]),    ".aws/credentials")  -> true
/// search_opens(Some(["**/*.rs"]),    "certs/server.key")  -> false
/// ```
pub(crate) fn search_opens(patterns: Option<&[String]>, below: &str) -> bool {
    let Some(patterns) = patterns else {
        return true;
    };
    let ends = below
        .match_indices('/')
        .map(|(at, _)| at)
        .chain([below.len()]);
    ends.filter_map(|end| below.get(..end)).any(|path| {
        patterns
            .iter()
            .any(|p| crate::shell::glob::matches(p, path))
    })
}

/// Every secret location, for documentation and error messages: names, endings and
/// directories as they match.
pub fn secret_patterns() -> Vec<String> {
    let mut out = vec![".env".to_owned(), ".env.*".to_owned()];
    out.extend(SECRET_NAMES.iter().map(|(n, _)| (*n).to_owned()));
    out.extend(SECRET_EXTENSIONS.iter().map(|(e, _)| format!("*{e}")));
    out.extend(
        SECRET_DIRS
            .iter()
            .map(|(s, _)| format!("{}/**", s.join("/"))),
    );
    out.extend(SECRET_FILES.iter().map(|(s, _)| s.join("/")));
    out.push(".ssh/** (not *.pub, known_hosts, config, authorized_keys)".to_owned());
    out
}

impl Call<'_> {
    /// For a call of a reading tool: the reason it asks because one of `paths` (or a
    /// Grep `glob`) holds secrets, unless an allow rule of the tool names the file.
    pub(crate) fn secret_read(&self, paths: &[String]) -> Option<Reason> {
        let kind = self.tool.defaults.kind;
        if !matches!(kind, ToolKind::Read | ToolKind::Grep) {
            return None;
        }
        let mut globs = Vec::new();
        if kind == ToolKind::Grep {
            // The search opens the files its glob matches, hidden and ignored ones included
            // (a glob overrides ripgrep's ignore files): one that could match a secret file
            // name asks, named by the secret it could match.
            for key in ["glob", "include"] {
                let Some(value) = self.request.input_str(key) else {
                    continue;
                };
                for g in crate::tool::grep_globs(value) {
                    globs.push(g.replace(['*', '?'], ""));
                    globs.push(g.replace('*', ".x"));
                    if let Some(name) = glob_secret_example(g) {
                        globs.push(name);
                    }
                }
            }
        }
        if !paths.iter().chain(&globs).any(|p| is_secret(p)) {
            return None;
        }
        let mut candidates = paths.to_vec();
        candidates.extend(globs);
        let q = self.query();
        self.secret_read_by(&q, &candidates)
    }

    /// For a search that reads the files below the normalised absolute directory `dir`
    /// (`grep -r`, the Grep tool): the reason it asks because the host found a secret file
    /// there ([`crate::Request::add_realpaths_listing`]) that the search opens, unless an
    /// allow rule of `q` names the file. With `patterns` (globs relative to `dir`, as
    /// [`Call::search_patterns`] gives them), only a file that one of them matches is counted
    /// ([`search_opens`]).
    pub(crate) fn secret_below(
        &self,
        q: &ToolQuery,
        dir: &str,
        patterns: Option<&[String]>,
    ) -> Option<Reason> {
        let dir = dir.trim_end_matches('/');
        self.request.realpaths.iter().find_map(|(path, real)| {
            let below = path.strip_prefix(dir)?.strip_prefix('/')?;
            if !path.starts_with('/') || !search_opens(patterns, below) {
                return None;
            }
            let mut candidates = vec![path.clone()];
            if !real.is_empty() && real != path {
                candidates.push(real.clone());
            }
            let reason = self.secret_read_by(q, &candidates)?;
            Some(Reason {
                text: format!("the search reads every file below `{dir}`: {}", reason.text),
                decider: reason.decider,
            })
        })
    }

    /// The reason a read of `paths` by the file tool `q` asks because one of them holds
    /// secrets, unless an allow rule names the file (a path rule whose last segment is not
    /// a bare `*` or `**`).
    pub(crate) fn secret_read_by(&self, q: &ToolQuery, paths: &[String]) -> Option<Reason> {
        let (path, kind) = paths
            .iter()
            .find_map(|p| secret_kind(p).map(|k| (p.clone(), k)))?;
        let cwd = self.anchor.as_deref();
        let home = self.home.as_deref();
        let allowed = self.first(RuleList::Allow, &|idx: &ClassIndex| {
            let mut out = Vec::new();
            idx.path_matches(q.kind, &path, cwd, home, &mut out);
            out
        });
        if allowed.is_some_and(|r| names_a_file(&r)) {
            return None;
        }
        Some(Reason {
            decider: Decider::SecretFile { path: path.clone() },
            text: format!(
                "`{path}` holds secrets ({kind}); reading it asks unless an allow rule names \
                 the file"
            ),
        })
    }
}

/// A secret file name (or path) that the search glob `glob` could match, read the widest
/// way: braces expanded, `*`, `?` and `[...]` matching any character including a leading
/// dot, case ignored. `None` when it can match none. A glob whose braces cannot be expanded
/// could match anything.
///
/// Directory segments are compared with the secret directories (`.ssh`, `.aws`, ...) only
/// when they are more than a bare `*` or `**`: `**/*.rs` does not ask, `.s[s]h/*` does.
///
/// ```
/// use toolgate::policy::glob_secret_example;
/// for g in [".[e]nv", "{.env,x}", "*env", "*", ".env*", "*.{pem,txt}", ".s?h/*", "**/.npmr?"] {
///     assert!(glob_secret_example(g).is_some(), "{g}");
/// }
/// for g in ["*.rs", "src/**/*.ts", "**/*.md", "README*", "*.{json,toml}"] {
///     assert!(glob_secret_example(g).is_none(), "{g}");
/// }
/// ```
pub fn glob_secret_example(glob: &str) -> Option<String> {
    let Some(alternatives) = super::evaluate::expand_braces(glob) else {
        return Some(".env".to_owned());
    };
    // (pattern, example, the characters of the pattern a piece of the glob other than `*`
    // must match): a glob could open any `.env.<suffix>` or `<name>.pem`, but `*.rs`
    // matching `.env.rs`, or `README*` matching `README.pem`, only through a `*` would make
    // every search ask. So `.env.*` needs a piece of the glob to match within `.env`, an
    // ending within the ending, and the usual `.env` suffixes are listed.
    let env_suffixes = [
        "local",
        "production",
        "prod",
        "development",
        "dev",
        "staging",
        "test",
        "ci",
        "docker",
        "backup",
        "bak",
        "old",
        "save",
        "secret",
        "secrets",
    ];
    let all = 0..usize::MAX;
    let names: Vec<(Vec<Piece>, String, std::ops::Range<usize>)> = [
        (".env".to_owned(), all.clone()),
        (".env.*".to_owned(), 0..4),
    ]
    .into_iter()
    .chain(
        env_suffixes
            .iter()
            .map(|x| (format!(".env.{x}"), all.clone())),
    )
    .chain(
        SECRET_NAMES
            .iter()
            .map(|(n, _)| ((*n).to_owned(), all.clone())),
    )
    .chain(
        SECRET_EXTENSIONS
            .iter()
            .map(|(e, _)| (format!("*{e}"), 1..1 + e.len())),
    )
    .map(|(t, touch)| (pieces(&t), t.replace('*', "x"), touch))
    .collect();
    let heads: Vec<&str> = SECRET_DIRS
        .iter()
        .chain(SECRET_FILES)
        .filter_map(|(seq, _)| seq.first().copied())
        .chain(std::iter::once(".ssh"))
        .collect();
    for alt in alternatives {
        let segs: Vec<&str> = alt
            .split(['/', '\\'])
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        let Some((name, dirs)) = segs.split_last() else {
            continue;
        };
        let Some(g) = glob_pieces(name) else {
            return Some(".env".to_owned());
        };
        for (text, example, touch) in &names {
            if intersects(&g, text, touch) {
                return Some(example.clone());
            }
        }
        for dir in dirs.iter().filter(|d| **d != "*" && **d != "**") {
            let Some(g) = glob_pieces(dir) else {
                return Some(".env".to_owned());
            };
            if let Some(h) = heads
                .iter()
                .find(|h| intersects(&g, &pieces(h), &(0..usize::MAX)))
            {
                return Some(match *h {
                    ".aws" => ".aws/credentials".to_owned(),
                    ".docker" => ".docker/config.json".to_owned(),
                    ".kube" => ".kube/config".to_owned(),
                    ".config" => ".config/gcloud/x".to_owned(),
                    other => format!("{other}/x"),
                });
            }
        }
    }
    None
}

/// One element of a glob or of a secret name pattern.
#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Char(char),
    /// Any one character (`?`), or a class (`[...]`): (negated, members as ranges).
    One(Option<(bool, Vec<(char, char)>)>),
    /// Any run of characters (`*`, `**`).
    Any,
}

/// A secret name pattern (literals and `*`) as pieces.
fn pieces(text: &str) -> Vec<Piece> {
    text.chars()
        .map(|c| if c == '*' { Piece::Any } else { Piece::Char(c) })
        .collect()
}

/// A glob segment as pieces; `None` when it cannot be read (an unclosed class).
fn glob_pieces(glob: &str) -> Option<Vec<Piece>> {
    let chars: Vec<char> = glob.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '*' => {
                if out.last() != Some(&Piece::Any) {
                    out.push(Piece::Any);
                }
            }
            '?' => out.push(Piece::One(None)),
            '\\' => {
                out.push(Piece::Char(*chars.get(i)?));
                i += 1;
            }
            '[' => {
                let negated = matches!(chars.get(i), Some('!' | '^'));
                if negated {
                    i += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = *chars.get(i)?;
                    i += 1;
                    if c == ']' && !first {
                        break;
                    }
                    first = false;
                    if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|e| *e != ']') {
                        let end = *chars.get(i + 1)?;
                        i += 2;
                        ranges.push((c, end));
                    } else {
                        ranges.push((c, c));
                    }
                }
                out.push(Piece::One(Some((negated, ranges))));
            }
            c => out.push(Piece::Char(c)),
        }
    }
    Some(out)
}

/// Whether a class piece admits `c` (either case).
fn admits(class: &Option<(bool, Vec<(char, char)>)>, c: char) -> bool {
    let Some((negated, ranges)) = class else {
        return true;
    };
    let hit = |x: char| ranges.iter().any(|(a, b)| *a <= x && x <= *b);
    let upper = c.to_uppercase().next().unwrap_or(c);
    let inside = hit(c) || hit(upper);
    // A negated class is read widely: it admits the character unless it excludes both cases.
    if *negated {
        !(hit(c) && hit(upper))
    } else {
        inside
    }
}

/// Whether some string matches both the glob `g` and the name pattern `t` (literals and
/// `*`), with a piece of the glob other than `*` matching a character of `t` whose index is
/// in `touch` (a pattern without `*` is matched whole, so any piece will do).
fn intersects(g: &[Piece], t: &[Piece], touch: &std::ops::Range<usize>) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(0usize, 0usize, !t.contains(&Piece::Any))];
    while let Some((gi, ti, touched)) = stack.pop() {
        if !seen.insert((gi, ti, touched)) {
            continue;
        }
        let mark = touched || touch.contains(&ti);
        match (g.get(gi), t.get(ti)) {
            (None, None) if touched => return true,
            (Some(Piece::Any), _) => {
                stack.push((gi + 1, ti, touched));
                if ti < t.len() {
                    stack.push((gi, ti + 1, touched));
                }
            }
            (_, Some(Piece::Any)) => {
                stack.push((gi, ti + 1, touched));
                if gi < g.len() {
                    stack.push((gi + 1, ti, touched));
                }
            }
            (Some(Piece::Char(a)), Some(Piece::Char(b)))
                if a.to_lowercase().eq(b.to_lowercase()) =>
            {
                stack.push((gi + 1, ti + 1, mark));
            }
            (Some(Piece::One(class)), Some(Piece::Char(b))) if admits(class, *b) => {
                stack.push((gi + 1, ti + 1, mark));
            }
            _ => {}
        }
    }
    false
}

/// Whether an allow rule names a file rather than a whole tree: its specifier's last
/// segment is more than `*` or `**`.
fn names_a_file(r: &Reason) -> bool {
    let rule = match &r.decider {
        Decider::Rule { rule, .. } => rule,
        _ => return false,
    };
    let Some(spec) = rule
        .split_once('(')
        .and_then(|(_, rest)| rest.strip_suffix(')'))
    else {
        return false;
    };
    let last = spec.rsplit('/').next().unwrap_or(spec);
    !last.is_empty() && !last.chars().all(|c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decision on `tool` with `input` in `/p`, which holds `/p/.env` and
    /// `/p/certs/server.key`, as a host that lists directories finds them.
    fn in_project(
        policy: &str,
        agent: Option<&str>,
        tool: &str,
        input: serde_json::Value,
    ) -> (crate::decision::Effect, String) {
        let policy = crate::Policy::from_json(policy).unwrap();
        let mut r = crate::Request {
            tool: tool.into(),
            input,
            cwd: Some("/p".into()),
            agent: agent.map(str::to_owned),
            ..crate::Request::default()
        };
        let list = |dir: &str| {
            let names: &[&str] = match dir {
                "/p" => &[".env", "src", "certs", "conf"],
                "/p/src" => &["main.rs"],
                "/p/conf" => &[".env"],
                "/p/certs" => &["server.key"],
                _ => &[],
            };
            Some(names.iter().map(|n| (*n).to_owned()).collect())
        };
        r.add_realpaths_listing(|p| crate::path::normalize(p, None, None), list);
        let d = policy.evaluate(&r);
        (d.effect, d.reason.text)
    }

    #[test]
    fn a_search_with_a_secret_file_below_it_asks() {
        use crate::decision::Effect;
        use serde_json::json;
        let bash =
            |policy: &str, c: &str| in_project(policy, None, "Bash", json!({ "command": c }));
        for line in [
            "grep -r TOKEN .",
            "rg TOKEN",
            "cd src && grep -rn TOKEN ../certs",
            "grep -R x certs",
        ] {
            let (effect, why) = bash("{}", line);
            assert_eq!(effect, Effect::Ask, "{line}");
            assert!(why.contains("holds secrets"), "{line}: {why}");
        }
        // `..` of `/p` (should `cd src` fail) is `/`, which no walk covers.
        let (effect, why) = bash("{}", "cd src && grep -rn TOKEN ..");
        assert_eq!(effect, Effect::Ask);
        assert!(why.contains("could not all resolve"), "{why}");
        // An allow rule on the program does not name the file; a Read rule that does, does.
        let grep_anything = r#"{"permissions":{"allow":["Bash(grep *)"]}}"#;
        assert_eq!(bash(grep_anything, "grep -r TOKEN certs").0, Effect::Ask);
        let named = r#"{"permissions":{"allow":["Read(./certs/server.key)"]}}"#;
        assert_eq!(bash(named, "grep -r TOKEN certs").0, Effect::Allow);
        for line in ["grep -r TOKEN src", "grep TOKEN src/main.rs", "ls -la"] {
            assert_eq!(bash("{}", line).0, Effect::Allow, "{line}");
        }
        let grep =
            |agent: &str, input: serde_json::Value| in_project("{}", Some(agent), "Grep", input).0;
        assert_eq!(grep("gemini", json!({"pattern": "TOKEN"})), Effect::Ask);
        assert_eq!(
            grep("gemini", json!({"pattern": "TOKEN", "glob": "!*.rs"})),
            Effect::Ask
        );
        assert_eq!(
            grep("gemini", json!({"pattern": "TOKEN", "glob": "*.rs"})),
            Effect::Allow
        );
        assert_eq!(
            grep("gemini", json!({"pattern": "TOKEN", "path": "src"})),
            Effect::Allow
        );
        // Claude Code's Grep runs ripgrep with `--hidden`: a hidden secret counts too.
        assert_eq!(
            grep("claude", json!({"pattern": "TOKEN", "path": "conf"})),
            Effect::Ask
        );
        assert_eq!(
            grep("claude", json!({"pattern": "TOKEN", "path": "/p"})),
            Effect::Ask
        );
        let no_secret = in_project(
            "{}",
            Some("claude"),
            "Grep",
            json!({"pattern": "T", "path": "src"}),
        );
        assert_eq!(no_secret.0, Effect::Allow);
    }

    #[test]
    fn a_shell_search_narrowed_by_its_name_globs_counts_only_the_files_they_match() {
        use crate::decision::Effect;
        use serde_json::json;
        let bash = |c: &str| in_project("{}", None, "Bash", json!({ "command": c })).0;
        for line in [
            "grep -rn TOKEN --include='*.rs' .",
            "grep -rn TOKEN --include='*.rs' --include='*.md' --exclude=x .",
            "rg -g '*.rs' TOKEN",
            "rg -g '*.{rs,md}' -g '!x.rs' TOKEN",
            "rg --iglob '*.RS' TOKEN",
            "git grep -n TOKEN -- src",
            "git diff -- '*.rs'",
            "git grep -l TOKEN -- '*.rs' '*.md'",
        ] {
            assert_eq!(bash(line), Effect::Allow, "{line}");
        }
        for line in [
            // A glob that matches a secret file's name, or none that narrows.
            "grep -rn TOKEN --include='*.key' .",
            "grep -rn TOKEN --include='*env' .",
            "grep -rn TOKEN --include='*' .",
            "rg -g '.env*' TOKEN",
            "rg -g 'server*' TOKEN",
            "rg -g 'certs' TOKEN",
            "rg -g '!*.md' TOKEN",
            // GNU grep opens every name neither matches when an exclusion comes first.
            "grep -rn TOKEN --exclude=x --include='*.rs' .",
            "grep -rn TOKEN --exclude-from=.gitignore --include='*.rs' .",
            // grep reads braces as characters; a `/` is anchored differently by each program.
            "grep -rn TOKEN --include='*.{rs,md}' .",
            "rg -g 'src/*.rs' TOKEN",
            // A file named as an operand is read whatever the globs say.
            "grep -rn TOKEN --include='*.rs' .env",
            "rg -g '*.rs' TOKEN certs/server.key",
            // git: a revision (or a word that may be one) reads the whole tree.
            "git grep -n TOKEN src",
            "git grep -n TOKEN HEAD -- src",
            "git diff HEAD -- '*.rs'",
            "git diff -- '*.key'",
            "git grep TOKEN -- certs",
        ] {
            assert_eq!(bash(line), Effect::Ask, "{line}");
        }
    }

    #[test]
    fn a_search_narrowed_to_a_secret_file_it_found_asks() {
        use crate::decision::Effect;
        use serde_json::json;
        let grep = |agent: &str, glob: &str| {
            let (effect, why) = in_project(
                "{}",
                Some(agent),
                "Grep",
                json!({"pattern": "TOKEN", "glob": glob}),
            );
            (effect, why)
        };
        for agent in ["claude", "gemini"] {
            for glob in ["server*", "*server*", "s*", "certs", "{server*,*.rs}"] {
                let (effect, why) = grep(agent, glob);
                assert_eq!(effect, Effect::Ask, "{agent} {glob}");
                assert!(why.contains("server.key"), "{agent} {glob}: {why}");
            }
            for glob in ["*.rs", "main*", "src"] {
                assert_eq!(grep(agent, glob).0, Effect::Allow, "{agent} {glob}");
            }
        }
        // Gemini's search opens hidden files: `.e*` matches `.env`.
        assert_eq!(grep("gemini", ".e*").0, Effect::Ask);
        let include = in_project(
            "{}",
            Some("gemini"),
            "Grep",
            json!({"pattern": "TOKEN", "include": "serv*"}),
        );
        assert_eq!(include.0, Effect::Ask);
    }

    #[test]
    fn search_opens_what_a_pattern_or_a_leading_directory_matches() {
        let p = |globs: &[&str]| globs.iter().map(|g| (*g).to_owned()).collect::<Vec<_>>();
        assert!(search_opens(None, "certs/server.key"));
        assert!(search_opens(Some(&p(&["**/server*"])), "certs/server.key"));
        assert!(search_opens(Some(&p(&["**/.aws"])), ".aws/credentials"));
        assert!(search_opens(Some(&p(&["**/CRED*"])), ".aws/credentials"));
        assert!(!search_opens(Some(&p(&["**/*.rs"])), "certs/server.key"));
        assert!(!search_opens(Some(&[]), "certs/server.key"));
    }

    #[test]
    fn a_windows_spelling_of_a_secret_file_asks() {
        let policy = crate::Policy::from_json("{}").unwrap();
        let read = |file_path: &str| {
            let r = crate::Request {
                tool: "Read".into(),
                input: serde_json::json!({ "file_path": file_path }),
                cwd: Some("/p".into()),
                ..crate::Request::default()
            };
            policy.evaluate(&r).effect
        };
        use crate::decision::Effect;
        for path in [
            "key.pem.",
            "key.pem ",
            ".env::$DATA",
            ".env:x",
            "id_rsa. .",
            ".ssh\\id_ed25519",
            ".aws/credentials.",
        ] {
            assert_eq!(read(path), Effect::Ask, "{path:?}");
        }
        for path in ["notes.txt.", "src/main.rs::$DATA", "..."] {
            assert_eq!(read(path), Effect::Allow, "{path:?}");
        }
    }

    #[test]
    fn a_grep_glob_that_could_match_a_secret_asks() {
        // Claude Code's Grep runs ripgrep with `--hidden`, and a glob overrides the ignore
        // files: any glob that could match `.env` opens it.
        let policy = crate::Policy::from_json("{}").unwrap();
        let grep = |input: serde_json::Value| {
            let r = crate::Request {
                tool: "Grep".into(),
                input,
                cwd: Some("/p".into()),
                ..crate::Request::default()
            };
            policy.evaluate(&r).effect
        };
        use crate::decision::Effect;
        for glob in [
            ".[e]nv", "{.env,x}", "*env", ".env*", "*", ".e?v.*", "*.pe[m]", "*.local",
        ] {
            for key in ["glob", "include"] {
                let e = grep(serde_json::json!({"pattern":"API", key: glob}));
                assert_eq!(e, Effect::Ask, "{key} {glob}");
            }
        }
        for glob in ["*.rs", "src/**/*.ts", "*.{json,toml}"] {
            let e = grep(serde_json::json!({"pattern":"API","glob": glob}));
            assert_eq!(e, Effect::Allow, "{glob}");
        }
    }

    #[test]
    fn the_quick_reject_never_hides_a_secret() {
        let mut names: Vec<String> = vec![".env".into(), ".env.local".into(), ".ENV".into()];
        names.extend(SECRET_NAMES.iter().map(|(n, _)| (*n).to_owned()));
        names.extend(SECRET_EXTENSIONS.iter().map(|(e, _)| format!("x{e}")));
        for (seq, _) in SECRET_DIRS.iter().chain(SECRET_FILES) {
            names.push(seq.join("/"));
            names.push(format!("{}/x", seq.join("/")));
        }
        names.extend([
            "ENV~1.PRO".into(),
            "GIT-CR~1".into(),
            ".aws/CREDEN~1".into(),
            "AWS~1/CREDEN~1".into(),
            "KUBE~1/config".into(),
            "SSH~1/id".into(),
            "VAULT~1.KDB".into(),
            "SRC~1/main.rs".into(),
            ".ssh/id".into(),
            "\u{212a}ey.txt".into(),
            "x.\u{212a}ey".into(),
        ]);
        names
            .extend(["file.txt", "src/env.rs", "README.md", "a/b/c.ts", ".", ""].map(String::from));
        for n in names {
            for p in [
                n.clone(),
                n.to_uppercase(),
                format!("/home/ada/{n}"),
                format!("./{}", n.to_uppercase()),
                format!("C:\\Users\\ada\\{}", n.replace('/', "\\")),
                format!("{n}/"),
            ] {
                assert_eq!(secret_kind(&p), full_kind(&p), "{p}");
            }
        }
    }

    #[test]
    fn the_listed_secrets_match_at_any_depth_and_case() {
        for p in [
            ".env",
            "/p/.env",
            "/p/app/.env.local",
            "./.env.production",
            "C:\\proj\\.Env",
            "/p/certs/server.PEM",
            "/p/tls.key",
            "/home/ada/.ssh/id_rsa",
            "/home/ada/.ssh/deploy_key",
            "~/.aws/credentials",
            "~/.config/gcloud/application_default_credentials.json",
            "~/.azure/accessTokens.json",
            "~/.docker/config.json",
            "/home/ada/.npmrc",
            "/p/.npmrc",
            "~/.pypirc",
            "~/.netrc",
            "~/.git-credentials",
            "~/.config/gh/hosts.yml",
            "~/.kube/config",
            "~/.password-store/mail.gpg",
            "/p/vault.kdbx",
            "/p/cert.p12",
            "/p/cert.pfx",
            "~/.bash_history",
            "~/.zsh_history",
        ] {
            assert!(is_secret(p), "{p}");
        }
    }

    #[test]
    fn short_names_of_secret_files_are_secret() {
        for (p, kind) in [
            ("/p/ENV~1.PRO", "an environment file"),
            ("/p/ENV~1", "an environment file"),
            ("/p/GIT-CR~1", "git credentials"),
            ("/p/NPMRC~1", "registry credentials"),
            ("/p/PGPASS~1", "database credentials"),
            ("/p/BASH_H~1", "shell history"),
            ("/p/VAULT~1.KDB", "a password database"),
            ("/home/ada/.aws/CREDEN~1", "cloud credentials"),
            ("/home/ada/AWS~1/CREDEN~1", "cloud credentials"),
            ("/home/ada/.docker/CONFIG~1.JSO", "registry credentials"),
            ("/home/ada/KUBE~1/config", "cluster credentials"),
            ("/home/ada/CONFIG~1/GCLOUD~1/x.json", "cloud credentials"),
            ("/home/ada/SSH~1/deploy", "a private key"),
            ("C:\\Users\\ada\\AWS~1\\CREDEN~1", "cloud credentials"),
        ] {
            assert_eq!(secret_kind(p), Some(kind), "{p}");
        }
        for p in [
            "/p/SRC~1/main.rs",
            "/p/README~1.MD",
            "/home/ada/.aws/CONFIG~1",
            "/home/ada/SSH~1/KNOWN_~1.PUB",
        ] {
            assert_eq!(secret_kind(p), None, "{p}");
        }
    }

    #[test]
    fn templates_public_keys_and_ordinary_files_are_not_secret() {
        for p in [
            ".env.example",
            "/p/.env.sample",
            "/p/.ENV.TEMPLATE",
            "/p/README.md",
            "/p/src/env.rs",
            "/p/environment.ts",
            "~/.ssh/id_rsa.pub",
            "~/.ssh/known_hosts",
            "~/.ssh/config",
            "/p/keys/monkey",
            "/p/.aws/config",
            "/p/.kube/cache/x",
        ] {
            assert!(!is_secret(p), "{p}");
        }
    }

    #[test]
    fn the_pattern_list_names_every_table() {
        let all = secret_patterns().join(" ");
        for needle in [
            ".env.*",
            "id_ed25519",
            "*.kdbx",
            ".azure/**",
            ".kube/config",
        ] {
            assert!(all.contains(needle), "{needle}");
        }
    }
}
