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
    let ops = operands(args);
    let url = ops
        .iter()
        .copied()
        .find(|o| o.contains('.') || o.contains("://") || o.starts_with(':'))
        .unwrap_or("a URL");
    for o in &ops {
        if let Some(f) = o.split_once('@').map(|(_, f)| f) {
            if secret_kind(f).is_some() {
                out.secret_upload(f);
            }
        }
    }
    out.add(
        DangerClass::NetworkUpload,
        format!("sends a request to `{url}` with `{name}`"),
        vec![url.to_owned()],
    );
}
