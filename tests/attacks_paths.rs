//! Attacks on how file tools' paths are judged: every path key, the widest reading of deny,
//! ask and protected paths, searches judged by what they open, tool kinds decided once, and
//! persistence locations that remembered grants never reach.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use toolgate::broker::ApprovalRequest;
use toolgate::{Broker, Effect, ErrorKind, Policy, Request};
use toolgate::{Evaluate, TrustOverlay};

const CWD: &str = "/home/ada/proj";

fn policy(permissions: Value) -> Policy {
    Policy::from_json(&json!({ "home": "/home/ada", "permissions": permissions }).to_string())
        .unwrap()
}

fn call(tool: &str, input: Value) -> Request {
    Request {
        tool: tool.into(),
        input,
        cwd: Some(CWD.into()),
        ..Request::default()
    }
}

fn effect(p: &Policy, tool: &str, input: Value) -> Effect {
    p.evaluate(&call(tool, input)).effect
}

fn assert_effects(p: &Policy, cases: &[(&str, Value, Effect)]) {
    for (tool, input, want) in cases {
        let d = p.evaluate(&call(tool, input.clone()));
        assert_eq!(d.effect, *want, "{tool} {input}: {}", d.reason.text);
    }
}

// --- Class 1: every path key is judged --------------------------------------------------

#[test]
fn every_path_key_of_a_call_is_judged() {
    let p = policy(json!({
        "allow": ["Read(./src/**)", "Edit(./src/**)", "Write(./src/**)"],
        "deny": ["Read(//etc/**)", "Edit(//etc/**)", "Read(./.env)"]
    }));
    use Effect::*;
    assert_effects(
        &p,
        &[
            // The harmless key first, the dangerous one second.
            (
                "Read",
                json!({"file_path": "src/a.rs", "path": "/etc/shadow"}),
                Deny,
            ),
            (
                "Read",
                json!({"path": "src/a.rs", "file_path": "/etc/shadow"}),
                Deny,
            ),
            (
                "Read",
                json!({"file_path": "src/a.rs", "notebook_path": "/etc/x.ipynb"}),
                Deny,
            ),
            ("view", json!({"path": "/etc/passwd"}), Deny),
            (
                "str_replace",
                json!({"path": "/etc/hosts", "old_str": "a", "new_str": "b"}),
                Deny,
            ),
            (
                "create",
                json!({"path": "/etc/cron.d/x", "file_text": "x"}),
                Deny,
            ),
            (
                "Edit",
                json!({"file_path": "src/a.rs", "path": "/etc/passwd"}),
                Deny,
            ),
            (
                "NotebookEdit",
                json!({"notebook_path": "/etc/nb.ipynb"}),
                Deny,
            ),
            (
                "MultiEdit",
                json!({"file_path": "src/a.rs", "edits": [{"file_path": "/etc/x"}]}),
                Deny,
            ),
            (
                "Read",
                json!({"file_path": "src/a.rs", "paths": ["src/b.rs", ".env"]}),
                Deny,
            ),
            // Allows need every path to be allowed.
            (
                "Read",
                json!({"file_path": "src/a.rs", "path": "docs/b.md"}),
                Allow,
            ),
            (
                "Edit",
                json!({"file_path": "src/a.rs", "path": "docs/b.md"}),
                Ask,
            ),
            (
                "Write",
                json!({"file_path": "src/a.rs", "path": "src/b.rs", "content": ""}),
                Allow,
            ),
        ],
    );
}

#[test]
fn non_string_paths_and_unknown_keys_are_never_allowed() {
    let p = policy(json!({"allow": ["Read", "Edit", "Write", "Read(./**)", "Edit(./**)"]}));
    for input in [
        json!({"file_path": "a", "path": 3}),
        json!({"file_path": "a", "path": ["/etc/shadow"]}),
        json!({"file_path": "a", "path": {"p": "/etc/shadow"}}),
        json!({"file_path": "a", "path": null}),
        json!({"file_path": 7}),
        json!({"file_path": "a", "paths": "/etc/shadow"}),
        json!({"file_path": "a", "paths": [1]}),
        json!({"file_path": "a", "edits": [{"file_path": 1}]}),
        json!({"file_path": "a", "target_file": "/etc/shadow"}),
        json!({"file_path": "a", "filePath": "/etc/shadow"}),
        json!({"file_path": "a", "dir": "/etc"}),
    ] {
        for tool in ["Read", "Edit", "str_replace"] {
            let d = p.evaluate(&call(tool, input.clone()));
            assert_ne!(d.effect, Effect::Allow, "{tool} {input}: {}", d.reason.text);
            assert!(
                d.reason.text.contains("cannot be analysed"),
                "{}",
                d.reason.text
            );
        }
    }
    let d = p.evaluate(&call("Read", json!({"file_path": "a", "filePath": "/x"})));
    assert!(
        d.reason
            .text
            .contains("`input.filePath` is not a parameter of `Read`"),
        "{}",
        d.reason.text
    );
}

#[test]
fn the_registry_validates_every_spelling_by_its_own_schema() {
    let reg = toolgate::Registry::with_builtin_tools();
    for (tool, input) in [
        ("view", json!({"path": "/a", "view_range": [1, 2]})),
        ("create", json!({"path": "/a", "file_text": "x"})),
        (
            "str_replace",
            json!({"path": "/a", "old_str": "x", "new_str": "y"}),
        ),
        (
            "insert",
            json!({"path": "/a", "insert_line": 1, "new_str": "y"}),
        ),
        (
            "MultiEdit",
            json!({"file_path": "/a", "edits": [{"old_string": "a", "new_string": "b"}]}),
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "/a.ipynb", "new_source": "x"}),
        ),
        ("LS", json!({"path": "/a"})),
        ("TodoWrite", json!({"todos": []})),
    ] {
        reg.validate(tool, &input)
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
    }
    for (tool, input) in [
        ("view", json!({"path": 3})),
        ("view", json!({"path": "/a", "file_path": "/b"})),
        (
            "create",
            json!({"path": "/a", "file_text": "x", "mode": "0755"}),
        ),
        (
            "str_replace",
            json!({"file_path": "/a", "old_str": "x", "new_str": "y"}),
        ),
        ("Read", json!({"file_path": "/a", "path": "/etc/shadow"})),
        (
            "Edit",
            json!({"file_path": "/a", "old_string": "x", "new_string": "y", "path": "/b"}),
        ),
        (
            "MultiEdit",
            json!({"file_path": "/a", "edits": [{"file_path": "/b"}]}),
        ),
        ("Grep", json!({"pattern": "x", "paths": ["/etc"]})),
        ("Glob", json!({"pattern": "*", "path": 1})),
        ("LS", json!({"path": "/a", "recursive": true})),
    ] {
        let e = reg.validate(tool, &input).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidParams, "{tool} {input}");
    }
}

#[test]
fn claude_codes_own_harmless_tools_run_without_asking() {
    let p = policy(json!({}));
    use Effect::*;
    assert_effects(
        &p,
        &[
            ("TodoWrite", json!({"todos": []}), Allow),
            ("Task", json!({"description": "x", "prompt": "y"}), Allow),
            ("BashOutput", json!({"bash_id": "1"}), Allow),
            ("KillShell", json!({"shell_id": "1"}), Ask),
            ("ExitPlanMode", json!({"plan": "x"}), Ask),
            ("WebSearch", json!({"query": "x"}), Ask),
            ("LS", json!({"path": "/home/ada/proj/src"}), Allow),
            ("Glob", json!({"pattern": "**/*.rs"}), Allow),
            ("Grep", json!({"pattern": "fn", "path": "src"}), Allow),
            ("LS", json!({"path": "/etc"}), Ask),
        ],
    );
    // An MCP tool borrowing the name is not Claude Code's own tool.
    let mut r = call("TodoWrite", json!({}));
    r.server = Some("evil".into());
    assert_eq!(p.evaluate(&r).effect, Ask);
    let deny = policy(json!({"deny": ["TodoWrite"]}));
    assert_eq!(effect(&deny, "TodoWrite", json!({})), Deny);
    assert_eq!(effect(&deny, "Task", json!({})), Allow);
}

// --- Class 2: case and platform spellings ---------------------------------------------

#[test]
fn deny_rules_take_case_and_windows_spellings() {
    let p = policy(
        json!({"deny": ["Read(./.env)", "Edit(./.claude/settings.json)", "Read(~/.ssh/**)"]}),
    );
    for path in [
        ".ENV",
        ".Env",
        ".env.",
        ".env  ",
        ".env. .",
        ".env::$DATA",
        ".env:secret",
        "./sub/..\\.env",
        "/HOME/ADA/PROJ/.env",
        "~/.SSH/id_rsa",
        "~/.ssh./id_rsa",
        "~/.ssh\\id_rsa",
        "~/SSH~1/id_rsa",
        "ENV~1",
    ] {
        assert_eq!(
            effect(&p, "Read", json!({"file_path": path})),
            Effect::Deny,
            "{path}"
        );
    }
    for path in [
        ".claude/SETTINGS.JSON",
        ".Claude/settings.json",
        ".claude\\settings.json",
        ".claude/settings.json.",
        ".claude/settings.json::$DATA",
        ".claude/SETTIN~1.JSO",
        "CLAUDE~1/SETTIN~1.JSO",
    ] {
        let d = p.evaluate(&call("Edit", json!({"file_path": path})));
        assert_eq!(d.effect, Effect::Deny, "{path}: {}", d.reason.text);
    }
    // Not every short name is everything.
    assert_eq!(
        effect(&p, "Read", json!({"file_path": "SRC~1/main.rs"})),
        Effect::Allow
    );
}

#[test]
fn windows_drive_and_network_paths_are_never_allowed() {
    let p = policy(json!({"allow": ["Read(./**)", "Edit(./**)"]}));
    for path in [
        "C:\\Windows\\System32\\config\\SAM",
        "c:/Users/ada/.ssh/id_rsa",
        "C:.env",
        "\\\\server\\share\\secrets",
        "\\Windows\\win.ini",
    ] {
        for tool in ["Read", "Edit"] {
            let d = p.evaluate(&call(tool, json!({"file_path": path})));
            assert_eq!(d.effect, Effect::Ask, "{tool} {path}: {}", d.reason.text);
            assert!(d.reason.text.contains("Windows drive"), "{}", d.reason.text);
        }
    }
}

#[test]
fn protected_paths_take_case_and_windows_spellings() {
    let p = policy(json!({"allow": ["Edit", "Write", "Edit(./**)"]}));
    for path in [
        ".GIT/hooks/pre-commit",
        ".Git/config",
        ".git./hooks/x",
        ".git /hooks/x",
        ".git\\hooks\\pre-commit",
        ".git::$INDEX_ALLOCATION/hooks/x",
        "GIT~1/hooks/x",
        ".Claude/settings.json",
        ".VSCODE/tasks.json",
        "~/.BASHRC",
        "~/.bashrc.",
        "~/.zshrc::$DATA",
        ".ENVRC",
        "~/.NPMRC",
    ] {
        let d = p.evaluate(&call("Edit", json!({"file_path": path})));
        assert_eq!(d.effect, Effect::Ask, "{path}: {}", d.reason.text);
        assert!(
            d.reason.text.contains("protected"),
            "{path}: {}",
            d.reason.text
        );
    }
}

#[test]
fn a_path_with_white_space_at_an_end_is_judged_trimmed_too() {
    // A host may trim a tool's path before it opens it (Claude Code does).
    let p = policy(json!({
        "allow": ["Write(./**)", "Edit(./**)", "Read(./**)"],
        "deny": ["Read(//etc/shadow)", "Read(./secrets/**)"]
    }));
    use Effect::*;
    assert_effects(
        &p,
        &[
            ("Read", json!({"file_path": " /etc/shadow"}), Deny),
            ("Read", json!({"file_path": "/etc/shadow\n"}), Deny),
            ("Read", json!({"file_path": "\u{3000}secrets/k.txt"}), Deny),
            ("Read", json!({"file_path": "\u{feff}secrets/k.txt"}), Deny),
            ("Read", json!({"file_path": " .env"}), Ask),
            ("Write", json!({"file_path": " .claude/settings.json"}), Ask),
            (
                "Write",
                json!({"file_path": "\t.git/hooks/pre-commit"}),
                Ask,
            ),
            ("Edit", json!({"file_path": " ~/.bashrc"}), Ask),
            // Both readings inside and allowed: the allow holds.
            ("Write", json!({"file_path": " notes.txt"}), Allow),
            ("Write", json!({"file_path": "my notes.txt"}), Allow),
        ],
    );
    // Trimmed to nothing: no file to judge.
    assert_eq!(effect(&p, "Write", json!({"file_path": "  "})), Ask);
}

#[test]
fn allows_never_fold_windows_spellings_and_follow_case_sensitive() {
    let p = policy(json!({"allow": ["Edit(./.env)", "Edit(./src/**)", "Read(./**)"]}));
    // The same rule as an allow: Windows spellings never match it.
    assert_eq!(
        effect(&p, "Edit", json!({"file_path": ".env"})),
        Effect::Allow
    );
    for path in [".env.", ".env::$DATA", ".env ", "ENV~1", ".env\\x"] {
        let d = p.evaluate(&call("Edit", json!({"file_path": path})));
        assert_ne!(d.effect, Effect::Allow, "{path}: {}", d.reason.text);
    }
    // caseSensitive false (the default): allows compare case-insensitively.
    assert_eq!(
        effect(&p, "Edit", json!({"file_path": "SRC/a.rs"})),
        Effect::Allow
    );
    let exact = Policy::from_json(
        &json!({"caseSensitive": true, "permissions": {"allow": ["Edit(./src/**)"],
            "deny": ["Read(./.env)"]}})
        .to_string(),
    )
    .unwrap();
    assert_eq!(
        effect(&exact, "Edit", json!({"file_path": "SRC/a.rs"})),
        Effect::Ask
    );
    assert_eq!(
        effect(&exact, "Edit", json!({"file_path": "src/a.rs"})),
        Effect::Allow
    );
    // ... while deny rules stay case-insensitive.
    assert_eq!(
        effect(&exact, "Read", json!({"file_path": ".ENV"})),
        Effect::Deny
    );
    // A Windows traversal that leaves the project is outside it.
    assert_eq!(
        effect(&p, "Read", json!({"file_path": "..\\..\\..\\etc\\passwd"})),
        Effect::Ask
    );
}

// --- Class 3: searches are reads of what they open -------------------------------------

#[test]
fn searches_ask_when_a_read_rule_could_match_what_they_open() {
    let p = policy(
        json!({"deny": ["Read(./.env)", "Read(./secrets/**)", "Read(~/.aws/**)"],
        "ask": ["Read(*.pem)"]}),
    );
    use Effect::*;
    assert_effects(
        &p,
        &[
            ("Grep", json!({"pattern": "KEY"}), Ask),
            ("Grep", json!({"pattern": "KEY", "path": "."}), Ask),
            ("Grep", json!({"pattern": "KEY", "glob": ".env"}), Ask),
            ("Grep", json!({"pattern": "KEY", "glob": "*.env"}), Ask),
            ("Grep", json!({"pattern": "KEY", "glob": ".ENV"}), Ask),
            ("Grep", json!({"pattern": "KEY", "path": "secrets"}), Deny),
            ("Grep", json!({"pattern": "KEY", "path": "/home/ada"}), Ask),
            ("Grep", json!({"pattern": "KEY", "path": "~/.aws"}), Deny),
            ("Grep", json!({"pattern": "KEY", "path": "/"}), Ask),
            (
                "Grep",
                json!({"pattern": "KEY", "path": "src", "glob": "*.pem"}),
                Ask,
            ),
            ("Grep", json!({"pattern": "KEY", "type": "rust"}), Ask),
            ("Glob", json!({"pattern": "**/.env"}), Ask),
            ("Glob", json!({"pattern": ".env"}), Ask),
            ("Glob", json!({"pattern": "secrets/*"}), Deny),
            ("Glob", json!({"pattern": "**/id.pem"}), Ask),
            ("Glob", json!({"pattern": "**/.ENV"}), Ask),
            (
                "Glob",
                json!({"pattern": ".aws/credentials", "path": "~"}),
                Deny,
            ),
            ("Glob", json!({"pattern": "**/{.env,x}"}), Ask),
            ("Glob", json!({"pattern": "../proj/**/.env"}), Ask),
            ("Glob", json!({"pattern": "/home/ada/proj/*"}), Ask),
            ("Glob", json!({"pattern": "**/{a,{.env,b}}"}), Ask),
            ("Grep", json!({"pattern": "K", "glob": "{*.rs,.env}"}), Ask),
            // Grep splits its glob at whitespace and commas: each piece is a glob.
            (
                "Grep",
                json!({"pattern": "K", "path": "src", "glob": "key.pem,*.rs"}),
                Ask,
            ),
            (
                "Grep",
                json!({"pattern": "K", "path": "src", "glob": "key.pem *.rs"}),
                Ask,
            ),
            (
                "Grep",
                json!({"pattern": "K", "path": "src", "glob": "*.rs ../../**"}),
                Ask,
            ),
            (
                "Grep",
                json!({"pattern": "K", "path": "src", "glob": "*.{rs,toml}"}),
                Allow,
            ),
            ("Glob", json!({"pattern": "src/**/*.{ts,tsx}"}), Allow),
            // Listings show names and open nothing: a wildcard name asks nothing.
            ("Glob", json!({"pattern": "**/*.pem"}), Allow),
            ("Glob", json!({"pattern": "**/*"}), Allow),
            ("LS", json!({"path": "/home/ada/proj"}), Allow),
            // Searches that cannot reach a covered file keep running.
            // `Read(*.pem)` could match a file anywhere: a search of every file asks.
            ("Grep", json!({"pattern": "fn", "path": "src"}), Ask),
            (
                "Grep",
                json!({"pattern": "fn", "path": "src", "glob": "*.rs"}),
                Allow,
            ),
            ("Glob", json!({"pattern": "src/**/*.rs"}), Allow),
        ],
    );
    let d = p.evaluate(&call("Grep", json!({"pattern": "KEY"})));
    assert!(d.reason.text.contains("Read(./.env)"), "{}", d.reason.text);
}

// --- Class 4: deny and ask patterns match at any depth ---------------------------------

#[test]
fn relative_deny_and_ask_patterns_match_at_any_depth() {
    let p = policy(json!({
        "deny": ["Edit(src/**)", "Read(config/secrets.json)"],
        "ask": ["Write(generated/*.rs)"],
        "allow": ["Edit(lib/**)", "Edit(./**)", "Write(./**)", "Read(./**)"]
    }));
    use Effect::*;
    assert_effects(
        &p,
        &[
            ("Edit", json!({"file_path": "src/a.rs"}), Deny),
            ("Edit", json!({"file_path": "crates/x/src/a.rs"}), Deny),
            ("Edit", json!({"file_path": "a/b/c/src/d/e.rs"}), Deny),
            ("Edit", json!({"file_path": "SRC/a.rs"}), Deny),
            ("Edit", json!({"file_path": "crates/x/Src/a.rs"}), Deny),
            ("Read", json!({"file_path": "config/secrets.json"}), Deny),
            (
                "Read",
                json!({"file_path": "app/config/secrets.json"}),
                Deny,
            ),
            (
                "Read",
                json!({"file_path": "app/CONFIG/Secrets.JSON"}),
                Deny,
            ),
            (
                "Write",
                json!({"file_path": "pkg/generated/x.rs", "content": ""}),
                Ask,
            ),
            (
                "Write",
                json!({"file_path": "generated/x.rs", "content": ""}),
                Ask,
            ),
            ("Edit", json!({"file_path": "crates/x/lib/a.rs"}), Allow),
            ("Edit", json!({"file_path": "source/a.rs"}), Allow),
        ],
    );
    // Anchored patterns stay anchored.
    let anchored = policy(json!({"deny": ["Edit(./src/**)"], "allow": ["Edit(./**)"]}));
    assert_eq!(
        effect(&anchored, "Edit", json!({"file_path": "x/src/a.rs"})),
        Allow
    );
    assert_eq!(
        effect(&anchored, "Edit", json!({"file_path": "src/a.rs"})),
        Deny
    );
}

// --- Class 5: tool kinds decided once -----------------------------------------------------

#[test]
fn a_policy_cannot_give_a_builtin_tool_another_kind() {
    for (name, kind) in [
        ("Bash", "read"),
        ("bash", "other"),
        ("shell", "glob"),
        ("Write", "read"),
        ("Edit", "read"),
        ("Delete", "edit"),
        ("Read", "other"),
        ("WebFetch", "other"),
        ("view", "other"),
        ("str_replace", "read"),
        ("create", "other"),
    ] {
        let doc = json!({"tools": {name: {"kind": kind, "level": "allow", "risk": "low",
            "trustable": true}}});
        let e = Policy::from_json(&doc.to_string()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidPolicy, "{name}");
        assert_eq!(e.path(), format!("tools.{name}.kind"));
        assert!(
            e.message().contains("cannot be given kind"),
            "{}",
            e.message()
        );
    }
    // The same kind with other defaults is fine, and deny rules still apply.
    let p = Policy::from_json(
        &json!({"permissions": {"deny": ["Bash(rm *)"]}, "tools": {"Bash": {"kind": "shell",
            "level": "prompt", "risk": "high", "trustable": false}}})
        .to_string(),
    )
    .unwrap();
    assert_eq!(
        effect(&p, "Bash", json!({"command": "rm -rf /"})),
        Effect::Deny
    );
}

#[test]
fn the_card_describes_the_kind_the_policy_judges() {
    let p = Policy::from_json(
        &json!({"tools": {"deploy": {"kind": "shell", "level": "prompt", "risk": "high",
            "trustable": false}}})
        .to_string(),
    )
    .unwrap();
    assert_eq!(
        p.tool_kind(&call("deploy", json!({}))),
        toolgate::tool::ToolKind::Shell
    );
    assert_eq!(
        p.tool_kind(&call("Bash", json!({}))),
        toolgate::tool::ToolKind::Shell
    );
    let mut mcp = call("Read", json!({}));
    mcp.server = Some("evil".into());
    assert_eq!(p.tool_kind(&mcp), toolgate::tool::ToolKind::Mcp);
    let mut b = Broker::new(Box::new(p));
    // The host's registry says "read"; the card still says what the policy judges.
    b.registry_mut()
        .register(toolgate::registry::ToolDefinition {
            name: "deploy".into(),
            title: None,
            description: None,
            parameters: json!({"type": "object"}),
            kind: toolgate::tool::ToolKind::Read,
            trustable: false,
            server: None,
            annotations: None,
        })
        .unwrap();
    let (id, _) = b
        .request_approval(
            ApprovalRequest {
                session_id: "s".into(),
                call_id: None,
                timeout_ms: None,
                request: call("deploy", json!({"command": "make deploy"})),
            },
            0,
        )
        .unwrap();
    let card = b
        .pending_approval(&id)
        .unwrap_or_else(|| panic!("{:?}", b.state(&id)));
    assert_eq!(card.description, "Execute command: make deploy");
}

// --- Class 6: persistence locations --------------------------------------------------------

#[test]
fn remembered_grants_never_reach_persistence_locations() {
    let p = policy(json!({}));
    let grants = TrustOverlay {
        allow_rules: vec![
            "Write(~/**)".into(),
            "Edit(~/**)".into(),
            "Write(//etc/**)".into(),
            "Write(//Library/**)".into(),
            "Write(//var/**)".into(),
            "Write(~/.local/bin/**)".into(),
            "Write(~/.config/autostart/**)".into(),
            "Write(//etc/cron.d/**)".into(),
        ],
        agent_bypass: false,
    };
    for path in [
        "~/.local/bin/git",
        "~/.config/autostart/evil.desktop",
        "/etc/cron.d/evil",
        "/etc/crontab",
        "/var/spool/cron/crontabs/ada",
        "~/Library/LaunchAgents/com.evil.plist",
        "/Library/LaunchAgents/com.evil.plist",
        "/Library/LaunchDaemons/com.evil.plist",
        "~/.config/systemd/user/evil.service",
        "/etc/systemd/system/evil.service",
        "~/bin/ls",
        "~/.profile",
        "~/.bash_profile",
        "~/.zprofile",
        "~/.config/fish/config.fish",
        "~/.LOCAL/BIN/git",
    ] {
        let r = call("Write", json!({"file_path": path, "content": "x"}));
        let d = p.evaluate_with(&r, &grants);
        assert_eq!(d.effect, Effect::Ask, "{path}: {}", d.reason.text);
        assert!(
            d.reason.text.contains("protected"),
            "{path}: {}",
            d.reason.text
        );
        assert!(!d.trustable, "{path}");
    }
    // Ordinary files under home are still grantable.
    let r = call(
        "Write",
        json!({"file_path": "~/notes/a.md", "content": "x"}),
    );
    assert_eq!(p.evaluate_with(&r, &grants).effect, Effect::Allow);
}

#[test]
fn letters_and_marks_other_file_systems_fold_meet_denies_and_protected_paths() {
    // NTFS compares names by their upper case (`ſ` is `S`, `ı` is `I`); HFS+ leaves
    // zero-width and direction marks out of names.
    let p = policy(json!({"deny": ["Read(./secrets/**)"], "allow": ["Edit(./**)"]}));
    use Effect::*;
    assert_effects(
        &p,
        &[
            ("Read", json!({"file_path": "\u{17f}ecrets/k"}), Deny),
            ("Read", json!({"file_path": "secre\u{200d}ts/k"}), Deny),
            (
                "Write",
                json!({"file_path": ".g\u{131}t/hooks/pre-commit", "content": "x"}),
                Ask,
            ),
            (
                "Write",
                json!({"file_path": ".g\u{200c}it/hooks/pre-commit", "content": "x"}),
                Ask,
            ),
            (
                "Write",
                json!({"file_path": ".v\u{17f}code/tasks.json", "content": "x"}),
                Ask,
            ),
            (
                "Write",
                json!({"file_path": "src/\u{feff}main.rs", "content": "x"}),
                Ask,
            ),
            (
                "Write",
                json!({"file_path": "src/main.rs", "content": "x"}),
                Allow,
            ),
        ],
    );
}

#[test]
fn platform_spellings_of_start_up_files_and_path_are_protected() {
    // Vim reads `_vimrc` beside `.vimrc` (on Unix too, with `exrc`); Windows and macOS put
    // programs on `PATH` and run profiles from places of their own.
    let p =
        Policy::from_json(&json!({"home": "/home/ada", "defaultMode": "acceptEdits"}).to_string())
            .unwrap();
    for path in [
        "_vimrc",
        "_gvimrc",
        "_exrc",
        "vimfiles/plugin/x.vim",
        ".venv/pip.ini",
        ".venv/Scripts/Activate.ps1",
        "venv/Scripts/pip.exe",
        ".config/powershell/Microsoft.PowerShell_profile.ps1",
        "Documents/PowerShell/Microsoft.PowerShell_profile.ps1",
        "Documents/WindowsPowerShell/profile.ps1",
        "AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/x.bat",
        "AppData/Roaming/npm/git.cmd",
        "AppData/Roaming/Python/Python311/Scripts/pip.exe",
        "AppData/Local/nvim/init.lua",
        "Library/Python/3.11/bin/pip",
    ] {
        let d = p.evaluate(&call("Write", json!({"file_path": path, "content": "x"})));
        assert_eq!(d.effect, Effect::Ask, "{path}: {}", d.reason.text);
        assert!(
            d.reason.text.contains("protected"),
            "{path}: {}",
            d.reason.text
        );
    }
    let d = p.evaluate(&call(
        "Write",
        json!({"file_path": "src/vim.rs", "content": "x"}),
    ));
    assert_eq!(d.effect, Effect::Allow, "{}", d.reason.text);
}

#[test]
fn short_names_of_secret_files_are_secret() {
    // NTFS gives each long name an 8.3 short name, and opens the file by either.
    let bypass = Policy::from_json(
        &json!({"home": "/home/ada", "defaultMode": "bypassPermissions"}).to_string(),
    )
    .unwrap();
    let read_home = policy(json!({"allow": ["Read(~/**)"]}));
    for path in [
        "ENV~1.PRO",
        "ENV~1",
        "GIT-CR~1",
        "NPMRC~1",
        "PGPASS~1",
        "BASH_H~1",
        "~/.aws/CREDEN~1",
        "~/AWS~1/CREDEN~1",
        "~/.docker/CONFIG~1.JSO",
        "~/KUBE~1/config",
        "~/SSH~1/deploy",
        "~/.config/GCLOUD~1/x.json",
        "VAULT~1.KDB",
    ] {
        for p in [&bypass, &read_home] {
            let d = p.evaluate(&call("Read", json!({"file_path": path})));
            assert_eq!(d.effect, Effect::Ask, "{path}: {}", d.reason.text);
            assert!(
                d.reason.text.contains("holds secrets"),
                "{path}: {}",
                d.reason.text
            );
        }
    }
    for path in ["SRC~1/main.rs", "README~1.MD", "~/.aws/CONFIG~1"] {
        let d = bypass.evaluate(&call("Read", json!({"file_path": path})));
        assert_eq!(d.effect, Effect::Allow, "{path}: {}", d.reason.text);
    }
}

#[test]
fn a_backslash_before_a_dot_dot_is_read_as_windows_reads_it() {
    // Windows turns `\` into separators before it folds `..`: `secrets\k.txt\x/..` is
    // `secrets\k.txt` there, and `.` on POSIX.
    let p = Policy::from_json(
        &json!({"permissions": {
            "allow": ["Read(//Users/me/**)", "Edit(//Users/me/proj/**)"],
            "deny": ["Read(//Users/me/proj/secrets/**)"]
        }})
        .to_string(),
    )
    .unwrap();
    let at = |tool: &str, input: Value| {
        p.evaluate(&Request {
            tool: tool.into(),
            input,
            cwd: Some("/Users/me/proj".into()),
            ..Request::default()
        })
    };
    for (tool, path) in [
        ("Read", "/Users/me/proj/secrets\\k.txt\\x/.."),
        ("Read", "/Users/me/proj/secrets/k.txt\\x/.."),
        ("Read", "src/..\\.env\\x/.."),
        (
            "Write",
            "/Users/me/proj/src/..\\.git\\hooks\\pre-commit\\x/..",
        ),
        ("Write", "src/..\\.git\\hooks\\pre-commit\\x/.."),
    ] {
        let input = match tool {
            "Write" => json!({"file_path": path, "content": "x"}),
            _ => json!({ "file_path": path }),
        };
        let d = at(tool, input);
        assert_ne!(d.effect, Effect::Allow, "{tool} {path}: {}", d.reason.text);
    }
    let d = at("Read", json!({"file_path": "secrets\\k.txt\\x/.."}));
    assert!(d.reason.text.contains("with `/` only"), "{}", d.reason.text);
    // A backslash that no `..` folds away keeps its two readings, both judged.
    let d = at(
        "Read",
        json!({"file_path": "/Users/me/proj/secrets\\k.txt"}),
    );
    assert_eq!(d.effect, Effect::Deny, "{}", d.reason.text);
}

#[test]
fn forward_slash_device_and_network_paths_are_windows_paths() {
    let p = Policy::from_json(
        &json!({"defaultMode": "bypassPermissions", "permissions": {
            "allow": ["Read(//Users/me/**)"],
            "deny": ["Read(//Users/me/proj/secrets/**)"]
        }})
        .to_string(),
    )
    .unwrap();
    for path in [
        "//./C:/Users/me/proj/secrets/k.txt",
        "//?/C:/Users/me/proj/secrets/k.txt",
        "//localhost/c$/Users/me/proj/secrets/k.txt",
        "/\\localhost\\c$\\Users\\me\\proj\\secrets\\k.txt",
        "\\/./C:/Users/me/proj/secrets/k.txt",
    ] {
        let d = p.evaluate(&Request {
            tool: "Read".into(),
            input: json!({ "file_path": path }),
            cwd: Some("/Users/me/proj".into()),
            ..Request::default()
        });
        assert_eq!(d.effect, Effect::Ask, "{path}: {}", d.reason.text);
        assert!(
            d.reason.text.contains("Windows drive"),
            "{path}: {}",
            d.reason.text
        );
    }
}

#[test]
fn names_in_either_unicode_normalisation_form_meet_the_same_rules() {
    // APFS and HFS+ open `Ärzte.txt` whether the name is composed (NFC) or decomposed (NFD).
    let p = Policy::from_json(
        &json!({"defaultMode": "bypassPermissions", "permissions": {
            "allow": ["Read(**)", "Edit(./**)"],
            "deny": ["Read(./geheimnisse-f\u{fc}r-mich/**)", "Read(./\u{c4}rzte.txt)"]
        }})
        .to_string(),
    )
    .unwrap();
    let read = |path: &str| p.evaluate(&call("Read", json!({"file_path": path})));
    for path in [
        "\u{c4}rzte.txt",
        "A\u{308}rzte.txt",
        "a\u{308}rzte.txt",
        "geheimnisse-fu\u{308}r-mich/a.txt",
    ] {
        let d = read(path);
        assert_eq!(d.effect, Effect::Deny, "{path:?}: {}", d.reason.text);
    }
    // A rule written decomposed meets the composed name too.
    let decomposed = policy(json!({"deny": ["Read(./A\u{308}rzte.txt)"]}));
    for path in ["\u{c4}rzte.txt", "A\u{308}rzte.txt", "\u{e4}rzte.txt"] {
        let d = decomposed.evaluate(&call("Read", json!({ "file_path": path })));
        assert_eq!(d.effect, Effect::Deny, "{path:?}: {}", d.reason.text);
    }
    // No allow rule matches a name with combining marks: it falls to the tool's default.
    let edits = policy(json!({"allow": ["Edit(./**)"]}));
    let edit = |path: &str| edits.evaluate(&call("Edit", json!({"file_path": path})));
    let d = edit("cafe\u{301}.txt");
    assert_eq!(d.effect, Effect::Ask, "{}", d.reason.text);
    let d = edit("caf\u{e9}.txt");
    assert_eq!(d.effect, Effect::Allow, "{}", d.reason.text);
}
