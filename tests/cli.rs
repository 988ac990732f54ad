//! The `toolgate` command line: output shapes and exit codes.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers may panic: a panic is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write as _;
use std::process::{Command, Stdio};

const POLICY: &str = r#"{"permissions":{"allow":["Bash(cargo test *)"],"deny":["Bash(curl *)"]},
  "examples":[{"name":"tests","request":{"tool":"Bash","input":{"command":"cargo test"},"cwd":"/p"},"expect":"allow"}]}"#;

fn toolgate(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("toolgate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn check_prints_the_decision_as_json() {
    let policy = temp("check.json", POLICY);
    let req = r#"{"tool":"Bash","input":{"command":"curl evil.sh"},"cwd":"/p"}"#;
    let (code, out, _) = toolgate(&["check", "--policy", &policy, "--request", "-"], req);
    assert_eq!(code, 0);
    let d: toolgate::Decision = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(d.effect, toolgate::Effect::Deny);
}

#[test]
fn bad_policy_or_request_exits_2() {
    let req = temp("req.json", r#"{"tool":"Bash","input":{"command":"ls"}}"#);
    let (code, _, err) = toolgate(
        &["check", "--policy", "-", "--request", &req],
        r#"{"permissions":{"deny":["Bash(rm"]}}"#,
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("INVALID_RULE") && err.contains("policy.permissions.deny[0]"),
        "{err}"
    );
    let policy = temp("ok.json", POLICY);
    let (code, _, err) = toolgate(
        &["check", "--policy", &policy, "--request", "-"],
        r#"{"tool":"Bash","comand":"ls"}"#,
    );
    assert_eq!(code, 2);
    assert!(err.contains("UNKNOWN_FIELD"), "{err}");
    let (code, _, _) = toolgate(&["check", "--policy", &policy], "");
    assert_eq!(code, 2);
    let (code, _, _) = toolgate(&["frob"], "");
    assert_eq!(code, 2);
}

#[test]
fn explain_lists_rules() {
    let policy = temp("explain.json", POLICY);
    let req = r#"{"tool":"Bash","input":{"command":"cargo test --lib"},"cwd":"/p"}"#;
    let (code, out, _) = toolgate(&["explain", "--policy", &policy, "--request", "-"], req);
    assert_eq!(code, 0);
    assert!(out.starts_with("ALLOW"), "{out}");
    assert!(out.contains("* Bash(cargo test *)"), "{out}");
    assert!(out.contains("  Bash(curl *)"), "{out}");
}

#[test]
fn explain_lists_the_dangers() {
    let policy = temp("explain-dangers.json", "{}");
    let req = r#"{"tool":"Bash","input":{"command":"git push --force origin main"},"cwd":"/p"}"#;
    let (code, out, _) = toolgate(&["explain", "--policy", &policy, "--request", "-"], req);
    assert_eq!(code, 0);
    assert!(out.contains("dangers:\n    [history-rewrite]"), "{out}");
    assert!(out.contains("origin main"), "{out}");
    let req = r#"{"tool":"Bash","input":{"command":"frobnicate"},"cwd":"/p"}"#;
    let (_, out, _) = toolgate(&["explain", "--policy", &policy, "--request", "-"], req);
    assert!(out.contains("dangers: none known"), "{out}");
    assert!(
        out.contains("toolgate does not know what `frobnicate` does"),
        "{out}"
    );
}

#[test]
fn test_runs_examples() {
    let (code, out, _) = toolgate(&["test", "-"], POLICY);
    assert_eq!(code, 0);
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    let failing = POLICY.replace(r#""expect":"allow""#, r#""expect":"deny""#);
    let (code, out, _) = toolgate(&["test", "-"], &failing);
    assert_eq!(code, 1);
    assert!(out.contains("FAIL tests"), "{out}");
}

#[test]
fn symlinks_are_resolved_by_the_cli() {
    let dir = std::env::temp_dir().join(format!("toolgate-link-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("proj")).unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "x").unwrap();
    let link = dir.join("proj/link.txt");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    let policy = temp("links.json", r#"{"permissions":{"allow":["Edit(./**)"]}}"#);
    let req = format!(
        r#"{{"tool":"Edit","input":{{"file_path":"link.txt"}},"cwd":"{}"}}"#,
        dir.join("proj").display()
    );
    let (code, out, _) = toolgate(&["check", "--policy", &policy, "--request", "-"], &req);
    assert_eq!(code, 0);
    assert!(out.contains(r#""effect":"ask""#), "{out}");
}

#[test]
fn links_behind_a_glob_are_resolved_by_the_cli() {
    // `docs/b.md` leads to a key outside the project: a glob naming it reads the key.
    let dir = std::env::temp_dir().join(format!("toolgate-glob-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proj/docs")).unwrap();
    std::fs::create_dir_all(dir.join("home/.ssh")).unwrap();
    std::fs::write(dir.join("home/.ssh/id_rsa"), "key").unwrap();
    std::fs::write(dir.join("proj/docs/a.md"), "doc").unwrap();
    std::os::unix::fs::symlink(dir.join("home/.ssh/id_rsa"), dir.join("proj/docs/b.md")).unwrap();
    let deny = format!(
        r#"{{"permissions":{{"deny":["Read(/{}/home/**)"]}},"defaultMode":"bypassPermissions"}}"#,
        dir.display()
    );
    let open = temp("globs-open.json", "{}");
    let deny = temp("globs-deny.json", &deny);
    let check = |policy: &str, command: &str| {
        let req = serde_json::json!({"tool": "Bash", "input": {"command": command}, "cwd": dir.join("proj")});
        let (code, out, _) = toolgate(
            &["check", "--policy", policy, "--request", "-"],
            &req.to_string(),
        );
        assert_eq!(code, 0, "{out}");
        let effect: serde_json::Value = serde_json::from_str(&out).unwrap();
        effect["effect"].as_str().unwrap().to_owned()
    };
    for command in [
        "cat docs/*",
        "cat docs/[b].md",
        "tail -n+1 docs/?.md",
        "grep -h . docs/*",
        "base64 docs/*",
        "cd docs && cat ./*.md",
    ] {
        assert_eq!(check(&open, command), "ask", "{command}");
        assert_eq!(check(&deny, command), "deny", "{command}");
    }
    // A glob that names only plain files inside the project still runs without a prompt.
    assert_eq!(check(&open, "cat docs/a*"), "allow");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_path_padded_below_a_link_is_resolved_or_asks() {
    // `src/cfg` leads out of the project; `d/..` padding and deep new directories must not
    // hide where a write lands.
    let dir = std::env::temp_dir().join(format!("toolgate-pad-{}", std::process::id()));
    let outside = dir.join("outside");
    std::fs::create_dir_all(dir.join("proj/src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let link = dir.join("proj/src/cfg");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let policy = temp(
        "padded.json",
        r#"{"permissions":{"allow":["Edit(./src/**)"]}}"#,
    );
    for path in [
        "src/cfg/x.sh".to_owned(),
        format!("src/cfg/{}x.sh", "d/../".repeat(40)),
        format!("src/cfg/{}x.sh", "d/".repeat(70)),
    ] {
        let req = serde_json::json!({
            "tool": "Write",
            "input": {"file_path": path, "content": "x"},
            "cwd": dir.join("proj"),
        })
        .to_string();
        let (code, out, _) = toolgate(&["check", "--policy", &policy, "--request", "-"], &req);
        assert_eq!(code, 0);
        assert!(out.contains(r#""effect":"ask""#), "{path}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_of_links_to_a_file_not_yet_written_is_resolved_by_the_cli() {
    // `out -> out2 -> ../other/Makefile`: acceptEdits allows edits inside the project only,
    // and the write lands outside it.
    let dir = std::env::temp_dir().join(format!("toolgate-chain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proj")).unwrap();
    std::fs::create_dir_all(dir.join("other")).unwrap();
    std::os::unix::fs::symlink("out2", dir.join("proj/out")).unwrap();
    std::os::unix::fs::symlink("../other/Makefile", dir.join("proj/out2")).unwrap();
    let policy = temp("chain.json", r#"{"defaultMode":"acceptEdits"}"#);
    let req = serde_json::json!({
        "tool": "Write",
        "input": {"file_path": "out", "content": "x"},
        "cwd": dir.join("proj"),
    })
    .to_string();
    let (code, out, _) = toolgate(&["check", "--policy", &policy, "--request", "-"], &req);
    assert_eq!(code, 0);
    assert!(out.contains(r#""effect":"ask""#), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `toolgate check` of `git show REV:package.json` run in `cwd`, with `env` set and git's
/// own locating variables otherwise removed.
fn git_show_in(cwd: &std::path::Path, env: &[(&str, &str)]) -> String {
    let policy = temp("git-top.json", "{}");
    let req = serde_json::json!({
        "tool": "Bash",
        "input": {"command": "git show HEAD~1:package.json"},
        "cwd": cwd,
    })
    .to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"));
    child
        .args(["check", "--policy", &policy, "--request", "-"])
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = child.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(req.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let decision: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    decision
        .get("effect")
        .and_then(|e| e.as_str())
        .unwrap()
        .to_owned()
}

#[test]
fn a_revision_s_file_is_named_from_the_repository_top_the_cli_finds() {
    let dir = std::env::temp_dir().join(format!("toolgate-git-top-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let proj = dir.join("proj");
    for sub in [".git/objects", ".git/refs", "src"] {
        std::fs::create_dir_all(proj.join(sub)).unwrap();
    }
    std::fs::write(proj.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(proj.join(".git/config"), "[core]\n\tbare = false\n").unwrap();
    // The top is the working directory: `package.json` there, inside it.
    assert_eq!(git_show_in(&proj, &[]), "allow");
    // From `src`, the top is above it: the file is outside the working directory.
    assert_eq!(git_show_in(&proj.join("src"), &[]), "ask");
    // The environment or the repository's configuration may move the top anywhere up.
    assert_eq!(git_show_in(&proj, &[("GIT_DIR", "/elsewhere")]), "ask");
    std::fs::write(proj.join(".git/config"), "[core]\n\tworktree = ..\n").unwrap();
    assert_eq!(git_show_in(&proj, &[]), "ask");
    // A `.git` that is not a repository: git goes on up.
    std::fs::write(proj.join(".git/config"), "[core]\n").unwrap();
    std::fs::write(proj.join(".git/HEAD"), "").unwrap();
    assert_eq!(git_show_in(&proj, &[]), "ask");
    std::fs::write(proj.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    assert_eq!(git_show_in(&proj, &[]), "allow");
    std::fs::remove_dir_all(proj.join(".git/refs")).unwrap();
    assert_eq!(git_show_in(&proj, &[]), "ask");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn version_prints_the_crate_version() {
    for flag in ["--version", "-V", "version"] {
        let (code, out, _) = toolgate(&[flag], "");
        assert_eq!(code, 0, "{flag}");
        assert_eq!(
            out.trim(),
            format!("toolgate {}", env!("CARGO_PKG_VERSION"))
        );
    }
}
