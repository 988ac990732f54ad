//! Attacks on the two identities an agent picks for itself: which MCP server a tool call
//! comes from, and which host and path a URL fetches. Each table holds calls a prompt
//! injection could make, with the effect the policy must give them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use serde_json::json;
use toolgate::{Effect, ErrorKind, Mode, Policy, Request, Risk};

use Effect::{Allow, Ask, Deny};

fn policy(json: &str) -> Policy {
    Policy::from_json(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// A request built field by field, as a host that skipped `Request::from_json` would.
fn mcp(tool: &str, server: Option<&str>, annotations: serde_json::Value) -> Request {
    let mut doc = json!({ "tool": tool, "input": {} });
    if let Some(s) = server {
        doc["server"] = json!(s);
    }
    if !annotations.is_null() {
        doc["annotations"] = annotations;
    }
    toolgate::json::from_value(doc, "request").unwrap()
}

fn fetch(tool: &str, url: &str) -> Request {
    Request {
        tool: tool.into(),
        input: json!({ "url": url }),
        ..Request::default()
    }
}

fn check(p: &Policy, cases: &[(Request, Effect)]) {
    let mut failures = Vec::new();
    for (req, want) in cases {
        let d = p.evaluate(req);
        if d.effect != *want {
            failures.push(format!(
                "{} {} {:?}: expected {want:?}, got {:?} ({})",
                req.tool, req.input, req.server, d.effect, d.reason.text
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const MCP_POLICY: &str = r#"{
  "permissions": {
    "allow": ["mcp__github__get_*", "github(list_issues)", "mcp__notion"],
    "deny": ["mcp__github__delete_*", "mcp__evil", "slack", "mcp__a__b__*"]
  },
  "mcpServers": { "docs": { "trusted": true }, "web": { "trusted": false } }
}"#;

#[test]
fn mcp_identity_comes_from_the_server_field() {
    let p = policy(MCP_POLICY);
    let none = serde_json::Value::Null;
    let c = |tool: &str, server: Option<&str>, want| (mcp(tool, server, none.clone()), want);
    check(
        &p,
        &[
            // A server posing as github by its tool name: never github's allow rules.
            c("mcp__github__get_issue", Some("evil"), Deny),
            c("mcp__github__get_issue", Some("other"), Ask),
            c("mcp__github__get_issue", Some(""), Ask),
            c("mcp__notion__x", Some("github"), Ask),
            // A name that reads as a denied server in any reading is denied.
            c("mcp__slack__post", Some("evilslack"), Deny),
            // Servers whose names make `mcp__a__b__c` ambiguous.
            c("get_issue", Some("github__x"), Ask),
            c("c", Some("a__b"), Deny),
            c("get_issue", Some("github_"), Ask),
            c("mcp__a__b__c", None, Deny),
            // The server field, when it agrees, is the identity.
            c("delete_repo", Some("github"), Deny),
            c("mcp__github__delete_repo", Some("github"), Deny),
            c("mcp__github__get_issue", Some("github"), Allow),
            c("get_issue", Some("github"), Allow),
            c("list_issues", Some("github"), Allow),
            c("x", Some("notion"), Allow),
            c("mcp__github2__get_issue", None, Ask),
            // Deny rules see the call in any case; allow rules only as written.
            c("mcp__GitHub__Delete_Repo", None, Deny),
            c("Delete_Repo", Some("GITHUB"), Deny),
            c("mcp__Evil__x", None, Deny),
            c("mcp__GitHub__get_issue", None, Ask),
        ],
    );
    // A doubtful identity asks even in bypass mode, like anything unanalysable.
    let mut r = mcp("mcp__github__get_issue", Some("other"), none);
    r.mode = Some(Mode::BypassPermissions);
    assert_eq!(p.evaluate(&r).effect, Ask);
}

#[test]
fn mcp_identity_errors_at_decode_and_load() {
    for text in [
        r#"{"tool":"mcp__github__get_issue","server":"evil"}"#,
        r#"{"tool":"c","server":"a__b"}"#,
        r#"{"tool":"x","server":"a_"}"#,
        r#"{"tool":"x","server":""}"#,
        r#"{"tool":"x","server":"a b"}"#,
    ] {
        let e = Request::from_json(text).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidRequest, "{text}");
        assert!(e.hint().is_some(), "{text}");
    }
    for (doc, kind, path) in [
        (
            r#"{"permissions":{"allow":["mcp__a_"]}}"#,
            ErrorKind::InvalidRule,
            "permissions.allow[0]",
        ),
        (
            r#"{"permissions":{"allow":["a__b(c)"]}}"#,
            ErrorKind::InvalidRule,
            "permissions.allow[0]",
        ),
        (
            r#"{"mcpServers":{"a__b":{"trusted":true}}}"#,
            ErrorKind::InvalidPolicy,
            "mcpServers.a__b",
        ),
    ] {
        let e = Policy::from_json(doc).unwrap_err();
        assert_eq!((e.kind(), e.path()), (kind, path), "{doc}: {e}");
    }
    // The rule forms people write keep working.
    for rule in [
        "mcp__github",
        "mcp__github__get_*",
        "github(create_issue)",
        "mcp__a__b__c",
    ] {
        toolgate::policy::check_rule(rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
    }
}

#[test]
fn mcp_annotations_count_only_from_trusted_servers() {
    let p = policy(
        r#"{"mcpServers":{"docs":{"trusted":true},"web":{"trusted":false}},
            "tools":{"fetch_page":{"kind":"other","level":"allow","risk":"low","trustable":true}}}"#,
    );
    let safe = json!({"readOnlyHint": true, "destructiveHint": false});
    let c = |tool: &str, server: Option<&str>, a: &serde_json::Value, want| {
        (mcp(tool, server, a.clone()), want)
    };
    check(
        &p,
        &[
            c("mcp__docs__lookup", None, &safe, Allow),
            c("lookup", Some("docs"), &safe, Allow),
            c("mcp__web__search", None, &safe, Ask),
            c("search", Some("web"), &safe, Ask),
            c("mcp__other__search", None, &safe, Ask),
            // Borrowing the trusted server's name in the tool name borrows nothing.
            c("mcp__docs__lookup", Some("web"), &safe, Ask),
            c("lookup", Some("docs__x"), &safe, Ask),
            // Worst-case defaults for missing hints, even on a trusted server.
            c(
                "mcp__docs__lookup",
                None,
                &json!({"readOnlyHint": true}),
                Ask,
            ),
            c(
                "mcp__docs__drop",
                None,
                &json!({"destructiveHint": true}),
                Ask,
            ),
            c("mcp__docs__x", None, &serde_json::Value::Null, Ask),
            // A server's tool never takes the defaults configured for a host tool.
            c("fetch_page", Some("web"), &safe, Ask),
            c("Read", Some("web"), &safe, Ask),
        ],
    );
    // Untrusted hints do not even lower the risk shown to people.
    let d = p.evaluate(&mcp("mcp__web__search", None, safe.clone()));
    assert_eq!((d.effect, d.risk), (Ask, Risk::High));
    let d = p.evaluate(&mcp("mcp__docs__lookup", None, safe.clone()));
    assert_eq!((d.effect, d.risk), (Allow, Risk::Low));
    // A mode that never asks denies what an untrusted server calls read-only.
    let mut r = mcp("mcp__web__search", None, safe);
    r.mode = Some(Mode::DontAsk);
    assert_eq!(p.evaluate(&r).effect, Deny);
}

const URL_POLICY: &str = r#"{
  "permissions": {
    "allow": ["WebFetch(domain:docs.rs)"],
    "deny": ["WebFetch(domain:evil.com)"]
  },
  "copilot": {
    "allowUrls": ["api.example.com", "https://secure.example.com", "ftp://files.example.com"],
    "denyUrls": ["https://blocked.example.com"]
  }
}"#;

#[test]
fn url_schemes_other_than_http_need_a_rule_that_names_them() {
    let p = policy(URL_POLICY);
    let w = |u: &str, want| (fetch("WebFetch", u), want);
    let c = |u: &str, want| (fetch("web_fetch", u), want);
    check(
        &p,
        &[
            w("file:///etc/passwd", Ask),
            w("ftp://docs.rs/x", Ask),
            w("gopher://docs.rs:70/_x", Ask),
            w("data:text/plain,docs.rs", Ask),
            w("javascript:alert(1)//docs.rs", Ask),
            w("ws://docs.rs/socket", Ask),
            w("view-source:https://docs.rs/", Ask),
            w("https:docs.rs/x", Ask),
            w("HTTPS://DOCS.RS/x", Allow),
            w("http://docs.rs/x", Allow),
            c("ftp://api.example.com/", Ask),
            c("http://secure.example.com/", Ask),
            c("ftp://files.example.com/pub", Allow),
            c("https://api.example.com/v1", Allow),
            // Deny rules hold under every scheme; `https` and `http` stand for each other.
            w("ftp://evil.com/x", Deny),
            w("gopher://evil.com/", Deny),
            c("http://blocked.example.com/", Deny),
            c("wss://evil.com/", Deny),
        ],
    );
}

#[test]
fn url_userinfo_and_backslashes_never_pass_an_allow() {
    let p = policy(URL_POLICY);
    let w = |u: &str, want| (fetch("WebFetch", u), want);
    check(
        &p,
        &[
            w(r"https://docs.rs\@evil.com/", Deny),
            w("https://docs.rs@evil.com/", Deny),
            w("https://docs.rs:pass@evil.com/", Deny),
            w(r"https://evil.com\@docs.rs/", Deny),
            w("https://docs.rs%40evil.com/", Deny),
            w("https://docs.rs\t@evil.com/", Deny),
            w("https://user@docs.rs/", Ask),
            w("https://user:pass@docs.rs/", Ask),
            w("https://@docs.rs/", Ask),
            w("https://a@b@docs.rs/", Ask),
            w(r"https://docs.rs\evil.com/", Ask),
            w(r"https://docs.rs/..\..\admin", Ask),
            w("https://%64ocs.rs/", Ask),
            // `@` after the host is in the path, query or fragment: both parsers agree.
            w("https://docs.rs/#@evil.com", Allow),
            w("https://docs.rs/?u=x@evil.com", Allow),
            w("https://docs.rs/user@x", Allow),
        ],
    );
}

#[test]
fn ip_literals_in_every_spelling_meet_deny_urls() {
    let p = policy(
        r#"{"copilot":{"allowAllUrls":true,
             "denyUrls":["169.254.169.254","127.0.0.1","[fd00::1]"]}}"#,
    );
    let c = |u: &str, want| (fetch("web_fetch", u), want);
    check(
        &p,
        &[
            c("http://169.254.169.254/latest/meta-data", Deny),
            c("http://[::ffff:169.254.169.254]/", Deny),
            c("http://[::ffff:a9fe:a9fe]/", Deny),
            c("http://[0:0:0:0:0:ffff:a9fe:a9fe]/", Deny),
            c("http://[::169.254.169.254]/", Deny),
            c("http://[64:ff9b::a9fe:a9fe]/", Deny),
            c("http://2852039166/", Deny),
            c("http://0251.0376.0251.0376/", Deny),
            c("http://0xa9fea9fe/", Deny),
            c("http://0xA9.0xFE.0xA9.0xFE/", Deny),
            c("http://169.254.43518/", Deny),
            c("http://169.16689662/", Deny),
            c("http://169.254.169.254./", Deny),
            c("http://%31%36%39.254.169.254/", Deny),
            c("http://169.254.169.254:8080/", Deny),
            c("gopher://2852039166/", Deny),
            c("http://127.1/", Deny),
            c("http://0x7f000001/", Deny),
            c("http://[::ffff:7f00:1]/", Deny),
            c("http://[FD00:0::1]/", Deny),
            c("169.254.169.254/latest", Deny),
            // Other addresses stay allowed by `allowAllUrls`.
            c("http://169.254.169.253/", Allow),
            // Loopback in any spelling reaches 127.0.0.1.
            c("http://[::1]/", Deny),
            c("http://0.0.0.0/", Deny),
            c("http://foo.localhost/", Deny),
            c("http://[fd00::2]/", Allow),
            c("https://docs.rs/", Allow),
        ],
    );
    // A rule may spell the address any way too.
    let p = policy(r#"{"copilot":{"allowAllUrls":true,"denyUrls":["0xa9fea9fe"]}}"#);
    check(&p, &[c("http://169.254.169.254/", Deny)]);
    let p = policy(r#"{"permissions":{"deny":["WebFetch(domain:[::ffff:a9fe:a9fe])"]}}"#);
    check(
        &p,
        &[(fetch("WebFetch", "http://0251.0376.0251.0376/"), Deny)],
    );
}

#[test]
fn url_path_encodings_meet_deny_urls() {
    let p = policy(
        r#"{"copilot":{"allowAllUrls":true,
             "denyUrls":["example.com/admin","example.com/latest/meta-data"]}}"#,
    );
    let c = |u: &str, want| (fetch("web_fetch", u), want);
    check(
        &p,
        &[
            c("https://example.com/admin", Deny),
            c("https://example.com/admin/users", Deny),
            c("https://example.com//admin", Deny),
            c("https://example.com/admin;jsessionid=1", Deny),
            c("https://example.com/admin;x/users", Deny),
            c("https://example.com/%61dmin", Deny),
            c("https://example.com/ADMIN", Deny),
            c("https://example.com/public/../admin", Deny),
            c("https://example.com/public/..%2fadmin", Deny),
            c("https://example.com/public/%2e%2e/admin", Deny),
            c("https://example.com/x/.%2E/admin", Deny),
            c("https://example.com/admin%2fusers", Deny),
            c("https://example.com/public%252f..%252fadmin", Deny),
            c(r"https://example.com/public\..\admin", Deny),
            c("https://example.com/latest//meta-data", Deny),
            c("https://example.com/latest/./meta-data/", Deny),
            // What no reading denies: allowed, or asked when the path is in doubt.
            c("https://example.com/administrator", Allow),
            c("https://example.com/public/x", Allow),
            c("https://example.com/public%2fx", Ask),
            c("https://example.com/a%00b", Ask),
        ],
    );
    // An allow needs every reading inside its path.
    let p = policy(r#"{"copilot":{"allowUrls":["docs.example.org/api"]}}"#);
    check(
        &p,
        &[
            c("https://docs.example.org/api/v1", Allow),
            c("https://docs.example.org/%61pi/v1", Allow),
            c("https://docs.example.org/api/../private", Ask),
            c("https://docs.example.org/api/..%2fprivate", Ask),
            c("https://docs.example.org/api/%2e%2e/private", Ask),
            c("https://docs.example.org//api/x", Ask),
            c("https://docs.example.org/api;x/../../private", Ask),
            c("https://docs.example.org/API/v1", Ask),
            c("https://docs.example.org/apix", Ask),
        ],
    );
}

#[test]
fn ordinary_fetches_stay_allowed() {
    let p = policy(URL_POLICY);
    let w = |u: &str| (fetch("WebFetch", u), Allow);
    check(
        &p,
        &[
            w("https://docs.rs/serde/latest/serde/"),
            w("https://docs.rs/x?y=1#z"),
            w("https://docs.rs/search?q=a%2Fb&c=%40"),
            w("https://DOCS.RS./x"),
            w("https://docs.rs:443/x"),
            w("https://docs.rs/a%20b"),
            w("https://docs.rs"),
        ],
    );
}

#[test]
fn the_broker_refuses_an_uncertain_mcp_identity() {
    let mut b = toolgate::Broker::new(Box::new(policy(MCP_POLICY)));
    let call: toolgate::broker::ApprovalRequest = toolgate::json::from_value(
        json!({ "sessionId": "s", "request": {
            "tool": "mcp__github__get_issue", "server": "evil", "input": {} } }),
        "approval request",
    )
    .unwrap();
    let Err(e) = b.request_approval(call, 0) else {
        panic!("a tool name that disagrees with its server was admitted");
    };
    assert_eq!(
        (e.kind(), e.path()),
        (ErrorKind::InvalidRequest, "request.tool")
    );
}
