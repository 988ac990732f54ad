//! What curl reads and writes on this machine: the files its options name (`-o`, `-O`,
//! `-D`, `-w '%output{FILE}'`, ...), the path of a `file:` URL (read, or written by an
//! upload), percent-decoded as curl opens it, and the files its URL globs (`[a-z]`,
//! `{a,b}`) may reach.

use super::{
    directory_of, is_option, parse_options, part_of, url_file_names, within, Parsed, Word, Writes,
};
use crate::rule::percent_decode;

/// curl's short options that take a value (curl 7.88 `curl --help all`).
const SHORT_VALUES: &str = "AbcCdDeEFHKmoPQrtuTUwxXyYz";

/// The options and operands of each transfer of a curl command line: `--next` (`-:`)
/// starts another, which reads its own options (`-g`, `--output-dir`, `-O`, `-o` and the
/// others are reset), so each is judged on its own.
///
/// ```text
/// transfers("curl -g http://h --next file:///p/{a}") == [{-g, http://h}, {file:///p/{a}}]
/// ```
fn transfers(words: &[Word]) -> Vec<Parsed> {
    let args = words.get(1..).unwrap_or_default();
    let mut out = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while let Some(word) = args.get(at) {
        match argument(&word.value) {
            Argument::Next => {
                out.push(parsed(args.get(start..at).unwrap_or_default()));
                start = at + 1;
                at += 1;
            }
            Argument::TakesValue => at += 2,
            Argument::Alone => at += 1,
            Argument::OnlyOperands => break,
        }
    }
    out.push(parsed(args.get(start..).unwrap_or_default()));
    out
}

/// What a word of a curl line is, for [`transfers`].
#[derive(Debug, PartialEq, Eq)]
enum Argument {
    /// `--next`, `--nex`, `-:` (also in a cluster: `-s:`): another transfer starts.
    Next,
    /// An option whose value is the next word (`-o`, `--output-dir`).
    TakesValue,
    /// An operand, or an option with no value or its value attached.
    Alone,
    /// `--`: every word after it is an operand.
    OnlyOperands,
}

fn argument(word: &str) -> Argument {
    if word == "--" {
        return Argument::OnlyOperands;
    }
    if let Some(long) = word.strip_prefix("--") {
        if long.contains('=') {
            return Argument::Alone;
        }
        // `--ne` may be `--negotiate` or `--netrc` too: curl refuses it.
        if long.len() >= 3 && "next".starts_with(long) {
            return Argument::Next;
        }
        let takes = CURL_LONG_VALUES.iter().any(|l| l.starts_with(long));
        return if takes {
            Argument::TakesValue
        } else {
            Argument::Alone
        };
    }
    let Some(letters) = word.strip_prefix('-').filter(|l| !l.is_empty()) else {
        return Argument::Alone;
    };
    for (i, c) in letters.char_indices() {
        if c == ':' {
            return Argument::Next;
        }
        if SHORT_VALUES.contains(c) {
            return if i + c.len_utf8() == letters.len() {
                Argument::TakesValue
            } else {
                Argument::Alone
            };
        }
    }
    Argument::Alone
}

/// The options and operands of one transfer of a curl command line (`args`, without the
/// program).
fn parsed(args: &[Word]) -> Parsed {
    parse_options(args, SHORT_VALUES, "", CURL_LONG_VALUES)
}

/// Every URL a transfer of curl is given: its operands and each `--url` (`--url=`) value.
fn urls(p: &Parsed) -> Vec<&Word> {
    p.operands.iter().chain(p.values('\0', "url")).collect()
}

/// Whether curl expands globs in its URLs and upload names: unless `-g`/`--globoff` is
/// given and no `--no-globoff` turns it back on.
fn globs(p: &Parsed) -> bool {
    !p.has('g', "globoff") || p.has('\0', "no-globoff")
}

/// Whether `text` holds a curl glob: a set `{a,b}` or a range `[a-z]`.
fn is_glob(text: &str) -> bool {
    text.contains(['{', '['])
}

/// Where a `file:` URL leads on this machine.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Local {
    /// Its path, as written and percent-decoded (curl opens the decoded one; a rule may
    /// name either).
    Paths(Vec<String>),
    /// Any file below a directory, and why no single path can be named: a glob (below the
    /// directory before its first glob character), or a path that cannot be decoded
    /// (below `/`).
    Below(String, String),
}

/// Where the URL `url` leads on this machine when it is a `file:` URL (any case; no host,
/// `localhost` or any other, or `file:/PATH`); `None` for other URLs. With `globbing`, a
/// URL holding `{` or `[` names every file its glob may match; one whose scheme holds a
/// glob character may be a `file:` URL too (`{file,http}:///p`).
///
/// ```text
/// file_url("file:///p/%2eenv", true) == Some(Local::Paths(["/p/%2eenv", "/p/.env"]))
/// file_url("file://localhost/p/.en[v-v]", true) == Some(Local::Below("/p", ...))
/// ```
pub(crate) fn file_url(url: &str, globbing: bool) -> Option<Local> {
    let (scheme, rest) = url.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("file") {
        let may_be_file = globbing && is_glob(scheme) && !scheme.contains('/');
        return may_be_file.then(|| Local::Below("/".to_owned(), glob_reason(url)));
    }
    // `file://HOST/PATH` or `file:PATH`; curl opens the path whatever the host.
    let path = match rest.strip_prefix("//") {
        Some(authority) => authority.find('/').map_or("", |at| &authority[at..]),
        None => rest,
    };
    let path_start = url.len() - path.len();
    if globbing {
        if let Some(first) = url.find(['{', '[']) {
            let dir = match first.checked_sub(path_start) {
                Some(within) => path.get(..within).unwrap_or_default(),
                None => "/",
            };
            let dir = dir.rsplit_once('/').map_or(".", |(d, _)| d);
            let dir = if dir.is_empty() { "/" } else { dir };
            let dir = percent_decode(dir).unwrap_or_else(|| "/".to_owned());
            return Some(Local::Below(dir, glob_reason(url)));
        }
    }
    // A query or a fragment may be part of the name or not: both readings count.
    let bare = path.split(['?', '#']).next().unwrap_or(path);
    let mut paths = Vec::new();
    for written in [path, bare] {
        let Some(decoded) = percent_decode(written) else {
            return Some(Local::Below(
                "/".to_owned(),
                format!("`{url}` holds a percent escape that does not decode to text"),
            ));
        };
        for p in [written.to_owned(), decoded] {
            if !p.is_empty() && !paths.contains(&p) {
                paths.push(p);
            }
        }
    }
    Some(Local::Paths(paths))
}

fn glob_reason(url: &str) -> String {
    format!("`{url}` is a curl URL glob: it may read any file its sets and ranges match")
}

/// The paths the `file:` URL `url` names (see [`file_url`]), for the danger classifier:
/// empty for other URLs and for globs.
pub(crate) fn file_url_paths(url: &str) -> Vec<String> {
    match file_url(url, false) {
        Some(Local::Paths(paths)) => paths,
        _ => Vec::new(),
    }
}

/// The `file:` URLs of a curl line with where each leads; with `--proto-default file`, a
/// URL without a scheme is one too.
fn local_urls(p: &Parsed) -> Vec<(&Word, Local)> {
    let globbing = globs(p);
    let default_file = p
        .values('\0', "proto-default")
        .any(|v| v.value.eq_ignore_ascii_case("file"));
    urls(p)
        .into_iter()
        .filter_map(|u| {
            let local = file_url(&u.value, globbing).or_else(|| {
                let schemeless = default_file && !u.value.contains("://");
                schemeless
                    .then(|| file_url(&format!("file://{}", u.value), globbing))
                    .flatten()
            })?;
            Some((u, local))
        })
        .collect()
}

/// What curl reads on this machine through words that are not paths of their own.
#[derive(Debug, Default)]
pub(crate) struct LocalReads {
    /// Files read: the paths of `file:` URLs, the files option values name after `@` or
    /// `<` (`--data-urlencode n@FILE`, `-F 'f=@"FILE"'`) and the netrc file (`-n`).
    pub files: Vec<Word>,
    /// Directories below which any file may be read: a glob's, a config file's (`/`).
    pub below: Vec<Word>,
    /// Why the files read cannot be named (a URL glob): the command asks.
    pub unknown: Vec<String>,
}

/// The files `words` (a curl command) reads on this machine: each `file:` URL's path
/// (percent-decoded too), below the directory of a globbed `file:` URL or upload name
/// (`-T '.en[v-v]'`), anywhere for a config file (`-K`, which may name any URL), the
/// files option values name ([`FILE_VALUES`]: `-d @F`, `--data-urlencode n@F`,
/// `--url-query +@F`, `-F 'f=@"F"'`, `-F 'f=<F'`) and the netrc file (`-n`). Each transfer of a `--next` line is read with its own options ([`transfers`]).
pub(crate) fn curl_reads(words: &[Word]) -> LocalReads {
    let mut out = LocalReads::default();
    for p in transfers(words) {
        transfer_reads(&p, &mut out);
    }
    out
}

/// What one transfer of curl reads on this machine ([`curl_reads`]).
fn transfer_reads(p: &Parsed, out: &mut LocalReads) {
    for (url, local) in local_urls(p) {
        match local {
            Local::Paths(paths) => out.files.extend(paths.iter().map(|f| part_of(url, f))),
            Local::Below(dir, why) => {
                out.below.push(part_of(url, &dir));
                out.unknown.push(why);
            }
        }
    }
    if globs(p) {
        for sent in p.values('T', "upload-file").filter(|t| is_glob(&t.value)) {
            out.below.push(part_of(sent, &glob_directory(&sent.value)));
            out.unknown.push(format!(
                "`{}` is a curl glob: it uploads every file its sets and ranges match",
                sent.raw
            ));
        }
    }
    if p.has('K', "config") {
        out.below.push(Word::literal("/"));
    }
    out.files.extend(option_files(p));
    if reads_netrc(p) {
        out.files.extend(NETRC.iter().map(|f| Word::in_home(f)));
    }
}

/// How the value of an option of curl names a file it reads (curl 8.x manual).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileValue {
    /// `@FILE` (`-d @FILE`, `-H @FILE`, `-w @FILE`).
    At,
    /// `[+][NAME]@FILE`, when no `=` comes before the `@` (`--data-urlencode n@FILE`,
    /// `--url-query +@FILE`, `--variable v@FILE`).
    NameAt,
    /// A form part: `NAME=@FILE[,FILE...]` or `NAME=<FILE`, each name bare or in double
    /// quotes, and `;headers=@FILE` (or `<FILE`) among its parameters (`-F`).
    Form,
}

/// curl's options whose value may name a file it reads, and how. Long options may be
/// abbreviated: a prefix counts as every option it begins.
const FILE_VALUES: &[(char, &str, FileValue)] = &[
    ('d', "data", FileValue::At),
    ('\0', "data-ascii", FileValue::At),
    ('\0', "data-binary", FileValue::At),
    ('\0', "json", FileValue::At),
    ('H', "header", FileValue::At),
    ('\0', "proxy-header", FileValue::At),
    ('w', "write-out", FileValue::At),
    ('\0', "data-urlencode", FileValue::NameAt),
    ('\0', "url-query", FileValue::NameAt),
    ('\0', "variable", FileValue::NameAt),
    ('F', "form", FileValue::Form),
];

/// The netrc files curl reads for `-n`, `--netrc` and `--netrc-optional` (`_netrc` is
/// Windows' name for it).
const NETRC: &[&str] = &["~/.netrc", "~/_netrc"];

/// Whether a transfer reads the user's netrc file: `-n`, `--netrc`, `--netrc-optional`
/// (`--netrc-file F` reads `F`, a word of its own).
fn reads_netrc(p: &Parsed) -> bool {
    p.has('n', "netrc") || p.has('\0', "netrc-optional")
}

/// The files the values of a transfer's options name ([`FILE_VALUES`]); standard input
/// (`@-`) is none.
fn option_files(p: &Parsed) -> Vec<Word> {
    let mut out = Vec::new();
    for &(short, long, form) in FILE_VALUES {
        for value in p.values(short, long) {
            let names = match form {
                FileValue::At => value
                    .value
                    .strip_prefix('@')
                    .map(str::to_owned)
                    .into_iter()
                    .collect(),
                FileValue::NameAt => name_at_file(&value.value)
                    .map(str::to_owned)
                    .into_iter()
                    .collect(),
                FileValue::Form => form_files(&value.value),
            };
            out.extend(
                names
                    .iter()
                    .filter(|n| !n.is_empty() && *n != "-")
                    .map(|n| part_of(value, n)),
            );
        }
    }
    out
}

/// The file of a `[+][NAME]@FILE` value: what follows the first `@` when no `=` comes
/// before it (curl reads `NAME=CONTENT` as content).
///
/// ```text
/// name_at_file("n@secrets/db.txt") == Some("secrets/db.txt")
/// name_at_file("+@f")              == Some("f")
/// name_at_file("a=b@c")            == None
/// ```
fn name_at_file(value: &str) -> Option<&str> {
    let (before, file) = value.split_once('@')?;
    (!before.contains('=')).then_some(file)
}

/// The files a `-F` value reads: after the part's name, `@FILE` (several, split at `,`)
/// or `<FILE`, and each `headers=@FILE` or `headers=<FILE` parameter after a `;`. A name
/// in double quotes may hold `,`, `;` and `\"`; a quoted name followed by more text is
/// read both ways.
///
/// ```text
/// form_files(r#"f=@"secrets/db.txt""#)          == ["secrets/db.txt"]
/// form_files("f=@a;type=text/plain,b")          == ["a", "b"]
/// form_files("f=x;headers=<h.txt")              == ["h.txt"]
/// ```
fn form_files(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some((_, mut rest)) = value.split_once('=') else {
        return out;
    };
    let files = rest.chars().next().filter(|c| matches!(c, '@' | '<'));
    if let Some(sign) = files {
        rest = &rest[1..];
        loop {
            let (names, after) = form_word(rest, if sign == '@' { ";," } else { ";" });
            out.extend(names);
            rest = form_parameters(after, &mut out);
            match rest.strip_prefix(',') {
                Some(next) if sign == '@' => rest = next,
                _ => break,
            }
        }
    } else {
        let (_, after) = form_word(rest, ";");
        form_parameters(after, &mut out);
    }
    out
}

/// Reads the `;KEY=VALUE` parameters at the start of `text`, adding the file of each
/// `headers=@FILE` or `headers=<FILE` to `out`; returns the text after them.
fn form_parameters<'t>(mut text: &'t str, out: &mut Vec<String>) -> &'t str {
    while let Some(param) = text.strip_prefix(';') {
        let param = param.trim_start();
        let (key, value) = param.split_once('=').unwrap_or((param, ""));
        let is_headers = key.trim().eq_ignore_ascii_case("headers");
        let value = value.trim_start();
        let file = value.strip_prefix(['@', '<']).filter(|_| is_headers);
        let (words, after) = form_word(file.unwrap_or(value), ";,");
        if file.is_some() {
            out.extend(words);
        }
        text = if key.contains([';', ',']) {
            // No `=` before the next separator: the key alone.
            &param[param.find([';', ',']).unwrap_or(param.len())..]
        } else {
            after
        };
    }
    text
}

/// One word of a `-F` value, up to one of `ends`: in double quotes (backslash escapes the
/// next character) or bare. A quoted word followed by more text is also read as bare, as
/// curl reads it. Returns the readings and the text after the word.
fn form_word<'t>(text: &'t str, ends: &str) -> (Vec<String>, &'t str) {
    let text = text.trim_start();
    let bare_end = text.find(|c| ends.contains(c)).unwrap_or(text.len());
    let bare = (text[..bare_end].to_owned(), &text[bare_end..]);
    let Some(quoted) = text.strip_prefix('"') else {
        return (vec![bare.0], bare.1);
    };
    let mut word = String::new();
    let mut chars = quoted.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => word.extend(chars.next().map(|(_, next)| next)),
            '"' => {
                let after = &quoted[at + 1..];
                if after.is_empty() || after.starts_with(|c| ends.contains(c)) {
                    return (vec![word], after);
                }
                return (vec![word, bare.0], bare.1);
            }
            _ => word.push(c),
        }
    }
    // No closing quote: the rest, either way.
    (vec![word, bare.0], bare.1)
}

/// The directory before the first glob character of a local name (`a/b{c,d}` is `a`).
fn glob_directory(name: &str) -> String {
    let fixed = name.split(['{', '[']).next().unwrap_or_default();
    match fixed.rsplit_once('/') {
        Some(("", _)) => "/".to_owned(),
        Some((dir, _)) => dir.to_owned(),
        None => ".".to_owned(),
    }
}

/// An upload (`-T FILE`, `--upload-file`) to a `file:` URL writes its path: a path ending
/// in `/` is a directory, where the upload lands under its own name (below the directory
/// when that name is not known: standard input, a glob); a globbed URL writes below its
/// directory.
fn uploads(p: &Parsed, out: &mut Writes) {
    let sent: Vec<&Word> = p.values('T', "upload-file").collect();
    if sent.is_empty() {
        return;
    }
    for (url, local) in local_urls(p) {
        match local {
            Local::Paths(paths) => {
                for path in paths {
                    if !path.ends_with('/') {
                        out.files.push(part_of(url, &path));
                        continue;
                    }
                    for s in &sent {
                        let name = s.value.rsplit('/').next().unwrap_or_default();
                        if matches!(name, "" | "-" | "." | "..") || is_glob(name) {
                            out.below.push(part_of(url, &path));
                        } else {
                            out.files.push(part_of(url, &format!("{path}{name}")));
                        }
                    }
                }
            }
            Local::Below(dir, _) => out.below.push(part_of(url, &dir)),
        }
    }
}

/// `-w '%output{FILE}'` (curl 8.3, `%output{>>FILE}` appends) writes `FILE`; a format read
/// from a file (`-w @FILE`, `-w @-`) may name any file.
fn write_out_files(p: &Parsed, out: &mut Writes) {
    const OUTPUT: &str = "%output{";
    for format in p.values('w', "write-out") {
        if format.value.starts_with('@') {
            out.below.push(Word::literal("/"));
            continue;
        }
        let lower = format.value.to_ascii_lowercase();
        for (at, _) in lower.match_indices(OUTPUT) {
            let rest = format.value.get(at + OUTPUT.len()..).unwrap_or_default();
            let name = rest.split('}').next().unwrap_or(rest);
            let name = name.strip_prefix(">>").unwrap_or(name);
            if !name.is_empty() {
                out.files.push(part_of(format, name));
            }
        }
    }
}

/// curl 7.88: `-o`/`--output` (inside `--output-dir`), `-O`/`--remote-name` and
/// `--remote-name-all` (each URL's last path segment, inside `--output-dir`), with
/// `-J`/`--remote-header-name` a name the server chooses (below the directory), and the
/// files other options write (`-D`, `-c`, `--trace`, `--stderr`, `--libcurl`, ...). Long
/// options may be abbreviated. An upload (`-T`) to a `file:` URL writes its path
/// ([`uploads`]), and `-w '%output{FILE}'` writes `FILE` ([`write_out_files`]). Each
/// transfer of a `--next` line is read with its own options ([`transfers`]).
pub(super) fn curl_writes(words: &[Word]) -> Writes {
    let mut out = Writes::default();
    for p in transfers(words) {
        transfer_writes(&p, &mut out);
    }
    out
}

/// What one transfer of curl writes ([`curl_writes`]).
fn transfer_writes(p: &Parsed, out: &mut Writes) {
    // `--output` spelled in full is itself, not a prefix of `--output-dir`.
    let dir = p
        .options
        .iter()
        .rev()
        .filter(|(o, _)| o != "--output" && is_option(o, '\0', "output-dir"))
        .find_map(|(_, v)| v.clone());
    for o in p.values('o', "output") {
        out.files.push(o.clone());
        if dir.is_some() && !o.value.starts_with('/') {
            out.files.push(within(dir.as_ref(), &o.value, o));
        }
    }
    for (short, long) in [
        ('D', "dump-header"),
        ('c', "cookie-jar"),
        ('\0', "trace"),
        ('\0', "trace-ascii"),
        ('\0', "stderr"),
        ('\0', "libcurl"),
        ('\0', "etag-save"),
        ('\0', "hsts"),
        ('\0', "alt-svc"),
    ] {
        out.files.extend(p.values(short, long).cloned());
    }
    let here = || dir.clone().unwrap_or_else(|| Word::literal("."));
    let urls = urls(p);
    // URL globbing (`{a,b}`, `[1-9]`) makes several names, and `#N` in an output name is
    // replaced by what the glob matched: the names are the input's, below their directory.
    let globbed = globs(p) && urls.iter().any(|u| is_glob(&u.value));
    if globbed {
        for o in p.values('o', "output") {
            let parent = directory_of(o);
            let inside = (dir.is_some() && !parent.value.starts_with('/'))
                .then(|| within(dir.as_ref(), &parent.value, o));
            out.below.push(parent);
            out.below.extend(inside);
        }
    }
    let remote_names = p.has('O', "remote-name") || p.has('\0', "remote-name-all");
    if remote_names {
        if p.has('J', "remote-header-name") || globbed {
            out.below.push(here());
        }
        for url in &urls {
            let names = url_file_names(&url.value);
            if names.is_empty() {
                out.below.push(here());
            }
            for name in names {
                out.files.push(within(dir.as_ref(), name, url));
            }
        }
    }
    // A config file (`-K`, `-K -` reads standard input) may set `output` to any file.
    if p.has('K', "config") {
        out.below.push(Word::literal("/"));
    }
    uploads(p, out);
    write_out_files(p, out);
}

/// curl's long options that take a value (curl 7.88 `curl --help all`), so that the word
/// after them is not read as a URL.
const CURL_LONG_VALUES: &[&str] = &[
    "abstract-unix-socket",
    "alt-svc",
    "aws-sigv4",
    "cacert",
    "capath",
    "cert",
    "cert-type",
    "ciphers",
    "config",
    "connect-timeout",
    "connect-to",
    "continue-at",
    "cookie",
    "cookie-jar",
    "create-file-mode",
    "crlfile",
    "curves",
    "data",
    "data-ascii",
    "data-binary",
    "data-raw",
    "data-urlencode",
    "delegation",
    "dns-interface",
    "dns-ipv4-addr",
    "dns-ipv6-addr",
    "dns-servers",
    "doh-url",
    "dump-header",
    "egd-file",
    "engine",
    "etag-compare",
    "etag-save",
    "expect100-timeout",
    "form",
    "form-string",
    "ftp-account",
    "ftp-alternative-to-user",
    "ftp-method",
    "ftp-port",
    "ftp-ssl-ccc-mode",
    "happy-eyeballs-timeout-ms",
    "haproxy-clientip",
    "header",
    "help",
    "hostpubmd5",
    "hostpubsha256",
    "hsts",
    "interface",
    "json",
    "keepalive-time",
    "key",
    "key-type",
    "krb",
    "libcurl",
    "limit-rate",
    "local-port",
    "login-options",
    "mail-auth",
    "mail-from",
    "mail-rcpt",
    "max-filesize",
    "max-redirs",
    "max-time",
    "netrc-file",
    "noproxy",
    "oauth2-bearer",
    "output",
    "output-dir",
    "parallel-max",
    "pass",
    "pinnedpubkey",
    "preproxy",
    "proto",
    "proto-default",
    "proto-redir",
    "proxy",
    "proxy-cacert",
    "proxy-capath",
    "proxy-cert",
    "proxy-cert-type",
    "proxy-ciphers",
    "proxy-crlfile",
    "proxy-header",
    "proxy-key",
    "proxy-key-type",
    "proxy-pass",
    "proxy-pinnedpubkey",
    "proxy-service-name",
    "proxy-tls13-ciphers",
    "proxy-tlsauthtype",
    "proxy-tlspassword",
    "proxy-tlsuser",
    "proxy-user",
    "proxy1.0",
    "pubkey",
    "quote",
    "random-file",
    "range",
    "rate",
    "referer",
    "request",
    "request-target",
    "resolve",
    "retry",
    "retry-delay",
    "retry-max-time",
    "sasl-authzid",
    "service-name",
    "socks4",
    "socks4a",
    "socks5",
    "socks5-gssapi-service",
    "socks5-hostname",
    "speed-limit",
    "speed-time",
    "stderr",
    "telnet-option",
    "tftp-blksize",
    "time-cond",
    "tls-max",
    "tls13-ciphers",
    "tlsauthtype",
    "tlspassword",
    "tlsuser",
    "trace",
    "trace-ascii",
    "unix-socket",
    "upload-file",
    "url",
    "url-query",
    "user",
    "user-agent",
    "variable",
    "write-out",
];

#[cfg(test)]
mod tests {
    use super::super::tests::{below, written};
    use super::*;

    fn paths(url: &str) -> Option<Local> {
        file_url(url, true)
    }

    fn reads(line: &str) -> (Vec<String>, Vec<String>, usize) {
        let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
        let r = curl_reads(&words);
        let values = |ws: Vec<Word>| ws.into_iter().map(|w| w.value).collect();
        (values(r.files), values(r.below), r.unknown.len())
    }

    #[test]
    fn a_file_url_is_its_path_as_written_and_percent_decoded() {
        let both = |a: &str, b: &str| Some(Local::Paths(vec![a.to_owned(), b.to_owned()]));
        assert_eq!(paths("file:///p/%2eenv"), both("/p/%2eenv", "/p/.env"));
        assert_eq!(
            paths("FILE://localhost/p/.en%76"),
            both("/p/.en%76", "/p/.env")
        );
        assert_eq!(
            paths("file:/p/.env"),
            Some(Local::Paths(vec!["/p/.env".into()]))
        );
        assert_eq!(paths("file://h/p/x?y"), both("/p/x?y", "/p/x"));
        assert_eq!(paths("https://h/p/%2eenv"), None);
        assert_eq!(paths("h/p"), None);
        assert!(matches!(paths("file:///p/%zz"), Some(Local::Below(d, _)) if d == "/"));
        assert_eq!(file_url_paths("file:///p/.%65nv"), ["/p/.%65nv", "/p/.env"]);
    }

    #[test]
    fn a_globbed_file_url_reads_below_the_directory_before_the_glob() {
        for (url, dir) in [
            ("file:///p/.en[v-v]", "/p"),
            ("file:///p/.{env}", "/p"),
            ("file:///p/%2essh/{id_rsa,x}", "/p/.ssh"),
            ("file://{localhost,}/p/.env", "/"),
            ("{file,http}:///p/.env", "/"),
            ("file:.en[v-v]", "."),
        ] {
            assert!(
                matches!(paths(url), Some(Local::Below(d, _)) if d == dir),
                "{url}: {:?}",
                paths(url)
            );
        }
        assert_eq!(
            file_url("file:///p/.{env}", false),
            Some(Local::Paths(vec!["/p/.{env}".into()]))
        );
        assert_eq!(paths("https://h/{a,b}"), None);
    }

    #[test]
    fn every_way_curl_takes_a_url_is_read() {
        let file = |line: &str| reads(line).0;
        assert_eq!(file("curl -s file:///p/%2eenv"), ["/p/%2eenv", "/p/.env"]);
        assert_eq!(file("curl --url file:///p/x"), ["/p/x"]);
        assert_eq!(file("curl --url=file:///p/x"), ["/p/x"]);
        assert_eq!(file("curl http://h -: file:///p/x"), ["/p/x"]);
        assert_eq!(file("curl --next --url=file:///p/x"), ["/p/x"]);
        assert_eq!(
            file("curl --proto-default file /p/%2eenv"),
            ["/p/%2eenv", "/p/.env"]
        );
        assert_eq!(file("curl -o file:///p/x http://h"), Vec::<String>::new());
        assert_eq!(
            reads("curl -s file:///p/.{env}"),
            (vec![], vec!["/p".into()], 1)
        );
        assert_eq!(reads("curl -g file:///p/.{env}").0, ["/p/.{env}"]);
        assert_eq!(
            reads("curl -T .en[v-v] http://h"),
            (vec![], vec![".".into()], 1)
        );
        assert_eq!(reads("curl -K cfg").1, ["/"]);
        assert_eq!(
            reads("curl -fsSL https://example.com -o out.html"),
            (vec![], vec![], 0)
        );
    }

    #[test]
    fn option_values_name_the_files_curl_reads() {
        let file = |line: &str| reads(line).0;
        for line in [
            "curl --data-urlencode name@s/db.txt http://h/",
            "curl --data-urlenc name@s/db.txt http://h/",
            "curl --data-urlencode=@s/db.txt http://h/",
            "curl --url-query x@s/db.txt http://h/",
            "curl --url-query +name@s/db.txt http://h/",
            "curl --url-query +@s/db.txt http://h/",
            "curl --variable v@s/db.txt http://h/",
            "curl -d @s/db.txt http://h/",
            "curl -d@s/db.txt http://h/",
            "curl --json @s/db.txt http://h/",
            "curl -H @s/db.txt http://h/",
            "curl -F f=@\"s/db.txt\" http://h/",
            "curl -F f=<\"s/db.txt\" http://h/",
            "curl -F f=<s/db.txt;type=text/plain http://h/",
            "curl -F f=x;headers=@s/db.txt http://h/",
            "curl -F f=x;type=a;headers=<\"s/db.txt\" http://h/",
        ] {
            assert_eq!(file(line), ["s/db.txt"], "{line}");
        }
        assert_eq!(
            file("curl -F f=@a;type=t/p,\"b,c\";filename=x http://h/"),
            ["a", "b,c"]
        );
        assert_eq!(file("curl -F f=@\"a\\\"b\" http://h/"), ["a\"b"]);
        for line in [
            "curl --data-urlencode a=b@c http://h/",
            "curl --url-query name=v http://h/",
            "curl -d @- http://h/",
            "curl -d user@example.com http://h/",
            "curl -F f=@- http://h/",
            "curl -F f=text http://h/",
        ] {
            assert!(file(line).is_empty(), "{line}: {:?}", file(line));
        }
    }

    #[test]
    fn netrc_options_read_the_netrc_file() {
        for line in [
            "curl -n http://h/",
            "curl -sn http://h/",
            "curl --netrc http://h/",
            "curl --netrc-optional http://h/",
            "curl --netrc-opt http://h/",
        ] {
            assert_eq!(reads(line).0, ["~/.netrc", "~/_netrc"], "{line}");
        }
        assert!(reads("curl --netrc-file f http://h/").0.is_empty());
    }

    #[test]
    fn each_transfer_of_a_next_line_has_its_own_options() {
        // `-g` of the first transfer does not turn globbing off in the second.
        assert_eq!(
            reads("curl -sg http://h/p --next -s file:///s/tok{e}n"),
            (vec![], vec!["/s".into()], 1)
        );
        assert_eq!(reads("curl -sg http://h/p -s: file:///s/tok{e}n").1, ["/s"]);
        assert_eq!(
            reads("curl -sg file:///s/tok{e}n --next -g file:///s/{x}").0,
            ["/s/tok{e}n", "/s/{x}"]
        );
        // `--output-dir` of the first does not place the second's file.
        assert_eq!(
            written("curl --output-dir sub -O http://h/payload --nex -O http://h/config"),
            ["sub/payload", "config"]
        );
        // A value that looks like `--next` is a value.
        assert_eq!(
            written("curl -o --next --output-dir sub -O http://h/config"),
            ["--next", "sub/--next", "sub/config"]
        );
        assert_eq!(argument("-:"), Argument::Next);
        assert_eq!(argument("-o:"), Argument::Alone);
        assert_ne!(argument("--ne"), Argument::Next);
        assert_eq!(argument("--output-dir"), Argument::TakesValue);
    }

    #[test]
    fn an_upload_to_a_file_url_writes_its_path() {
        assert_eq!(
            written("curl -sS -T cfg file:///p/.git/config"),
            ["/p/.git/config"]
        );
        assert_eq!(
            written("curl --upload-file x FILE://localhost/p/%2egit/config"),
            ["/p/%2egit/config", "/p/.git/config"]
        );
        assert_eq!(
            written("curl -T d/hook file:///p/.git/hooks/"),
            ["/p/.git/hooks/hook"]
        );
        assert_eq!(below("curl -T - file:///p/.git/hooks/"), ["/p/.git/hooks/"]);
        assert_eq!(below("curl -T x file:///p/.git/{config,x}"), ["/p/.git"]);
        assert_eq!(written("curl -T x https://h/.bashrc"), Vec::<String>::new());
        assert_eq!(written("curl file:///p/.git/config"), Vec::<String>::new());
    }

    #[test]
    fn write_out_may_name_an_output_file() {
        assert_eq!(written("curl -w %output{.bashrc}x http://h"), [".bashrc"]);
        assert_eq!(
            written("curl -sw %output{>>a}%{url}%OUTPUT{b} http://h"),
            ["a", "b"]
        );
        assert_eq!(below("curl --write-out @fmt http://h"), ["/"]);
        assert_eq!(
            written("curl -w %{http_code} http://h"),
            Vec::<String>::new()
        );
    }
}
