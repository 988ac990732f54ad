//! A requested URL as rules see it: every reading of it that a URL parser could take.
//!
//! URL parsers disagree. `https://docs.rs\@evil.com/` is a fetch from `docs.rs` to a WHATWG
//! parser (a backslash ends the host) and from `evil.com` to an RFC 3986 one (everything
//! before `@` is user information). A server may decode `%2f` into `/`, collapse `//`, drop
//! `;params` or compare paths without regard to case. So a URL is read several ways:
//!
//! - the **narrow** readings (WHATWG and RFC 3986, each path with and without `;params`) must
//!   *all* be allowed by one rule for an allow rule to pass it;
//! - the **wide** readings (every host reading, every path spelling, any scheme, case folded)
//!   are each matched by deny and ask rules: any one is enough;
//! - a URL that no reading can be trusted for (a backslash, user information, percent-escapes
//!   in the host, encoded separators or dot segments in the path, control characters, or a
//!   URL the WHATWG rules reject) carries a *doubt*: no allow rule passes it and it asks.

use super::host::{host_readings, ipv6_readings, percent_decode};

/// The parts of one reading of a requested URL that rules look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchTarget {
    /// The scheme, lowercase.
    pub scheme: String,
    /// The host, lowercase, punycode, no trailing dot; an IP literal in its canonical form
    /// (dotted-decimal IPv4, `[v6]` compressed).
    pub host: String,
    /// The port, explicit or the scheme's default.
    pub port: Option<u16>,
    /// The path, with unreserved characters decoded and dot segments removed.
    pub path: String,
    /// Whether this is a wide reading (for deny and ask rules): a domain rule or a `url(...)`
    /// rule without a scheme then matches any scheme, `http` and `https` stand for each
    /// other, and paths are compared without regard to case.
    pub wide: bool,
}

impl FetchTarget {
    /// The WHATWG reading of an absolute URL with a host; `None` for anything else.
    ///
    /// ```
    /// use toolgate::rule::FetchTarget;
    /// let t = FetchTarget::parse("https://Docs.Example.COM./a").unwrap();
    /// assert_eq!(t.host, "docs.example.com");
    /// assert_eq!(FetchTarget::parse("http://0xa9fea9fe/").unwrap().host, "169.254.169.254");
    /// assert!(FetchTarget::parse("not a url").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        let url = url::Url::parse(text.trim()).ok()?;
        whatwg_readings(&url)
            .into_iter()
            .next()
            .map(|(host, port)| FetchTarget {
                scheme: url.scheme().to_owned(),
                host,
                port,
                path: clean_path(url.path()),
                wide: false,
            })
    }

    /// Whether the scheme is `http` or `https`, the only ones a rule covers without naming
    /// the scheme.
    pub fn is_web(&self) -> bool {
        is_web_scheme(&self.scheme)
    }
}

/// Whether `scheme` is `http` or `https`.
pub(crate) fn is_web_scheme(scheme: &str) -> bool {
    scheme == "http" || scheme == "https"
}

/// Every reading of a requested URL, and whether any of them can be trusted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestedUrl {
    narrow: Vec<FetchTarget>,
    wide: Vec<FetchTarget>,
    doubt: Option<String>,
}

impl RequestedUrl {
    /// Reads `text` every way rules must consider.
    ///
    /// ```
    /// use toolgate::rule::RequestedUrl;
    /// let u = RequestedUrl::parse(r"https://docs.rs\@evil.com/");
    /// assert!(u.doubt().is_some());
    /// let hosts: Vec<&str> = u.wide_readings().iter().map(|t| t.host.as_str()).collect();
    /// assert!(hosts.contains(&"docs.rs") && hosts.contains(&"evil.com"));
    /// assert!(RequestedUrl::parse("https://docs.rs/serde").doubt().is_none());
    /// ```
    pub fn parse(text: &str) -> Self {
        let trimmed = text.trim();
        let whatwg = url::Url::parse(trimmed).ok();
        let raw = RawUrl::split(trimmed);
        // Each reading is worked out once and shared by the wide and the narrow readings.
        let parsed = whatwg.as_ref().map(|u| Parsed {
            url: u,
            hosts: whatwg_readings(u),
            path: clean_path(u.path()),
        });
        let split = raw.as_ref().map(|r| Split {
            raw: r,
            hosts: r.hosts(true),
            path: clean_path(r.path),
        });
        let wide = wide_readings(trimmed, parsed.as_ref(), split.as_ref());
        let (narrow, doubt) = match doubt(text, whatwg.as_ref(), raw.as_ref()) {
            Some(why) => (Vec::new(), Some(why)),
            None => match (&parsed, &split) {
                (Some(u), Some(r)) => match narrow_readings(u, r) {
                    Ok(narrow) => (narrow, None),
                    Err(why) => (Vec::new(), Some(format!("`{text}` {why}"))),
                },
                _ => (
                    Vec::new(),
                    Some(format!("`{text}` is not an absolute URL with a host")),
                ),
            },
        };
        RequestedUrl {
            narrow,
            wide,
            doubt,
        }
    }

    /// The readings that an allow rule must all match.
    pub fn narrow_readings(&self) -> &[FetchTarget] {
        &self.narrow
    }

    /// The readings any of which a deny or ask rule may match.
    pub fn wide_readings(&self) -> &[FetchTarget] {
        &self.wide
    }

    /// Why no allow rule may pass this URL, if none may.
    pub fn doubt(&self) -> Option<&str> {
        self.doubt.as_deref()
    }

    /// The ids that `lookup` reports for this URL: for deny and ask (`wide`), those of any
    /// wide reading; for allow, those reported for every narrow reading (none when the URL
    /// is in doubt).
    pub fn matches_with(
        &self,
        wide: bool,
        lookup: &dyn Fn(&FetchTarget, &mut Vec<usize>),
        out: &mut Vec<usize>,
    ) {
        if wide {
            for t in &self.wide {
                lookup(t, out);
            }
            return;
        }
        if self.doubt.is_some() {
            return;
        }
        let mut common: Option<Vec<usize>> = None;
        for t in &self.narrow {
            let mut hits = Vec::new();
            lookup(t, &mut hits);
            common = Some(match common {
                None => hits,
                Some(c) => c.into_iter().filter(|id| hits.contains(id)).collect(),
            });
            if common.as_ref().is_some_and(Vec::is_empty) {
                return;
            }
        }
        out.extend(common.unwrap_or_default());
    }
}

/// A URL as the WHATWG parser reads it, with its host readings and cleaned path.
struct Parsed<'u> {
    url: &'u url::Url,
    hosts: Vec<(String, Option<u16>)>,
    path: String,
}

/// A URL split by the RFC 3986 grammar, with every host reading (`RawUrl::hosts(true)`)
/// and its cleaned path.
struct Split<'r, 'a> {
    raw: &'r RawUrl<'a>,
    hosts: Vec<(String, Option<u16>)>,
    path: String,
}

/// The readings an allow rule must all match: the WHATWG and the RFC 3986 host, each with
/// both parsers' paths, with and without `;params`.
fn narrow_readings(
    url: &Parsed<'_>,
    raw: &Split<'_, '_>,
) -> std::result::Result<Vec<FetchTarget>, &'static str> {
    // The host after the last `@` only; the same as every reading when the authority holds
    // neither `@` nor `%` (and a URL with either is in doubt, so never read narrowly).
    let last_only;
    let raw_hosts = if raw.raw.authority.is_some_and(|a| has_any(a, b"@%")) {
        last_only = raw.raw.hosts(false);
        &last_only
    } else {
        &raw.hosts
    };
    if url.hosts.is_empty() {
        return Err("is not an absolute URL with a host");
    }
    if raw_hosts.is_empty() {
        // `https:docs.rs/x`: a host only to WHATWG, none to RFC 3986.
        return Err("has no `//` before its host");
    }
    let scheme = url.url.scheme();
    let mut hosts = Vec::new();
    for (host, port) in url.hosts.iter().chain(raw_hosts) {
        add(&mut hosts, (scheme.to_owned(), host.clone(), *port));
    }
    let mut paths = Vec::new();
    add(&mut paths, url.path.clone());
    add(&mut paths, raw.path.clone());
    for i in 0..paths.len() {
        if let Some(p) = paths.get(i).filter(|p| has_any(p, b";")) {
            let stripped = strip_params(p);
            add(&mut paths, stripped);
        }
    }
    Ok(product(&hosts, &paths, false))
}

/// The readings any of which a deny or ask rule may match: every host reading (WHATWG,
/// RFC 3986 after the last and the first `@`, percent-decoded, `https://` put before a URL
/// without a scheme) with every path spelling (as parsed, fully decoded, `//` collapsed,
/// without `;params`).
fn wide_readings(
    text: &str,
    url: Option<&Parsed<'_>>,
    raw: Option<&Split<'_, '_>>,
) -> Vec<FetchTarget> {
    let mut hosts = Vec::new();
    if let Some(u) = url {
        for (h, p) in &u.hosts {
            add(&mut hosts, (u.url.scheme().to_owned(), h.clone(), *p));
        }
    }
    if let Some(r) = raw {
        let scheme = r.raw.scheme.to_ascii_lowercase();
        for (h, p) in &r.hosts {
            add(&mut hosts, (scheme.clone(), h.clone(), *p));
        }
    }
    if !has_text(text, b"://") {
        // A scheme-less `evil.com/x`, which fetch tools complete to `https://`.
        let guess = format!("https://{text}");
        if let Some(r) = RawUrl::split(&guess) {
            for (h, p) in r.hosts(true) {
                add(&mut hosts, ("https".to_owned(), h, p));
            }
        }
    }
    // Every spelling that reaches this machine also reads as `127.0.0.1` and `localhost`, so
    // a deny on either covers `0.0.0.0`, `127.0.0.2`, `[::]` or `a.localhost`.
    let loopback: Vec<(String, Option<u16>)> = hosts
        .iter()
        .filter(|(_, h, _)| super::host::reaches_loopback(h))
        .map(|(s, _, p)| (s.clone(), *p))
        .collect();
    for (scheme, port) in loopback {
        add(&mut hosts, (scheme.clone(), "127.0.0.1".to_owned(), port));
        add(&mut hosts, (scheme, "localhost".to_owned(), port));
    }
    let mut paths = Vec::new();
    if let Some(u) = url {
        add(&mut paths, u.path.clone());
    }
    if let Some(r) = raw {
        add(&mut paths, r.path.clone());
        if has_any(r.raw.path, b"%\\") {
            add(&mut paths, fully_decoded(r.raw.path));
        }
    }
    for i in 0..paths.len() {
        let Some(p) = paths.get(i).cloned() else {
            continue;
        };
        let collapsed = has_text(&p, b"//").then(|| collapse_slashes(&p));
        if has_any(&p, b";") {
            add(&mut paths, strip_params(&p));
            if let Some(c) = &collapsed {
                add(&mut paths, strip_params(c));
            }
        }
        if let Some(c) = collapsed {
            add(&mut paths, c);
        }
    }
    if paths.is_empty() {
        paths.push("/".to_owned());
    }
    product(&hosts, &paths, true)
}

/// Whether `text` holds one of the ASCII bytes `set`: `str::contains` of those characters,
/// without the generic pattern searcher the size-first build runs it through.
fn has_any(text: &str, set: &[u8]) -> bool {
    text.bytes().any(|b| set.contains(&b))
}

/// Whether `text` holds the ASCII sequence `needle` (`str::contains`, byte by byte).
fn has_text(text: &str, needle: &[u8]) -> bool {
    text.as_bytes().windows(needle.len()).any(|w| w == needle)
}

/// Adds `item` unless it is already there.
fn add<T: PartialEq>(into: &mut Vec<T>, item: T) {
    if !into.contains(&item) {
        into.push(item);
    }
}

/// Every (scheme, host, port) with every path; both lists hold no repeats, so neither does
/// the result.
fn product(
    hosts: &[(String, String, Option<u16>)],
    paths: &[String],
    wide: bool,
) -> Vec<FetchTarget> {
    let mut out = Vec::with_capacity(hosts.len() * paths.len());
    for (scheme, host, port) in hosts {
        for path in paths {
            out.push(FetchTarget {
                scheme: scheme.clone(),
                host: host.clone(),
                port: *port,
                path: path.clone(),
                wide,
            });
        }
    }
    out
}

/// The host readings (with the port) of a WHATWG-parsed URL.
fn whatwg_readings(url: &url::Url) -> Vec<(String, Option<u16>)> {
    let port = url.port_or_known_default();
    let hosts = match url.host() {
        Some(url::Host::Domain(d)) => host_readings(d),
        Some(url::Host::Ipv4(a)) => vec![a.to_string()],
        Some(url::Host::Ipv6(a)) => ipv6_readings(a),
        None => Vec::new(),
    };
    hosts.into_iter().map(|h| (h, port)).collect()
}

/// A URL split by the RFC 3986 grammar, without decoding anything.
struct RawUrl<'a> {
    scheme: &'a str,
    authority: Option<&'a str>,
    path: &'a str,
}

impl<'a> RawUrl<'a> {
    fn split(text: &'a str) -> Option<Self> {
        let (scheme, rest) = text.split_once(':')?;
        let mut chars = scheme.chars();
        let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        if !scheme_ok {
            return None;
        }
        let (authority, rest) = match rest.strip_prefix("//") {
            Some(r) => {
                let end = r.find(['/', '?', '#']).unwrap_or(r.len());
                (Some(r.get(..end)?), r.get(end..)?)
            }
            None => (None, rest),
        };
        let end = rest.find(['?', '#']).unwrap_or(rest.len());
        Some(RawUrl {
            scheme,
            authority,
            path: rest.get(..end)?,
        })
    }

    /// The host readings with their ports: after the last `@` (RFC 3986) and, when `every`,
    /// also after the first `@` (what some clients take), in the authority as written and
    /// percent-decoded.
    fn hosts(&self, every: bool) -> Vec<(String, Option<u16>)> {
        let Some(authority) = self.authority else {
            return Vec::new();
        };
        // A client that decodes the authority first sees `%40` as `@`.
        let decoded = (every && has_any(authority, b"%"))
            .then(|| percent_decode(authority))
            .flatten()
            .filter(|d| d != authority);
        let mut host_ports = Vec::new();
        for a in std::iter::once(authority).chain(decoded.as_deref()) {
            host_ports.push(a.rsplit_once('@').map_or(a, |(_, h)| h));
            if every {
                if let Some((_, h)) = a.split_once('@') {
                    host_ports.push(h);
                }
            }
        }
        let default = default_port(&self.scheme.to_ascii_lowercase());
        let mut out = Vec::new();
        for hp in host_ports {
            let (host, port) = split_port(hp);
            let port = match port {
                None | Some("") => default,
                Some(p) => match p.parse::<u16>() {
                    Ok(n) => Some(n),
                    Err(_) => continue,
                },
            };
            for h in host_readings(host) {
                if !out.contains(&(h.clone(), port)) {
                    out.push((h, port));
                }
            }
        }
        out
    }
}

fn split_port(host_port: &str) -> (&str, Option<&str>) {
    if host_port.starts_with('[') {
        if let Some(end) = host_port.find(']') {
            let (host, rest) = host_port.split_at(end + 1);
            return (host, rest.strip_prefix(':'));
        }
        return (host_port, None);
    }
    match host_port.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (host_port, None),
    }
}

/// The port a URL of `scheme` reaches when it names none.
pub(crate) fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

/// Why no reading of the URL can be trusted, if none can.
fn doubt(text: &str, whatwg: Option<&url::Url>, raw: Option<&RawUrl<'_>>) -> Option<String> {
    let (Some(url), Some(raw)) = (whatwg, raw) else {
        return Some(format!("`{text}` is not an absolute URL with a host"));
    };
    let before_query = text
        .bytes()
        .position(|b| b == b'?' || b == b'#')
        .and_then(|end| text.get(..end))
        .unwrap_or(text);
    if text.chars().any(char::is_control) || has_any(before_query, b" ") {
        return Some(format!(
            "`{text}` contains a control character or a space, which URL parsers drop or keep \
             differently"
        ));
    }
    if has_any(text, b"\\") {
        return Some(format!(
            "`{text}` contains a backslash, which URL parsers read differently (a path \
             separator or part of the host)"
        ));
    }
    let authority = raw.authority.unwrap_or("");
    if has_any(authority, b"@") || !url.username().is_empty() || url.password().is_some() {
        return Some(format!(
            "`{text}` has user information (`user@`) before its host, which parsers split \
             differently"
        ));
    }
    if has_any(authority, b"%") {
        return Some(format!("`{text}` has a percent-escape in its host"));
    }
    if encoded_separator(raw.path) {
        return Some(format!(
            "`{text}` has an encoded `/`, `\\`, NUL or dot segment in its path, which servers \
             decode differently"
        ));
    }
    None
}

/// Whether a raw path holds `%2f`, `%5c`, `%00` (also double-encoded), or a dot segment
/// written with escapes (`%2e%2e`, `.%2e`).
fn encoded_separator(path: &str) -> bool {
    // Every form sought holds a `%`.
    if !has_any(path, b"%") {
        return false;
    }
    let lower = path.to_ascii_lowercase();
    let encoded = ["%2f", "%5c", "%00", "%252f", "%255c", "%2500", "%252e"];
    if encoded.iter().any(|e| lower.contains(e)) {
        return true;
    }
    lower
        .split('/')
        .any(|seg| seg.contains('%') && matches!(percent_decode(seg).as_deref(), Some("." | "..")))
}

/// A path with unreserved characters decoded, other escapes in upper case, and dot
/// segments removed; `/` for an empty path.
pub(crate) fn clean_path(path: &str) -> String {
    remove_dot_segments(&decode_unreserved(path))
}

/// Decodes `%XX` escapes of unreserved characters (letters, digits, `-._~`) and upper-cases
/// the hex digits of the others.
fn decode_unreserved(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(at) = rest.find('%') {
        out.push_str(rest.get(..at).unwrap_or(""));
        let hex = rest.get(at + 1..at + 3);
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(b) if b.is_ascii_alphanumeric() || b"-._~".contains(&b) => {
                out.push(char::from(b));
                rest = rest.get(at + 3..).unwrap_or("");
            }
            Some(_) => {
                out.push('%');
                out.push_str(&hex.unwrap_or("").to_ascii_uppercase());
                rest = rest.get(at + 3..).unwrap_or("");
            }
            None => {
                out.push('%');
                rest = rest.get(at + 1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}

/// RFC 3986 dot-segment removal on an absolute path; empty segments (`//`) are kept.
fn remove_dot_segments(path: &str) -> String {
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let mut out: Vec<&str> = Vec::new();
    let count = segments.len();
    for (i, seg) in segments.into_iter().enumerate() {
        let last = i + 1 == count;
        match seg {
            "." => {}
            ".." => {
                out.pop();
            }
            s => {
                out.push(s);
                continue;
            }
        }
        if last {
            out.push("");
        }
    }
    let mut joined = String::with_capacity(path.len() + 1);
    for seg in &out {
        joined.push('/');
        joined.push_str(seg);
    }
    if joined.is_empty() {
        joined.push('/');
    }
    joined
}

/// The path as a server that decodes everything would see it: escapes decoded (`%2f` is
/// `/`), backslashes read as `/`, dot segments removed.
fn fully_decoded(path: &str) -> String {
    let mut text = path.replace('\\', "/");
    for _ in 0..2 {
        text = match percent_decode(&text) {
            Some(d) => d,
            None => break,
        };
    }
    remove_dot_segments(&text.replace('\\', "/"))
}

fn collapse_slashes(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

/// The path with each segment's `;params` dropped.
fn strip_params(path: &str) -> String {
    if !has_any(path, b";") {
        return path.to_owned();
    }
    path.split('/')
        .map(|seg| seg.split(';').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_searches_find_what_str_contains_finds() {
        for text in [
            "",
            "a",
            "https://x",
            "a//b",
            "é;ü",
            "%2f",
            "a\\b",
            "@",
            "x/:/",
            "://",
        ] {
            for set in [&b"@%"[..], b";", b"%\\", b" ", b"/"] {
                let chars: Vec<char> = set.iter().map(|b| char::from(*b)).collect();
                assert_eq!(
                    has_any(text, set),
                    text.contains(chars.as_slice()),
                    "`{text}`"
                );
            }
            for needle in ["://", "//"] {
                assert_eq!(has_text(text, needle.as_bytes()), text.contains(needle));
            }
        }
    }

    #[test]
    fn loopback_spellings_read_as_localhost_for_deny_rules() {
        for u in [
            "http://0/",
            "http://0.0.0.0/",
            "http://[::]/",
            "http://[::1]/",
            "http://foo.localhost/",
            "http://127.0.0.2/",
            "http://LOCALHOST./",
        ] {
            let hosts = wide_hosts(u);
            assert!(hosts.contains(&"127.0.0.1".to_owned()), "{u}: {hosts:?}");
            assert!(hosts.contains(&"localhost".to_owned()), "{u}: {hosts:?}");
            // Allow rules see only the narrow readings.
            let narrow: Vec<String> = RequestedUrl::parse(u)
                .narrow_readings()
                .iter()
                .map(|t| t.host.clone())
                .collect();
            assert!(
                !narrow.contains(&"127.0.0.1".to_owned()) || u.contains("127.0.0.1"),
                "{u}: {narrow:?}"
            );
        }
        let deny = crate::Policy::from_json(
            r#"{"permissions":{"deny":["WebFetch(domain:localhost)"],"allow":["WebFetch"]}}"#,
        )
        .unwrap();
        for u in [
            "http://0/",
            "http://[::]/",
            "http://foo.localhost/",
            "http://127.0.0.2/",
        ] {
            let r = crate::Request {
                tool: "WebFetch".into(),
                input: serde_json::json!({ "url": u }),
                cwd: Some("/p".into()),
                ..crate::Request::default()
            };
            assert_eq!(
                deny.evaluate(&r).effect,
                crate::decision::Effect::Deny,
                "{u}"
            );
        }
        assert!(!wide_hosts("https://docs.rs/").contains(&"localhost".to_owned()));
        assert!(!wide_hosts("http://localhost.evil.com/").contains(&"127.0.0.1".to_owned()));
    }

    fn wide_hosts(u: &str) -> Vec<String> {
        let mut h: Vec<String> = RequestedUrl::parse(u)
            .wide_readings()
            .iter()
            .map(|t| t.host.clone())
            .collect();
        h.dedup();
        h
    }

    fn wide_paths(u: &str) -> Vec<String> {
        RequestedUrl::parse(u)
            .wide_readings()
            .iter()
            .map(|t| t.path.clone())
            .collect()
    }

    #[test]
    fn paths_are_cleaned() {
        assert_eq!(clean_path("/a/./b/../c"), "/a/c");
        assert_eq!(clean_path("/a/b/.."), "/a/");
        assert_eq!(clean_path("/%61dmin/%7e/%2f"), "/admin/~/%2F");
        assert_eq!(clean_path(""), "/");
        assert_eq!(clean_path("/../../x"), "/x");
        assert_eq!(clean_path("/a//b"), "/a//b");
        assert_eq!(fully_decoded("/a/..%2f..%2fadmin"), "/admin");
        assert_eq!(fully_decoded("/a/%252e%252e/b"), "/b");
        assert_eq!(collapse_slashes("//a///b"), "/a/b");
        assert_eq!(strip_params("/a;x=1/b;y"), "/a/b");
    }

    #[test]
    fn clean_urls_have_no_doubt() {
        for u in [
            "https://docs.rs/serde/latest/serde/",
            "https://docs.rs/x?y=1#z",
            "https://docs.rs/search?q=a%2Fb",
            "https://docs.rs/search?q=a b",
            "http://[::1]:8080/x",
            "https://docs.rs:443/a%20b",
        ] {
            let r = RequestedUrl::parse(u);
            assert_eq!(r.doubt(), None, "{u}");
            assert!(!r.narrow_readings().is_empty(), "{u}");
        }
    }

    #[test]
    fn doubts() {
        for u in [
            r"https://docs.rs\@evil.com/",
            "https://docs.rs@evil.com/",
            "https://user:pass@docs.rs/",
            "https://@docs.rs/",
            "https://docs.rs%40evil.com/",
            "https://%64ocs.rs/",
            "https://docs.rs/a/..%2fb",
            "https://docs.rs/a/%2e%2e/b",
            "https://docs.rs/a/.%2E/b",
            "https://docs.rs/a%00b",
            "https://docs.rs/a%5cb",
            "https://docs.rs/a%252fb",
            "https://docs.rs/\t/x",
            "https://docs.rs/a b",
            "docs.rs/x",
            "not a url",
            "file:///etc/passwd",
        ] {
            assert!(RequestedUrl::parse(u).doubt().is_some(), "{u}");
        }
    }

    #[test]
    fn hosts_read_every_way() {
        let h = wide_hosts(r"https://docs.rs\@evil.com/");
        assert!(h.contains(&"docs.rs".into()) && h.contains(&"evil.com".into()));
        let h = wide_hosts("https://a@b@evil.com/");
        assert!(h.contains(&"b@evil.com".into()) || h.contains(&"evil.com".into()));
        assert_eq!(
            wide_hosts("http://[::ffff:a9fe:a9fe]/"),
            ["169.254.169.254"]
        );
        assert_eq!(wide_hosts("http://2852039166/"), ["169.254.169.254"]);
        assert_eq!(wide_hosts("gopher://0xa9fea9fe/"), ["169.254.169.254"]);
        assert_eq!(wide_hosts("evil.com/x"), ["evil.com"]);
    }

    #[test]
    fn paths_read_every_way() {
        let p = wide_paths("http://h/latest//meta-data;x=1/");
        assert!(p.contains(&"/latest/meta-data/".into()), "{p:?}");
        let p = wide_paths("http://h/a/..%2f..%2flatest");
        assert!(p.contains(&"/latest".into()), "{p:?}");
    }
}
