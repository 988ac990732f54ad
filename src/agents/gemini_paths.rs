//! How Gemini CLI reads the path a file tool is given, so that toolgate judges every file
//! Gemini CLI may open, not only the text the model wrote.
//!
//! Gemini CLI's file tools (`read_file`, `write_file`, `replace`, and the directory of
//! `grep_search` and `glob`) resolve a path in steps:
//!
//! 1. NUL bytes are removed.
//! 2. A leading `@` is dropped, with the slashes after it, unless `<dir>/@<first segment>`
//!    exists (`@secrets/k.txt` opens `secrets/k.txt`). toolgate cannot look, so it judges
//!    both.
//! 3. The path is resolved against the project directory, `.` and `..` folded.
//! 4. The whole resolved path goes through JavaScript's `decodeURIComponent`
//!    (`secrets%2Fk.txt` opens `secrets/k.txt`). When that rejects the text (`%zz`, a lone
//!    `%`, an escape that is not UTF-8), Gemini CLI keeps the text as it was, and so does
//!    toolgate. A `file://` URL is turned into its path first.
//!
//! A call passes only when every reading passes: deny and ask take the strictest.

use crate::path::normalize;

/// Whether Gemini CLI looks for the relative path of the tool `tool` (as toolgate judges it)
/// through the workspace when no file lies where it is written: its `replace` (judged as
/// `Edit`) then edits the one file whose path ends with it (`correctPath`: a breadth-first
/// search for that file name, so `policy.json` edits `.toolgate/policy.json`). A host that
/// lists directories looks for those files ([`crate::Request::add_realpaths_listing`]).
///
/// ```
/// use toolgate::agents::gemini_paths::searches_by_suffix;
/// assert!(searches_by_suffix(Some("gemini"), "Edit"));
/// assert!(!searches_by_suffix(Some("gemini"), "Write"));
/// assert!(!searches_by_suffix(Some("claude"), "Edit"));
/// ```
pub fn searches_by_suffix(agent: Option<&str>, tool: &str) -> bool {
    agent == Some(super::Agent::Gemini.name()) && tool == "Edit"
}

/// One path Gemini CLI may open for a path it was given, with how it got there when that is
/// not the path as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathReading {
    /// The path.
    pub path: String,
    /// How Gemini CLI comes to open it (``Gemini CLI opens `a%2Fb` as `/p/a/b`,
    /// percent-decoded``); `None` for the path as written.
    pub how: Option<String>,
}

/// Every path Gemini CLI may open for the file tool path `written`, the path as written
/// (without NUL bytes) first, each other reading once. `cwd` is the project directory
/// Gemini CLI resolves a relative path against; without it a relative path is decoded as
/// it is.
///
/// ```
/// use toolgate::agents::gemini_paths::readings;
/// let paths = |w| readings(w, Some("/p")).into_iter().map(|r| r.path).collect::<Vec<_>>();
/// assert_eq!(paths("secrets%2Fk.txt"), ["secrets%2Fk.txt", "/p/secrets/k.txt"]);
/// assert_eq!(paths("@.gemini/settings.json"), ["@.gemini/settings.json", ".gemini/settings.json"]);
/// assert_eq!(paths("%2e%2e/x"), ["%2e%2e/x", "/x"]);
/// assert_eq!(paths("file:///p/.env"), ["file:///p/.env", "/p/.env"]);
/// // `decodeURIComponent` rejects `%zz`: Gemini CLI opens the text as written.
/// assert_eq!(paths("a%zz%2Fb"), ["a%zz%2Fb"]);
/// assert_eq!(paths("src/main.rs"), ["src/main.rs"]);
/// ```
pub fn readings(written: &str, cwd: Option<&str>) -> Vec<PathReading> {
    let clean = written.replace('\0', "");
    let mut out = vec![PathReading {
        path: clean.clone(),
        how: None,
    }];
    let mut add = |path: String, how: String| {
        if !out.iter().any(|r| r.path == path) {
            out.push(PathReading {
                path,
                how: Some(how),
            });
        }
    };
    let mut bases = vec![clean.clone()];
    if let Some(stripped) = without_at(&clean) {
        add(
            stripped.to_owned(),
            format!("Gemini CLI opens `{clean}` as `{stripped}`, the leading `@` dropped"),
        );
        bases.push(stripped.to_owned());
    }
    for base in bases {
        for decoded in decoded_readings(&base, cwd) {
            let how = format!("Gemini CLI opens `{base}` as `{decoded}`, percent-decoded");
            add(decoded, how);
        }
    }
    out
}

/// The path without its leading `@` and the slashes after it, as Gemini CLI's
/// `resolveDefensiveToolPath` gives it when `<dir>/@<first segment>` does not exist; `None`
/// when the path does not start with `@` or is nothing else.
fn without_at(path: &str) -> Option<&str> {
    let stripped = path.strip_prefix('@')?.trim_start_matches(['/', '\\']);
    (!stripped.is_empty()).then_some(stripped)
}

/// The paths Gemini CLI's `resolveToRealPath` may make of `base` besides `base` resolved:
/// the resolved path through `decodeURIComponent`, when that decodes and changes it, and a
/// `file://` URL's path (decoded once, and once more).
fn decoded_readings(base: &str, cwd: Option<&str>) -> Vec<String> {
    let literal = resolved(base, cwd);
    let mut candidates = vec![decode_uri_component(&literal)];
    if let Some(path) = file_url_path(base) {
        candidates.push(decode_uri_component(&path));
        candidates.push(Some(path));
    }
    let mut out: Vec<String> = Vec::new();
    for path in candidates.into_iter().flatten() {
        let path = resolved(&path.replace('\0', ""), cwd);
        if path != literal && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// `path` resolved against `cwd` with `.` and `..` folded, as Node's `path.resolve` does
/// (no `~`); as it is when it is relative and there is no `cwd`.
fn resolved(path: &str, cwd: Option<&str>) -> String {
    let absolute = match cwd {
        Some(c) if !path.starts_with('/') => format!("{}/{path}", c.trim_end_matches('/')),
        _ => path.to_owned(),
    };
    if absolute.starts_with('/') {
        normalize(&absolute, None, None).unwrap_or(absolute)
    } else {
        absolute
    }
}

/// The path of a `file://` URL (percent escapes decoded, as Node's `fileURLToPath` does),
/// when `text` is one whose host is empty or `localhost`.
fn file_url_path(text: &str) -> Option<String> {
    let rest = text.strip_prefix("file://")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    decode_uri_component(path)
}

/// JavaScript's `decodeURIComponent`: every `%XX` escape decoded, `None` (where JavaScript
/// throws a `URIError`) when an escape is malformed or the escapes do not spell UTF-8.
///
/// ```
/// use toolgate::agents::gemini_paths::decode_uri_component;
/// assert_eq!(decode_uri_component("a%2Fb%20c").as_deref(), Some("a/b c"));
/// assert_eq!(decode_uri_component("%C3%A9").as_deref(), Some("é"));
/// assert_eq!(decode_uri_component("100%"), None);
/// assert_eq!(decode_uri_component("%zz"), None);
/// assert_eq!(decode_uri_component("%C3"), None);
/// assert_eq!(decode_uri_component("%ED%A0%80"), None);
/// ```
pub fn decode_uri_component(text: &str) -> Option<String> {
    crate::rule::percent_decode(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(written: &str) -> Vec<String> {
        readings(written, Some("/p"))
            .into_iter()
            .map(|r| r.path)
            .collect()
    }

    #[test]
    fn every_reading_gemini_cli_may_open_is_judged() {
        let cases: &[(&str, &[&str])] = &[
            ("secrets%2Fk.txt", &["/p/secrets/k.txt"]),
            ("%73ecrets/k.txt", &["/p/secrets/k.txt"]),
            (".%65nv", &["/p/.env"]),
            ("%2eenvrc", &["/p/.envrc"]),
            (".toolgate%2Fpolicy.json", &["/p/.toolgate/policy.json"]),
            ("@secrets/k.txt", &["secrets/k.txt"]),
            ("@/.gemini/settings.json", &[".gemini/settings.json"]),
            ("@\\.gemini\\settings.json", &[".gemini\\settings.json"]),
            ("@%2Eenvrc", &["%2Eenvrc", "/p/.envrc"]),
            ("/p/a/%2e%2e/%2e%2e/etc/passwd", &["/etc/passwd"]),
            ("file:///etc/shadow", &["/etc/shadow"]),
            ("file://localhost/etc/shadow", &["/etc/shadow"]),
            ("file:///p/secrets%252Fk.txt", &["/p/secrets/k.txt"]),
            ("/p/.e\u{0}nv", &[]),
            ("%2e%00env", &["/p/.env"]),
        ];
        for (written, want) in cases {
            let got = paths(written);
            assert_eq!(got.first(), Some(&written.replace('\0', "")), "{written:?}");
            for w in *want {
                assert!(got.iter().any(|g| g == w), "{written:?}: {got:?} lacks {w}");
            }
        }
    }

    #[test]
    fn a_path_gemini_cli_opens_as_written_has_one_reading() {
        for written in [
            "src/main.rs",
            "/p/a b.txt",
            "a%zz%2Fb",
            "100%",
            "%C3",
            "@",
            "@/",
        ] {
            assert_eq!(paths(written), [written], "{written:?}");
        }
    }

    #[test]
    fn path_resolve_folds_dot_dot_before_decoding() {
        // Node's `path.resolve` folds `a/%2e%2e/../../x` to `/p/x` first: the escape is
        // gone before the path is decoded.
        assert_eq!(paths("a/%2e%2e/../../x"), ["a/%2e%2e/../../x"]);
        assert_eq!(paths("a/../%2e%2e/x"), ["a/../%2e%2e/x", "/x"]);
    }

    #[test]
    fn each_reading_says_how_gemini_cli_reads_it() {
        let r = readings("secrets%2Fk.txt", Some("/p"));
        assert_eq!(r[0].how, None);
        assert_eq!(
            r[1].how.as_deref(),
            Some("Gemini CLI opens `secrets%2Fk.txt` as `/p/secrets/k.txt`, percent-decoded")
        );
        let r = readings("@.env", Some("/p"));
        assert_eq!(
            r[1].how.as_deref(),
            Some("Gemini CLI opens `@.env` as `.env`, the leading `@` dropped")
        );
    }
}
