//! Which grants a person may not give: rules so broad that trusting them trusts anything.

use crate::decision::Evaluate;
use crate::error::{Error, ErrorKind, Result};
use crate::tool::{self, ToolKind};

/// The program a rule's first word names, read as widely as any platform does: without
/// its directory (`/usr/bin/python3`, `C:\\Python\\python.exe`), quotes and backslashes,
/// an executable suffix (`.exe`, `.cmd`, `.bat`, `.com`), a version (`python3.12`,
/// `lua5.4`, `pip-3`), and in lowercase.
fn program_of(word: &str) -> String {
    let unquoted: String = word.chars().filter(|c| !matches!(c, '\'' | '"')).collect();
    let name = unquoted
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&unquoted)
        .to_lowercase();
    let name = [".exe", ".cmd", ".bat", ".com"]
        .iter()
        .find_map(|suffix| name.strip_suffix(suffix))
        .unwrap_or(&name);
    let bare = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    if bare.is_empty() { name } else { bare }.to_owned()
}

/// Whether `program` (as [`program_of`] reads it) may start code a grant on it would
/// trust: the program table's one answer ([`crate::commands::may_start_programs`]).
fn runs_code(program: &str) -> bool {
    crate::commands::may_start_programs(program)
}

/// Tools whose bare prefix is as broad as a shell (`git *` runs hooks and aliases; `npm *`
/// runs package scripts).
const BROAD_WITH_WILDCARD_ONLY: &[&str] =
    &["git", "npm", "npx", "pnpm", "yarn", "cargo", "go", "dotnet"];

/// The tool name and the specifier of a rule: `Bash(npm test *)` → (`Bash`, `Some("npm test *")`).
pub(crate) fn split_rule(rule: &str) -> (&str, Option<&str>) {
    let rule = rule.trim();
    match rule.split_once('(') {
        Some((tool, rest)) => (
            tool.trim(),
            Some(rest.strip_suffix(')').unwrap_or(rest).trim()),
        ),
        None => (rule, None),
    }
}

fn refused(rule: &str, why: &str, hint: &str) -> Error {
    Error::new(
        ErrorKind::GrantRefused,
        format!("refusing to trust `{rule}`: {why}"),
    )
    .at("rule")
    .with_hint(hint.to_owned())
}

/// Checks that `rule` may be remembered as a grant: it must parse (`rules.check_rule`), and
/// it must not trust a shell, an interpreter, or a tool that is never trusted wholesale.
///
/// ```
/// use toolgate::trust::check_grant_rule;
/// # use toolgate::{Decision, Evaluate, Request};
/// # struct AnyRule;
/// # impl Evaluate for AnyRule {
/// #     fn evaluate_with(&self, _: &Request, _: &toolgate::TrustOverlay) -> Decision { unimplemented!() }
/// #     fn check_rule(&self, _: &str) -> toolgate::Result<()> { Ok(()) }
/// # }
/// assert!(check_grant_rule("Bash(npm test *)", &AnyRule).is_ok());
/// assert!(check_grant_rule("Write", &AnyRule).is_ok());
/// for broad in ["Bash", "Bash(python3 *)", "Bash(sudo make install)", "Bash(git *)", "Delete"] {
///     assert_eq!(check_grant_rule(broad, &AnyRule).unwrap_err().code(), "GRANT_REFUSED");
/// }
/// ```
pub fn check_grant_rule(rule: &str, rules: &dyn Evaluate) -> Result<()> {
    let (tool_name, spec) = split_rule(rule);
    let builtin = tool::builtin(tool_name);
    let is_shell = builtin.is_some_and(|b| b.defaults.kind == ToolKind::Shell);
    match (spec, builtin) {
        (None, Some(b)) if is_shell || !b.defaults.trustable => {
            return Err(refused(
                rule,
                &format!("`{tool_name}` can never be trusted for any arguments"),
                "trust a narrower rule, e.g. `Bash(npm test)` for one command",
            ));
        }
        (Some(spec), _) if is_shell => check_shell_spec(rule, spec)?,
        (Some(spec), Some(b))
            if b.defaults.kind.writes_files() && crate::policy::pattern_names_protected(spec) =>
        {
            return Err(refused(
                rule,
                &format!("`{spec}` names a protected path, which is never written unasked"),
                "approve writes there one at a time instead",
            ));
        }
        _ => {}
    }
    rules.check_rule(rule).map_err(|e| {
        refused(
            rule,
            &format!("it is not a valid rule ({})", e.message()),
            e.hint()
                .unwrap_or("write the rule as the policy's rule syntax expects"),
        )
    })
}

/// Whether `word` sets a variable (`NODE_ENV=test`) rather than naming a program.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn check_shell_spec(rule: &str, spec: &str) -> Result<()> {
    match shell_spec_refusal(spec) {
        Some((why, hint)) => Err(refused(rule, &why, &hint)),
        None => Ok(()),
    }
}

/// Why a shell rule's specifier (`npm test *`, `git:*`) may not be trusted, with a hint, or
/// `None` when it may: an empty command, a program that is a pattern or an expansion, a
/// program that runs code it is given ([`crate::commands::may_start_programs`]), or a
/// program with subcommands that run things followed by wildcards only (`git *`).
///
/// ```
/// use toolgate::trust::shell_spec_refusal;
/// assert!(shell_spec_refusal("npm test *").is_none());
/// for broad in ["bash *", "sudo rm *", "git *", "npm:*", "$X *", ""] {
///     assert!(shell_spec_refusal(broad).is_some(), "{broad}");
/// }
/// ```
pub fn shell_spec_refusal(spec: &str) -> Option<(String, String)> {
    let spec = spec
        .strip_suffix(":*")
        .map_or(spec.to_owned(), |s| format!("{s} *"));
    // Leading `NAME=value` words set variables; the program is the first word after them.
    let words: Vec<&str> = spec
        .split_whitespace()
        .skip_while(|w| is_assignment(w))
        .collect();
    let Some(first) = words.first() else {
        return Some((
            "the command is empty".to_owned(),
            "name the command to trust, e.g. `Bash(npm test)`".to_owned(),
        ));
    };
    let program = program_of(first);
    if program.contains(['*', '?', '[', '$', '`', '(', '{']) || program.is_empty() {
        return Some((
            format!("the program `{first}` is a pattern or an expansion, so it names any program"),
            "name the program literally, e.g. `Bash(npm test)`".to_owned(),
        ));
    }
    if runs_code(&program) {
        return Some((
            format!("`{program}` runs arbitrary code, so trusting it trusts anything"),
            "approve such commands one at a time instead".to_owned(),
        ));
    }
    let only_wildcards = words.iter().skip(1).all(|w| w.chars().all(|c| c == '*'));
    if has_running_subcommands(&program) && only_wildcards {
        return Some((
            format!("`{program}` with any arguments is as broad as a shell"),
            format!("trust a subcommand instead, e.g. `Bash({program} status)`"),
        ));
    }
    None
}

/// Whether `program` (read as widely as [`program_of`] does) has subcommands that run
/// things (`git` hooks and aliases, `npm` package scripts), so that only a rule naming a
/// subcommand is narrow.
///
/// ```
/// use toolgate::trust::has_running_subcommands;
/// assert!(has_running_subcommands("git") && has_running_subcommands("/usr/bin/NPM"));
/// assert!(!has_running_subcommands("ls"));
/// ```
pub fn has_running_subcommands(program: &str) -> bool {
    BROAD_WITH_WILDCARD_ONLY.contains(&program_of(program).as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Decision, TrustOverlay};
    use crate::Request;

    struct Rules;
    impl Evaluate for Rules {
        fn evaluate_with(&self, _: &Request, _: &TrustOverlay) -> Decision {
            unimplemented!()
        }
        fn check_rule(&self, rule: &str) -> Result<()> {
            if rule.contains("((") {
                Err(Error::new(ErrorKind::InvalidRule, "bad rule").with_hint("fix it"))
            } else {
                Ok(())
            }
        }
    }

    #[test]
    fn broad_grants_are_refused() {
        for rule in [
            "Bash",
            "bash",
            "shell",
            "Delete",
            "rm",
            "Bash(bash -c ls)",
            "Bash(sh x.sh)",
            "Bash(zsh)",
            "Bash(python *)",
            "Bash(python3 -c 'x')",
            "Bash(/usr/bin/python3.12 a)",
            "Bash(node -e 1)",
            "Bash(perl -e 1)",
            "Bash(ruby x)",
            "Bash(sudo ls)",
            "Bash(env X=1 ls)",
            "Bash(eval x)",
            "Bash(git)",
            "Bash(git *)",
            "Bash(git:*)",
            "Bash(npm *)",
            "Bash(*)",
            "Bash()",
            "shell(sh)",
            "Bash(x((",
            "Bash(busybox sh)",
            "Bash(awk *)",
            "Bash(gawk:*)",
            "Bash(gdb -batch *)",
            "Bash(ssh host ls)",
            "Bash(tmux new *)",
            "Bash(vim *)",
            "Bash(docker run *)",
            "Bash(sed -n *)",
            "Bash(find . -name x)",
            "Bash(make build)",
            "Bash(nohup ./x)",
            "Bash(timeout 5 npm test)",
            "Bash(NODE_ENV=1 node x.js)",
            "Bash(Python3 x.py)",
            "Bash(C:\\Python312\\python.exe x.py)",
            "Bash(PIP3 install x)",
            "Bash('bash' -c x)",
            "Bash($SHELL -c x)",
            "Bash(py* x)",
            "Bash(GIT *)",
            "Bash(go *)",
            "Bash(X=1)",
            "Write(~/.local/bin/**)",
            "Edit(.git/hooks/*)",
            "Write(//etc/cron.d/**)",
            "Write(~/.config/autostart/x.desktop)",
        ] {
            let e = check_grant_rule(rule, &Rules).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::GrantRefused, "{rule}");
            assert!(e.message().starts_with("refusing to trust `"), "{e}");
            assert!(e.hint().is_some(), "{rule}");
        }
    }

    #[test]
    fn narrow_grants_pass() {
        for rule in [
            "Write",
            "Edit(src/**)",
            "Read",
            "WebFetch(domain:example.com)",
            "Bash(npm test *)",
            "Bash(npm run build)",
            "Bash(git status)",
            "Bash(git log:*)",
            "Bash(cargo test)",
            "Bash(NODE_ENV=test npm test)",
            "Bash(ls -la)",
            "Bash(b2sum x)",
            "Bash(go test ./...)",
            "mcp__github__create_issue",
        ] {
            check_grant_rule(rule, &Rules).unwrap_or_else(|e| panic!("{rule}: {e}"));
        }
    }

    #[test]
    fn programs_are_read_widely() {
        assert_eq!(program_of("/usr/bin/python3.12"), "python");
        assert_eq!(program_of("C:\\Tools\\Node.EXE"), "node");
        assert_eq!(program_of("'bash'"), "bash");
        assert_eq!(program_of("lua5.4"), "lua");
        assert_eq!(program_of("7z"), "7z");
        assert_eq!(program_of("42"), "42");
        for program in [
            "sh", "env", "timeout", "python", "rscript", "busybox", "awk",
        ] {
            assert!(runs_code(program), "{program}");
        }
        for program in ["ls", "git", "npm", "cat", "grep"] {
            assert!(!runs_code(program), "{program}");
        }
    }

    #[test]
    fn split_rule_parts() {
        assert_eq!(split_rule(" Bash(npm test) "), ("Bash", Some("npm test")));
        assert_eq!(split_rule("Write"), ("Write", None));
    }
}
