//! `toolgate import` and `toolgate export`: output, warnings on stderr, provenance in
//! `explain`, exit codes.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers may panic: a panic is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

#[path = "support/process.rs"]
mod process;
use process::feed;

fn toolgate(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolgate"));
    command.args(args);
    let out = feed(command, stdin);
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("toolgate-cli-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

const RULES: &str = "# team rules\nprefix_rule(pattern = [\"ls\"])\n\nprefix_rule(\n    pattern = [\"git\", \"reset\", \"--hard\"],\n    decision = \"forbidden\",\n)\n";

#[test]
fn import_then_check_and_explain_with_provenance() {
    let rules = temp("default.rules", RULES);
    let policy = temp("imported.json", "");
    let (code, out, err) = toolgate(&["import", "--from", "codex", &rules, "-o", &policy], "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let request = temp(
        "reset.json",
        r#"{"tool":"Bash","input":{"command":"git reset --hard HEAD"},"cwd":"/home/ada/p"}"#,
    );
    let (code, out, _) = toolgate(&["check", "--policy", &policy, "--request", &request], "");
    assert_eq!(code, 0);
    assert!(out.contains(r#""effect":"deny""#), "{out}");
    let (code, out, _) = toolgate(&["explain", "--policy", &policy, "--request", &request], "");
    assert_eq!(code, 0);
    let expected = format!(
        "from {rules}:4: prefix_rule( pattern = [\"git\", \"reset\", \"--hard\"], decision = \"forbidden\", )"
    );
    assert!(out.contains(&expected), "{out}");
}

#[test]
fn warnings_go_to_stderr_and_strict_fails() {
    let zed = r#"{"agent":{"tool_permissions":{"tools":{"terminal":{"always_allow":[{"pattern":"cargo"}]}}}}}"#;
    let file = temp("zed.json", zed);
    let (code, out, err) = toolgate(&["import", "--from", "zed", &file], "");
    assert_eq!(code, 0);
    assert!(out.starts_with('{'), "{out}");
    assert!(err.contains("warning[IMPORT_APPROXIMATED]"), "{err}");
    let (code, out, err) = toolgate(&["import", "--from", "zed", "--strict", &file], "");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("error[INVALID_POLICY]"), "{err}");
}

#[test]
fn copilot_args_on_the_command_line() {
    let (code, out, _) = toolgate(
        &[
            "import",
            "--from",
            "copilot",
            "--args",
            "--allow-tool 'shell(git)' --deny-tool 'shell(git push)'",
        ],
        "",
    );
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["copilot"]["allowTools"][0], "shell(git)");
    assert_eq!(doc["copilot"]["denyTools"][0], "shell(git push)");
}

#[test]
fn export_writes_the_format_and_reports_what_is_left_out() {
    let policy =
        r#"{"permissions":{"allow":["Bash(npm test)","Read(src/**)"],"deny":["Bash(rm -rf *)"]}}"#;
    let (code, out, err) = toolgate(&["export", "--to", "codex", "-"], policy);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "prefix_rule(pattern = [\"rm\", \"-rf\"], decision = \"forbidden\")\n"
    );
    assert!(
        err.contains("warning[EXPORT_NOT_EXPRESSED] permissions.allow[0]"),
        "{err}"
    );
    assert!(
        err.contains("warning[EXPORT_NOT_EXPRESSED] permissions.allow[1]"),
        "{err}"
    );
}

#[test]
fn a_copilot_export_passes_no_shell_allow_and_says_to_use_the_hook() {
    let policy = r#"{"permissions":{"allow":["Bash(cp *)","Bash(cat *)","WebFetch(domain:docs.rs)"],"deny":["Bash(rm *)"]}}"#;
    let (code, out, err) = toolgate(&["export", "--to", "copilot", "-"], policy);
    assert_eq!(code, 0);
    assert!(!out.contains("--allow-tool"), "{out}");
    assert!(out.contains("--deny-tool 'shell(rm)'"), "{out}");
    assert!(out.contains("--allow-url docs.rs"), "{out}");
    for at in ["permissions.allow[0]", "permissions.allow[1]"] {
        assert!(
            err.contains(&format!("warning[EXPORT_NOT_EXPRESSED] {at}")),
            "{err}"
        );
    }
    assert!(err.contains("toolgate install --agent copilot"), "{err}");
}

#[test]
fn bad_usage_and_bad_input_exit_2() {
    for (args, needle) in [
        (vec!["import", "x.json"], "`--from` is required"),
        (
            vec!["import", "--from", "cursor", "x"],
            "unknown format `cursor`",
        ),
        (
            vec!["export", "--to", "zed", "-"],
            "export to `zed` is not supported",
        ),
    ] {
        let (code, _, err) = toolgate(&args, "{}");
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let bad = temp("bad.rules", "prefix_rule(pattern = [\"ls\"])\nx = 1\n");
    let (code, _, err) = toolgate(&["import", "--from", "codex", &bad], "");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("error[INVALID_POLICY] {bad}:2:")),
        "{err}"
    );
}
