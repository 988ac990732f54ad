//! URL rules: Claude Code's `WebFetch(domain:example.com)` and Copilot CLI's
//! `url(https://*.api.com/v1)`.

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
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => {
                let port = p.parse::<u16>().map_err(|_| {
                    Error::new(
                        ErrorKind::InvalidRule,
                        format!("url pattern `{spec}` has an invalid port `{p}`"),
                    )
                    .with_hint("write a port number from 1 to 65535")
                })?;
                (h, Some(port))
            }
            None => (authority, None),
        };
        let host = DomainPattern::parse(host)?;
        Ok(UrlPattern {
            scheme,
            host,
            port,
            path: path.trim_end_matches('/').to_owned(),
        })
    }

    /// Whether a parsed URL matches.
    pub fn matches(&self, url: &FetchTarget) -> bool {
        let scheme_ok = match &self.scheme {
            Some(s) => *s == url.scheme,
            None => url.scheme == "http" || url.scheme == "https",
        };
        let port_ok = self.port.is_none_or(|p| Some(p) == url.port);
        let path_ok =
            self.path.is_empty() || crate::path::relative_to(&self.path, &url.path).is_some();
        scheme_ok && port_ok && path_ok && self.host.matches(&url.host)
    }
}

/// The parts of a requested URL that rules look at, parsed by the WHATWG URL rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchTarget {
    /// The scheme, lowercase.
    pub scheme: String,
    /// The host, lowercase, punycode, no trailing dot.
    pub host: String,
    /// The port, explicit or the scheme's default.
    pub port: Option<u16>,
    /// The path.
    pub path: String,
}

impl FetchTarget {
    /// Parses an absolute URL with a host; `None` for anything else.
    ///
    /// ```
    /// use toolgate::rule::FetchTarget;
    /// let t = FetchTarget::parse("https://Docs.Example.COM./a").unwrap();
    /// assert_eq!(t.host, "docs.example.com");
    /// assert!(FetchTarget::parse("not a url").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        let url = url::Url::parse(text.trim()).ok()?;
        let host = url.host_str()?.to_ascii_lowercase();
        let host = host.strip_suffix('.').unwrap_or(&host).to_owned();
        if host.is_empty() {
            return None;
        }
        Some(FetchTarget {
            scheme: url.scheme().to_owned(),
            host,
            port: url.port_or_known_default(),
            path: url.path().to_owned(),
        })
    }
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
