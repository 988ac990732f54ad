//! Which grants a person may not give: rules so broad that trusting them trusts anything.

use crate::decision::Evaluate;
use crate::error::{Error, ErrorKind, Result};
use crate::tool::{self, ToolKind};

/// Programs that run whatever they are given: trusting them by a prefix trusts any code.
const RUNNERS: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "csh",
    "tcsh",
    "pwsh",
    "powershell",
    "node",
    "deno",
    "bun",
    "perl",
    "ruby",
    "php",
    "lua",
    "sudo",
    "doas",
    "su",
    "env",
    "eval",
    "exec",
    "xargs",
    "nohup",
    "command",
    "builtin",
    "time",
    "nice",
];

/// Tools whose bare prefix is as broad as a shell (`git *` runs hooks and aliases; `npm *`
/// runs package scripts).
const BROAD_WITH_WILDCARD_ONLY: &[&str] = &["git", "npm", "npx", "pnpm", "yarn", "cargo", "make"];

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
/// #     fn evaluate_with(&self, _: &Request, _: &toolgate::decision::TrustOverlay) -> Decision { unimplemented!() }
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

fn check_shell_spec(rule: &str, spec: &str) -> Result<()> {
    let spec = spec
        .strip_suffix(":*")
        .map_or(spec.to_owned(), |s| format!("{s} *"));
    let words: Vec<&str> = spec.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(refused(
            rule,
            "the command is empty",
            "name the command to trust, e.g. `Bash(npm test)`",
        ));
    };
    let program = first.rsplit('/').next().unwrap_or(first);
    let program = program.strip_suffix(".exe").unwrap_or(program);
    let interpreter = RUNNERS.contains(&program)
        || program.starts_with("python")
        || program.starts_with("pip")
        || program.contains('*');
    if interpreter {
        return Err(refused(
            rule,
            &format!("`{program}` runs arbitrary code, so trusting it trusts anything"),
            "approve such commands one at a time instead",
        ));
    }
    let only_wildcards = words.iter().skip(1).all(|w| w.chars().all(|c| c == '*'));
    if BROAD_WITH_WILDCARD_ONLY.contains(&program) && only_wildcards {
        return Err(refused(
            rule,
            &format!("`{program}` with any arguments is as broad as a shell"),
            &format!("trust a subcommand instead, e.g. `Bash({program} status)`"),
        ));
    }
    Ok(())
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
            "mcp__github__create_issue",
        ] {
            check_grant_rule(rule, &Rules).unwrap_or_else(|e| panic!("{rule}: {e}"));
        }
    }

    #[test]
    fn split_rule_parts() {
        assert_eq!(split_rule(" Bash(npm test) "), ("Bash", Some("npm test")));
        assert_eq!(split_rule("Write"), ("Write", None));
    }
}
