//! URL rules: Claude Code's `WebFetch(domain:example.com)` and Copilot CLI's
//! `url(https://*.api.com/v1)`.

use super::host::{host_readings, parse_ipv4};
use super::url_target::{clean_path, is_web_scheme, FetchTarget};
use crate::error::{Error, ErrorKind, Result};

/// A host pattern: case-insensitive, trailing dot ignored; a leading `*.` covers any depth of
/// subdomain but not the apex; `*` anywhere else stands for part of one label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainPattern {
    /// Whether the pattern started with `*.`.
    pub subdomains: bool,
    /// The remaining labels, lowercase, each possibly holding `*`.
    pub labels: Vec<String>,
}

impl DomainPattern {
    /// Parses a host pattern such as `example.com`, `*.example.com` or `api-*.example.com`.
    pub fn parse(spec: &str) -> Result<Self> {
        let lower = spec.trim().to_ascii_lowercase();
        let host = lower.strip_suffix('.').unwrap_or(&lower);
        let bad = |what: &str| {
            Error::new(ErrorKind::InvalidRule, format!("domain `{spec}` {what}"))
                .with_hint("write a host name such as `example.com` or `*.example.com`")
        };
        if host.is_empty() {
            return Err(bad("is empty"));
        }
        if !host.is_ascii() {
            // Unicode host names are not mapped (no IDNA tables ship): a request naming one
            // is unanalysable, so a rule naming one could never match. Punycode is exact.
            return Err(bad("is not ASCII").with_hint(
                "write an internationalised host name in its punycode form, such as \
                 `xn--bcher-kva.example` for `bücher.example`",
            ));
        }
        if let Some(ip) = ip_literal(host) {
            return ip
                .ok_or_else(|| bad("is not a valid IP address"))
                .map(|canonical| DomainPattern {
                    subdomains: false,
                    labels: match canonical.starts_with('[') {
                        true => vec![canonical],
                        false => canonical.split('.').map(str::to_owned).collect(),
                    },
                });
        }
        let (subdomains, rest) = match host.strip_prefix("*.") {
            Some(r) => (true, r),
            None => (false, host),
        };
        let labels: Vec<String> = rest.split('.').map(str::to_owned).collect();
        for l in &labels {
            if l.is_empty() {
                return Err(bad("has an empty label"));
            }
            if !l
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '*'))
            {
                return Err(bad("has a character that cannot appear in a host name"));
            }
        }
        if labels.iter().all(|l| l.chars().all(|c| c == '*')) {
            return Err(bad("matches every host").with_hint(
                "name a domain; to allow every URL use the `allowAllUrls` flag, to deny every \
                 fetch deny the tool itself (`WebFetch`)",
            ));
        }
        Ok(DomainPattern { subdomains, labels })
    }

    /// Whether `host` (lowercase, trailing dot removed) matches.
    pub fn matches(&self, host: &str) -> bool {
        let host_labels: Vec<&str> = host.split('.').collect();
        let n = self.labels.len();
        if self.subdomains {
            if host_labels.len() <= n {
                return false;
            }
        } else if host_labels.len() != n {
            return false;
        }
        let tail = host_labels.get(host_labels.len() - n..).unwrap_or(&[]);
        tail.len() == n
            && tail
                .iter()
                .zip(&self.labels)
                .all(|(h, p)| super::star_match(p, h))
    }

    /// Whether one reading of a requested URL matches: its host, and, for an allow rule
    /// (a narrow reading), an `http` or `https` scheme. A deny or ask rule (a wide reading)
    /// matches the host under any scheme.
    ///
    /// ```
    /// use toolgate::rule::{DomainPattern, FetchTarget};
    /// let docs = DomainPattern::parse("docs.rs").unwrap();
    /// assert!(docs.matches_target(&FetchTarget::parse("https://docs.rs/x").unwrap()));
    /// assert!(!docs.matches_target(&FetchTarget::parse("ftp://docs.rs/x").unwrap()));
    /// ```
    pub fn matches_target(&self, target: &FetchTarget) -> bool {
        (target.wide || target.is_web()) && self.matches(&target.host)
    }

    /// The literal domain this pattern is keyed under, when it has no `*` in its labels.
    pub fn literal(&self) -> Option<String> {
        (!self.labels.iter().any(|l| l.contains('*'))).then(|| self.labels.join("."))
    }
}

impl std::fmt::Display for DomainPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.subdomains {
            f.write_str("*.")?;
        }
        f.write_str(&self.labels.join("."))
    }
}

/// A Copilot CLI URL pattern: an optional scheme, a host pattern, an optional port and an
/// optional path prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlPattern {
    /// The scheme, lowercase; `None` matches `http` and `https`.
    pub scheme: Option<String>,
    /// The host.
    pub host: DomainPattern,
    /// The port, when given.
    pub port: Option<u16>,
    /// A path prefix (segment-wise), without a trailing slash; empty for any path.
    pub path: String,
}

impl UrlPattern {
    /// Parses `github.com`, `https://*.api.com`, `http://localhost:8080/api`.
    pub fn parse(spec: &str) -> Result<Self> {
        let spec = spec.trim();
        let (scheme, rest) = match spec.split_once("://") {
            Some((s, r)) => (Some(s.to_ascii_lowercase()), r),
            None => (None, spec),
        };
        if let Some(s) = &scheme {
            if s.is_empty()
                || !s
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            {
                return Err(Error::new(
                    ErrorKind::InvalidRule,
                    format!("url pattern `{spec}` has an invalid scheme"),
                )
                .with_hint("write `https://host` or just `host`"));
            }
        }
        let (authority, path) = match rest.find('/') {
            Some(i) => (rest.get(..i).unwrap_or(""), rest.get(i..).unwrap_or("")),
            None => (rest, ""),
        };
        // `[v6]:port` keeps its colons inside the brackets; otherwise the last `:` starts
        // the port. Text after `]` other than `:port` is left to the port parser to refuse.
        let split = match authority.strip_prefix('[').and_then(|a| a.find(']')) {
            Some(end) => match authority.split_at_checked(end + 2) {
                Some((h, "")) => (h, None),
                Some((h, rest)) => (h, Some(rest.strip_prefix(':').unwrap_or(rest))),
                None => (authority, None),
            },
            None => match authority.rsplit_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (authority, None),
            },
        };
        let (host, port) = match split {
            (h, Some(p)) => {
                let port = p.parse::<u16>().map_err(|_| {
                    Error::new(
                        ErrorKind::InvalidRule,
                        format!("url pattern `{spec}` has an invalid port `{p}`"),
                    )
                    .with_hint("write a port number from 1 to 65535")
                })?;
                (h, Some(port))
            }
            (h, None) => (h, None),
        };
        let host = DomainPattern::parse(host)?;
        let path = if path.is_empty() {
            String::new()
        } else {
            clean_path(path).trim_end_matches('/').to_owned()
        };
        Ok(UrlPattern {
            scheme,
            host,
            port,
            path,
        })
    }

    /// Whether one reading of a requested URL matches.
    ///
    /// A narrow reading (allow rules) needs the rule's scheme (`http` or `https` when it
    /// names none), port and path prefix exactly. A wide reading (deny and ask rules) also
    /// matches any scheme when the rule names none, `http` for `https` and back, and paths
    /// without regard to case.
    ///
    /// ```
    /// use toolgate::rule::{FetchTarget, UrlPattern};
    /// let p = UrlPattern::parse("github.com/org").unwrap();
    /// assert!(p.matches(&FetchTarget::parse("https://github.com/org/repo").unwrap()));
    /// assert!(!p.matches(&FetchTarget::parse("https://github.com/ORG/repo").unwrap()));
    /// let wide = FetchTarget { wide: true, ..FetchTarget::parse("ftp://github.com/ORG").unwrap() };
    /// assert!(p.matches(&wide));
    /// ```
    pub fn matches(&self, url: &FetchTarget) -> bool {
        let scheme_ok = match &self.scheme {
            Some(s) => {
                *s == url.scheme || (url.wide && is_web_scheme(s) && is_web_scheme(&url.scheme))
            }
            None => url.wide || url.is_web(),
        };
        let port_ok = self.port.is_none_or(|p| Some(p) == url.port);
        let path_ok = self.path.is_empty()
            || if url.wide {
                crate::path::relative_to(
                    &self.path.to_ascii_lowercase(),
                    &url.path.to_ascii_lowercase(),
                )
                .is_some()
            } else {
                crate::path::relative_to(&self.path, &url.path).is_some()
            };
        scheme_ok && port_ok && path_ok && self.host.matches(&url.host)
    }
}

/// For a host written as an IP literal (any IPv4 spelling, or `[v6]`), its canonical form,
/// or `Some(None)` when it looks like one but is not valid; `None` for host names.
fn ip_literal(host: &str) -> Option<Option<String>> {
    if host.starts_with('[') {
        return Some(host_readings(host).into_iter().next());
    }
    if host.contains('*') {
        return None;
    }
    parse_ipv4(host).map(|v4| Some(v4.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(p: &str, host: &str) -> bool {
        DomainPattern::parse(p).unwrap().matches(host)
    }

    #[test]
    fn domain_semantics() {
        assert!(d("Example.com.", "example.com"));
        assert!(!d("example.com", "api.example.com"));
        assert!(d("*.example.com", "a.b.example.com"));
        assert!(!d("*.example.com", "example.com"));
        assert!(!d("*.example.com", "evilexample.com"));
        assert!(d("api-*.example.com", "api-eu.example.com"));
        assert!(!d("api-*.example.com", "x.api-eu.example.com"));
        assert!(d("foo.*.com", "foo.bar.com"));
        assert!(!d("foo.*.com", "foo.a.b.com"));
        assert!(DomainPattern::parse("*").is_err());
        assert!(DomainPattern::parse("a/b").is_err());
    }

    #[test]
    fn url_semantics() {
        let t = |s| FetchTarget::parse(s).unwrap();
        let u = |p| UrlPattern::parse(p).unwrap();
        assert!(u("github.com").matches(&t("https://github.com/x")));
        assert!(!u("github.com").matches(&t("ftp://github.com/x")));
        assert!(u("https://*.api.com").matches(&t("https://v1.api.com")));
        assert!(!u("https://*.api.com").matches(&t("http://v1.api.com")));
        assert!(u("github.com/org").matches(&t("https://github.com/org/repo")));
        assert!(!u("github.com/org").matches(&t("https://github.com/organisation")));
        assert!(!u("github.com").matches(&t("https://github.com@evil.com/")));
        assert!(u("localhost:8080").matches(&t("http://localhost:8080/")));
        assert!(!u("localhost:8080").matches(&t("http://localhost:9090/")));
    }

    #[test]
    fn ip_literals_in_rules_are_canonical() {
        for spelling in [
            "0xa9fea9fe",
            "2852039166",
            "[::ffff:169.254.169.254]",
            "169.254.43518",
        ] {
            let p = DomainPattern::parse(spelling).unwrap();
            assert_eq!(p.to_string(), "169.254.169.254", "{spelling}");
        }
        assert_eq!(
            DomainPattern::parse("[FD00::1]").unwrap().to_string(),
            "[fd00::1]"
        );
        assert!(DomainPattern::parse("[::1").is_err());
        assert!(DomainPattern::parse("[nope]").is_err());
        let u = UrlPattern::parse("http://[fd00::1]:8080/api").unwrap();
        assert_eq!(u.host.to_string(), "[fd00::1]");
        assert_eq!((u.port, u.path.as_str()), (Some(8080), "/api"));
        assert!(u.matches(&FetchTarget::parse("http://[fd00:0::1]:8080/api/x").unwrap()));
        assert_eq!(UrlPattern::parse("[::1]").unwrap().port, None);
        assert!(UrlPattern::parse("[::1]x").is_err());
        // Rule paths are cleaned like request paths.
        assert_eq!(
            UrlPattern::parse("h.com/%61pi/./v1/").unwrap().path,
            "/api/v1"
        );
    }

    #[test]
    fn wide_readings_match_more() {
        let wide = |s: &str| FetchTarget {
            wide: true,
            ..FetchTarget::parse(s).unwrap()
        };
        let u = |p| UrlPattern::parse(p).unwrap();
        assert!(u("https://evil.com").matches(&wide("http://evil.com/")));
        assert!(!u("https://evil.com").matches(&t("http://evil.com/")));
        assert!(u("evil.com").matches(&wide("gopher://evil.com/")));
        assert!(!u("ftp://evil.com").matches(&wide("http://evil.com/")));
        assert!(u("evil.com/Admin").matches(&wide("https://evil.com/aDMIN/x")));
        let d = DomainPattern::parse("docs.rs").unwrap();
        assert!(d.matches_target(&wide("file://docs.rs/etc")));
        assert!(!d.matches_target(&t("file://docs.rs/etc")));
    }

    fn t(s: &str) -> FetchTarget {
        FetchTarget::parse(s).unwrap()
    }

    #[test]
    fn hosts_are_ascii_and_punycode_is_exact() {
        // An internationalised host is named in punycode, in rules and requests alike.
        let t = FetchTarget::parse("https://XN--Bcher-KVA.example/").unwrap();
        assert_eq!(t.host, "xn--bcher-kva.example");
        assert!(d("xn--bcher-kva.example", &t.host));
        assert!(d("*.example", &t.host));
        // A Unicode host in a request does not parse: the call is unanalysable (it asks).
        assert!(FetchTarget::parse("https://bücher.example/").is_none());
        assert!(FetchTarget::parse("https://ｅｘａｍｐｌｅ.com/").is_none());
        // A Unicode host in a rule is an error that points at punycode.
        let e = DomainPattern::parse("bücher.example").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidRule);
        assert!(e.to_string().contains("is not ASCII"), "{e}");
        assert!(e.hint().unwrap_or_default().contains("xn--"), "{e}");
        assert!(UrlPattern::parse("https://bücher.example/docs").is_err());
    }
}
