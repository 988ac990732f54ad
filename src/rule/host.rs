//! Host names and IP literals brought to one spelling before they are compared: lowercase,
//! no trailing dot, percent-escapes decoded, and every spelling of an IPv4 address that
//! resolvers accept (`2852039166`, `0251.0376.0251.0376`, `0xa9fea9fe`, `169.254.43518`,
//! `[::ffff:169.254.169.254]`, `[::ffff:a9fe:a9fe]`) written as dotted decimal.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Every reading of a host as written in a URL or a rule, canonical spelling first; empty
/// when the host is not usable (empty, undecodable escapes, a malformed IPv6 literal).
///
/// A NAT64 address (`[64:ff9b::a9fe:a9fe]`) reaches the IPv4 host it embeds on networks
/// with NAT64, so it reads both as itself and as that IPv4 address.
///
/// ```
/// use toolgate::rule::host_readings;
/// assert_eq!(host_readings("0xA9FEA9FE"), ["169.254.169.254"]);
/// assert_eq!(host_readings("[::FFFF:169.254.169.254]"), ["169.254.169.254"]);
/// assert_eq!(host_readings("Docs.RS."), ["docs.rs"]);
/// assert_eq!(host_readings("[64:ff9b::a9fe:a9fe]"), ["[64:ff9b::a9fe:a9fe]", "169.254.169.254"]);
/// ```
pub fn host_readings(raw: &str) -> Vec<String> {
    let Some(decoded) = percent_decode(raw) else {
        return Vec::new();
    };
    let lower = decoded.to_ascii_lowercase();
    let host = lower.strip_suffix('.').unwrap_or(&lower);
    if host.is_empty() {
        return Vec::new();
    }
    if let Some(inner) = host.strip_prefix('[') {
        let Some(v6) = inner
            .strip_suffix(']')
            .and_then(|a| a.parse::<Ipv6Addr>().ok())
        else {
            return Vec::new();
        };
        return ipv6_readings(v6);
    }
    match parse_ipv4(host) {
        Some(v4) => vec![v4.to_string()],
        None => vec![host.to_owned()],
    }
}

/// Whether a host reading (as [`host_readings`] spells it) reaches this machine: `localhost`
/// and its subdomains, `127.0.0.0/8`, `0.0.0.0` (which connects to the local host), `[::]`
/// and `[::1]`.
///
/// ```
/// use toolgate::rule::reaches_loopback;
/// for h in ["localhost", "a.localhost", "127.0.0.2", "0.0.0.0", "[::]", "[::1]"] {
///     assert!(reaches_loopback(h), "{h}");
/// }
/// assert!(!reaches_loopback("localhost.evil.com"));
/// assert!(!reaches_loopback("10.0.0.1"));
/// ```
pub fn reaches_loopback(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") || host == "[::]" || host == "[::1]" {
        return true;
    }
    match host.parse::<Ipv4Addr>() {
        Ok(v4) => v4.is_loopback() || v4.is_unspecified(),
        Err(_) => false,
    }
}

/// The readings of an IPv6 address: the IPv4 address it embeds (mapped `::ffff:a.b.c.d`
/// and compatible `::a.b.c.d` forms), or itself, plus the embedded IPv4 host for NAT64.
pub(crate) fn ipv6_readings(v6: Ipv6Addr) -> Vec<String> {
    if let Some(v4) = v6.to_ipv4_mapped() {
        return vec![v4.to_string()];
    }
    let seg = v6.segments();
    let [a, b, c, d, e, f, g, h] = seg;
    let embedded = Ipv4Addr::from((u32::from(g) << 16) | u32::from(h));
    // `::a.b.c.d` (deprecated IPv4-compatible); `::` and `::1` are not IPv4.
    if [a, b, c, d, e, f] == [0; 6] && !(g == 0 && h <= 1) {
        return vec![embedded.to_string()];
    }
    let own = format!("[{v6}]");
    if [a, b, c, d, e, f] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return vec![own, embedded.to_string()];
    }
    vec![own]
}

/// Parses an IPv4 address in any form `inet_aton` and the WHATWG URL rules accept: one to
/// four parts, each decimal, octal (leading `0`) or hexadecimal (`0x`), the last part
/// filling the remaining bytes.
///
/// ```
/// use toolgate::rule::parse_ipv4;
/// let meta = std::net::Ipv4Addr::new(169, 254, 169, 254);
/// for spelling in ["169.254.169.254", "2852039166", "0251.0376.0251.0376", "0xa9fea9fe",
///                  "169.254.43518", "0xa9.0xfe.0xa9.0xfe", "169.16689662"] {
///     assert_eq!(parse_ipv4(spelling), Some(meta), "{spelling}");
/// }
/// assert_eq!(parse_ipv4("docs.rs"), None);
/// assert_eq!(parse_ipv4("1.2.3.4.5"), None);
/// assert_eq!(parse_ipv4("256.1.1.1"), None);
/// ```
pub fn parse_ipv4(host: &str) -> Option<Ipv4Addr> {
    let host = host.strip_suffix('.').unwrap_or(host);
    let parts: Vec<&str> = host.split('.').collect();
    let (last, init) = parts.split_last()?;
    if init.len() > 3 {
        return None;
    }
    let mut value: u64 = 0;
    for (i, part) in init.iter().enumerate() {
        let n = parse_number(part)?;
        if n > 255 {
            return None;
        }
        value |= n << (8 * (3 - i));
    }
    let last = parse_number(last)?;
    let room = 8 * (4 - init.len());
    if last >= 1u64 << room {
        return None;
    }
    value |= last;
    u32::try_from(value).ok().map(Ipv4Addr::from)
}

/// One part of an IPv4 address: `0x` hex (possibly empty digits, as in WHATWG), leading-zero
/// octal, or decimal.
fn parse_number(part: &str) -> Option<u64> {
    if part.is_empty() {
        return None;
    }
    let (digits, radix) =
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            (hex, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (part.get(1..)?, 8)
        } else {
            (part, 10)
        };
    if digits.is_empty() {
        return Some(0);
    }
    if digits.len() > 12 || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// Decodes every `%XX` escape; `None` for a malformed escape or text that is not UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let s = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(s, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_spellings() {
        let meta = Some(Ipv4Addr::new(169, 254, 169, 254));
        assert_eq!(parse_ipv4("169.254.169.254."), meta);
        assert_eq!(parse_ipv4("0XA9FEA9FE"), meta);
        assert_eq!(parse_ipv4("0x"), Some(Ipv4Addr::new(0, 0, 0, 0)));
        assert_eq!(parse_ipv4("127.1"), Some(Ipv4Addr::new(127, 0, 0, 1)));
        assert_eq!(parse_ipv4("4294967295"), Some(Ipv4Addr::BROADCAST));
        assert_eq!(parse_ipv4("4294967296"), None);
        assert_eq!(parse_ipv4("08.1.1.1"), None);
        assert_eq!(parse_ipv4("1..1"), None);
        assert_eq!(parse_ipv4(""), None);
        assert_eq!(parse_ipv4("1.2.3.com"), None);
    }

    #[test]
    fn ipv6_spellings() {
        for v in [
            "[::ffff:169.254.169.254]",
            "[::ffff:a9fe:a9fe]",
            "[0:0:0:0:0:ffff:a9fe:a9fe]",
            "[::169.254.169.254]",
            "[::a9fe:a9fe]",
            "%5b::ffff:a9fe:a9fe%5d",
        ] {
            assert_eq!(host_readings(v), ["169.254.169.254"], "{v}");
        }
        assert_eq!(host_readings("[::1]"), ["[::1]"]);
        assert_eq!(host_readings("[FD00::1]"), ["[fd00::1]"]);
        assert!(host_readings("[::1").is_empty());
        assert!(host_readings("[fe80::1%25eth0]").is_empty());
    }

    #[test]
    fn names() {
        assert_eq!(host_readings("%65vil.com"), ["evil.com"]);
        assert_eq!(host_readings("EVIL.com."), ["evil.com"]);
        assert!(host_readings("").is_empty());
        assert!(host_readings(".").is_empty());
        assert!(host_readings("a%zz").is_empty());
    }
}
