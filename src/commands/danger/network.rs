//! Programs that reach the network with data: curl, wget, HTTPie.

use super::*;

/// Options of curl whose value is the next word (or the rest of the cluster).
pub(super) const CURL_VALUE_SHORT: &str = "AbcCdDeEFHKmoPQrtTuUwxXyYz";

pub(super) fn curl_into(args: &[String], out: &mut Classification, facts: &mut LineFacts) {
    let mut sends: Vec<String> = Vec::new();
    let mut urls: Vec<&str> = Vec::new();
    let mut via: Vec<String> = Vec::new();
    let mut i = 0;
    let data_long = [
        "data",
        "data-ascii",
        "data-binary",
        "data-raw",
        "data-urlencode",
        "form",
        "form-string",
        "json",
        "upload-file",
    ];
    let upload = |value: &str, sends: &mut Vec<String>| {
        sends.push(value.to_owned());
    };
    while let Some(a) = args.get(i) {
        i += 1;
        if let Some(long) = a.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            let name = name.to_lowercase();
            let is_data = data_long
                .iter()
                .any(|d| *d == name || (name.len() >= 4 && d.starts_with(name.as_str())));
            if is_data || name == "request" || name.starts_with("req") {
                let value = attached.or_else(|| {
                    let v = args.get(i).cloned();
                    i += 1;
                    v
                });
                let value = value.unwrap_or_default();
                if is_data {
                    upload(&value, &mut sends);
                } else if is_write_method(&value) {
                    upload(&format!("a {} request", value.to_uppercase()), &mut sends);
                }
            } else if name == "url" {
                match long.split_once('=') {
                    Some((_, u)) => urls.push(u),
                    None => {
                        if let Some(u) = args.get(i) {
                            urls.push(u);
                            i += 1;
                        }
                    }
                }
            } else if let Some(how) = curl_route(&name) {
                let value = attached.or_else(|| {
                    let v = args.get(i).cloned();
                    i += 1;
                    v
                });
                via.push(format!("{how} `{}`", value.unwrap_or_default()));
            } else if matches!(
                name.as_str(),
                "header"
                    | "output"
                    | "user"
                    | "proxy"
                    | "config"
                    | "cookie"
                    | "cookie-jar"
                    | "user-agent"
                    | "referer"
                    | "write-out"
                    | "max-time"
                    | "connect-timeout"
                    | "retry"
                    | "cacert"
                    | "cert"
                    | "key"
                    | "resolve"
                    | "connect-to"
            ) && attached.is_none()
            {
                i += 1;
            }
            continue;
        }
        if let Some(cluster) = a.strip_prefix('-').filter(|c| !c.is_empty()) {
            for (at, c) in cluster.char_indices() {
                if CURL_VALUE_SHORT.contains(c) {
                    let rest = cluster.get(at + c.len_utf8()..).unwrap_or_default();
                    let value = if rest.is_empty() {
                        let v = args.get(i).cloned().unwrap_or_default();
                        i += 1;
                        v
                    } else {
                        rest.to_owned()
                    };
                    match c {
                        'd' | 'F' | 'T' => upload(&value, &mut sends),
                        'x' => via.push(format!("through proxy `{value}`")),
                        'X' if is_write_method(&value) => {
                            upload(&format!("a {} request", value.to_uppercase()), &mut sends)
                        }
                        _ => {}
                    }
                    break;
                }
            }
            continue;
        }
        urls.push(a);
    }
    let url = urls.first().copied().unwrap_or("a URL");
    facts.downloader.get_or_insert_with(|| url.to_owned());
    local_secret_reads(&urls, out);
    for s in &sends {
        if let Some(file) = sent_file(s) {
            if secret_kind(&file).is_some() {
                out.secret_upload(&file);
                out.add(
                    DangerClass::SecretRead,
                    format!(
                        "reads `{file}` ({})",
                        secret_kind(&file).unwrap_or("a secret")
                    ),
                    vec![file.clone()],
                );
            }
        }
    }
    let to = destinations(&urls, &via);
    let detail = if sends.is_empty() {
        format!("sends a request to {to}")
    } else {
        format!(
            "uploads {} to {to}",
            sends
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    out.add(
        DangerClass::NetworkUpload,
        detail,
        urls.iter().map(|u| (*u).to_owned()).collect(),
    );
}

/// The secret files curl reads through `file:` URLs, by their path as curl opens it
/// (percent-decoded: `file:///p/%2eenv` reads `/p/.env`).
fn local_secret_reads(urls: &[&str], out: &mut Classification) {
    for path in urls.iter().flat_map(|u| crate::shell::file_url_paths(u)) {
        if let Some(kind) = secret_kind(&path) {
            out.add(
                DangerClass::SecretRead,
                format!("reads `{path}` ({kind})"),
                vec![path.clone()],
            );
        }
    }
}

/// How a curl long option (lowercase, without `--`) reroutes the request, for options
/// whose value names another host: a proxy or a host override.
fn curl_route(name: &str) -> Option<&'static str> {
    match name {
        "proxy" | "preproxy" | "socks4" | "socks4a" | "socks5" | "socks5-hostname" => {
            Some("through proxy")
        }
        "connect-to" => Some("connecting as"),
        "resolve" => Some("resolving as"),
        _ => None,
    }
}

/// Every URL a command sends to, each in backticks, then how it is routed:
/// `` `http://a/x`, `http://b/y` through proxy `p:8080` ``; `a URL` when none is named.
///
/// ```text
/// destinations(["http://a", "b"], ["through proxy `p`"]) == "`http://a`, `b` through proxy `p`"
/// ```
fn destinations(urls: &[&str], via: &[String]) -> String {
    let mut text = if urls.is_empty() {
        "a URL".to_owned()
    } else {
        urls.iter()
            .map(|u| format!("`{u}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for v in via {
        text.push(' ');
        text.push_str(v);
    }
    text
}

/// The file an upload value reads: `@file`, `<file`, `name=@file`, `name=<file`, or a
/// bare `-T` file.
pub(super) fn sent_file(value: &str) -> Option<String> {
    let v = value.split_once('=').map_or(value, |(_, v)| v);
    if let Some(f) = v.strip_prefix('@').or_else(|| v.strip_prefix('<')) {
        let f = f.split(';').next().unwrap_or(f);
        return Some(f.to_owned());
    }
    (!value.contains(' ')).then(|| value.to_owned())
}

pub(super) fn is_write_method(m: &str) -> bool {
    matches!(
        m.to_uppercase().as_str(),
        "POST" | "PUT" | "PATCH" | "DELETE"
    )
}

pub(super) fn wget_into(args: &[String], out: &mut Classification, facts: &mut LineFacts) {
    let urls = wget_urls(args);
    let url = urls.first().copied().unwrap_or("a URL");
    facts.downloader.get_or_insert_with(|| url.to_owned());
    let mut sends = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let (name, value) = match a.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (a.as_str(), args.get(i + 1).cloned()),
        };
        match name {
            "--post-data" | "--body-data" => sends.push(value.unwrap_or_default()),
            "--post-file" | "--body-file" => {
                let f = value.unwrap_or_default();
                if secret_kind(&f).is_some() {
                    out.secret_upload(&f);
                }
                sends.push(format!("@{f}"));
            }
            "--method" if value.as_deref().is_some_and(is_write_method) => {
                sends.push("a write request".to_owned())
            }
            _ => {}
        }
    }
    let to = destinations(&urls, &[]);
    let detail = if sends.is_empty() {
        format!("sends a request to {to}")
    } else {
        format!("uploads data to {to}")
    };
    out.add(
        DangerClass::NetworkUpload,
        detail,
        urls.iter().map(|u| (*u).to_owned()).collect(),
    );
}

/// wget's operands, past the values of its common options that take one (`-O file`): every
/// other word that is not an option is named, so a URL is never left out.
fn wget_urls(args: &[String]) -> Vec<&str> {
    const VALUE_SHORT: [&str; 8] = ["-O", "-o", "-a", "-P", "-U", "-e", "-i", "-t"];
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        let long_value = a.starts_with("--") && !a.contains('=') && wget_long_takes_value(a);
        if VALUE_SHORT.contains(&a.as_str()) || long_value {
            skip = true;
        } else if !is_option(a) {
            out.push(a.as_str());
        }
    }
    out
}

/// Whether a wget long option written without `=` takes the next word as its value.
fn wget_long_takes_value(option: &str) -> bool {
    matches!(
        option.get(2..).unwrap_or(""),
        "output-document"
            | "output-file"
            | "append-output"
            | "directory-prefix"
            | "user-agent"
            | "header"
            | "post-data"
            | "post-file"
            | "body-data"
            | "body-file"
            | "method"
            | "input-file"
            | "execute"
            | "tries"
    )
}

pub(super) fn httpie_into(name: &str, args: &[String], out: &mut Classification) {
    let (positionals, unsure, via) = httpie_words(args);
    for o in &positionals {
        if let Some(f) = o.split_once('@').map(|(_, f)| f) {
            if secret_kind(f).is_some() {
                out.secret_upload(f);
            }
        }
    }
    // `http [METHOD] URL [ITEM...]`: a first word of letters only with more after it is the
    // method, unless HTTPie reads the next as a request item and the first as the host
    // (`http localhost x=1`): both are named then, except a method spelled as one. Each
    // word that may have been an unknown option's value widens the window by one.
    let method = positionals
        .first()
        .is_some_and(|m| is_write_method(m) || matches!(*m, "GET" | "HEAD" | "OPTIONS"));
    let letters = positionals
        .first()
        .is_some_and(|m| m.chars().all(|c| c.is_ascii_alphabetic()));
    let (skip, window) = match (method, letters) {
        (true, _) => (1, 1),
        (false, true) => (0, 2),
        (false, false) => (0, 1),
    };
    let urls: Vec<&str> = positionals
        .iter()
        .skip(skip)
        .take(window + unsure)
        .copied()
        .collect();
    out.add(
        DangerClass::NetworkUpload,
        format!(
            "sends a request to {} with `{name}`",
            destinations(&urls, &via)
        ),
        urls.iter().map(|u| (*u).to_owned()).collect(),
    );
}

/// HTTPie's and xh's words that are not options or option values, and the routes their
/// options name (`--proxy=http:http://p`, xh's `--resolve`). A long option written without
/// `=` that is not known to be a flag may take the next word: that word is kept as a
/// positional too, and counted as unsure, so no URL goes unnamed.
fn httpie_words(args: &[String]) -> (Vec<&str>, usize, Vec<String>) {
    const SHORT_VALUES: &[char] = &['a', 'A', 'o', 'p', 'P', 's'];
    let mut positionals = Vec::new();
    let mut via = Vec::new();
    let mut words = args.iter().map(String::as_str);
    let mut options_end = false;
    let mut unsure = 0;
    while let Some(w) = words.next() {
        if options_end || w == "-" || !w.starts_with('-') {
            positionals.push(w);
            continue;
        }
        if w == "--" {
            options_end = true;
            continue;
        }
        let (option, attached) = match w.split_once('=') {
            Some((o, v)) if o.starts_with("--") => (o, Some(v)),
            _ => (w, None),
        };
        let long = option.strip_prefix("--");
        let takes_value = match long {
            Some(l) => attached.is_none() && !httpie_flag(l),
            // A short cluster takes the rest as the value of its first value letter.
            None => option
                .chars()
                .skip(1)
                .position(|c| SHORT_VALUES.contains(&c))
                .is_some_and(|i| i + 2 == option.chars().count()),
        };
        let value = attached.or_else(|| takes_value.then(|| words.next()).flatten());
        if let (Some(l), Some(v)) = (long, value) {
            match l {
                "proxy" => via.push(format!("through proxy `{v}`")),
                "resolve" => via.push(format!("resolving as `{v}`")),
                _ if attached.is_none() && !httpie_takes_value(l) => {
                    positionals.push(v);
                    unsure += 1;
                }
                _ => {}
            }
        }
    }
    (positionals, unsure, via)
}

/// HTTPie and xh long options known to take no value.
fn httpie_flag(name: &str) -> bool {
    matches!(
        name,
        "json"
            | "form"
            | "multipart"
            | "raw-json"
            | "ignore-stdin"
            | "offline"
            | "chunked"
            | "compress"
            | "download"
            | "continue"
            | "quiet"
            | "verbose"
            | "all"
            | "body"
            | "headers"
            | "meta"
            | "follow"
            | "check-status"
            | "path-as-is"
            | "sorted"
            | "unsorted"
            | "stream"
            | "debug"
            | "traceback"
            | "help"
            | "version"
            | "https"
            | "http2"
            | "native-tls"
            | "curl"
            | "curl-long"
            | "ignore-netrc"
            | "no-verify"
    )
}

/// HTTPie and xh long options known to take the next word as their value.
fn httpie_takes_value(name: &str) -> bool {
    matches!(
        name,
        "auth"
            | "auth-type"
            | "bearer"
            | "output"
            | "print"
            | "history-print"
            | "style"
            | "pretty"
            | "format-options"
            | "response-charset"
            | "response-mime"
            | "session"
            | "session-read-only"
            | "max-redirects"
            | "timeout"
            | "verify"
            | "ssl"
            | "ciphers"
            | "cert"
            | "cert-key"
            | "cert-key-pass"
            | "default-scheme"
            | "boundary"
            | "raw"
            | "interface"
            | "http-version"
            | "proxy"
            | "resolve"
    )
}
