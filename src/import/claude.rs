//! Claude Code `settings.json`: `permissions.allow/ask/deny`, `defaultMode`,
//! `additionalDirectories`, `disableBypassPermissionsMode`, in every scope.
//!
//! The scope comes from the file name: `managed-settings.json` is `managed`,
//! `settings.local.json` is `local`, `~/.claude/settings.json` (or under `/home/<user>`,
//! `/Users/<user>`, `/root`) is `user`, any other `settings.json` is `project`. A name may
//! also start with the scope and a colon (`user:/etc/x/settings.json`).

use serde_json::Value;

use crate::decision::{Layer, RuleList};
use crate::error::{ErrorKind, Result};
use crate::mode::Mode;
use crate::policy::DisableBypass;

use super::builder::{json_type, line_of_json_string, Builder, Origin};
use super::jsonc;

/// Top-level settings that do not change what is allowed, asked or denied.
const OTHER_SETTINGS: &[&str] = &[
    "$schema",
    "apiKeyHelper",
    "awsAuthRefresh",
    "awsCredentialExport",
    "cleanupPeriodDays",
    "env",
    "includeCoAuthoredBy",
    "includeGitInstructions",
    "attribution",
    "model",
    "statusLine",
    "outputStyle",
    "forceLoginMethod",
    "forceLoginOrgUUID",
    "enableAllProjectMcpServers",
    "enabledMcpjsonServers",
    "disabledMcpjsonServers",
    "allowedMcpServers",
    "enabledPlugins",
    "extraKnownMarketplaces",
    "strictKnownMarketplaces",
    "alwaysThinkingEnabled",
    "spinnerTipsEnabled",
    "theme",
    "companyAnnouncements",
    "otelHeadersHelper",
    "autoUpdates",
    "autoUpdatesChannel",
    "preferredNotifChannel",
    "verbose",
    "language",
    "respectGitignore",
    "fileSuggestion",
    "plansDirectory",
    "showTurnDuration",
    "terminalProgressBarEnabled",
    "allowManagedHooksOnly",
];

/// Top-level settings that change decisions but that toolgate does not take over.
const UNEXPRESSED_SETTINGS: &[(&str, &str)] = &[
    (
        "hooks",
        "hooks are not imported: run them beside toolgate, or turn what they decide into rules",
    ),
    (
        "disableAllHooks",
        "hooks are not imported, so this setting has nothing to act on",
    ),
    (
        "sandbox",
        "the sandbox settings are not imported: toolgate decides without a sandbox",
    ),
];

pub(crate) fn import(b: &mut Builder, name: &str, text: &str) -> Result<()> {
    let (scope, file) = scope_of(name);
    let value = jsonc::parse_json(file, text)?;
    let Value::Object(top) = value else {
        return Err(Origin::new(file, 1, "").error(
            ErrorKind::InvalidPolicy,
            "expected a JSON object of settings",
        ));
    };
    let layer = b.layer(scope);
    if scope != Layer::User && scope != Layer::Managed && file.starts_with('/') {
        if let Some(root) = project_root(file) {
            if let Some(l) = b.layer_mut(layer) {
                l.root.get_or_insert(root);
            }
        }
    }
    for (key, v) in &top {
        let origin = Origin::new(file, line_of_json_string(text, key, 1), key.clone());
        match key.as_str() {
            "permissions" => permissions(b, layer, file, text, v, &origin)?,
            "allowManagedPermissionRulesOnly" => {
                if v.as_bool() == Some(true) {
                    if let Some(l) = b.layer_mut(layer) {
                        l.allow_managed_permission_rules_only = true;
                    }
                }
            }
            "deniedMcpServers" => {
                for entry in as_array(v, &origin)? {
                    let server =
                        entry
                            .get("serverName")
                            .and_then(Value::as_str)
                            .ok_or_else(|| {
                                origin.error(
                                    ErrorKind::InvalidPolicy,
                                    "each `deniedMcpServers` entry needs a `serverName` string",
                                )
                            })?;
                    b.checked_rule(layer, RuleList::Deny, &format!("mcp__{server}"), &origin)?;
                }
            }
            k if OTHER_SETTINGS.contains(&k) => {}
            k => match UNEXPRESSED_SETTINGS.iter().find(|(s, _)| *s == k) {
                Some((_, why)) => b.not_imported(&origin, *why),
                None => {
                    return Err(origin
                        .error(ErrorKind::UnknownField, format!("unknown setting `{k}`"))
                        .with_hint(
                            "check the spelling; unknown keys are rejected so that a typo \
                             cannot weaken a policy",
                        ))
                }
            },
        }
    }
    Ok(())
}

fn permissions(
    b: &mut Builder,
    layer: usize,
    file: &str,
    text: &str,
    v: &Value,
    origin: &Origin,
) -> Result<()> {
    let Value::Object(perms) = v else {
        return Err(origin.error(
            ErrorKind::InvalidPolicy,
            format!("`permissions` must be an object, not {}", json_type(v)),
        ));
    };
    for (key, v) in perms {
        let at = Origin::new(
            file,
            line_of_json_string(text, key, origin.line),
            key.clone(),
        );
        match key.as_str() {
            "allow" | "ask" | "deny" => {
                let list = match key.as_str() {
                    "allow" => RuleList::Allow,
                    "ask" => RuleList::Ask,
                    _ => RuleList::Deny,
                };
                let mut line = at.line;
                for rule in strings(v, &at)? {
                    line = line_of_json_string(text, rule, line);
                    let o = Origin::new(file, line, rule.to_owned());
                    b.checked_rule(layer, list, rule, &o)?;
                }
            }
            "additionalDirectories" => {
                for dir in strings(v, &at)? {
                    b.additional_directory(layer, dir);
                }
            }
            "defaultMode" => {
                let mode: Mode = crate::json::from_value(v.clone(), "defaultMode")
                    .map_err(|e| at.error(ErrorKind::InvalidPolicy, e.message().to_owned()))?;
                if let Some(l) = b.layer_mut(layer) {
                    l.permissions.default_mode = Some(mode);
                }
            }
            "disableBypassPermissionsMode" => {
                if v.as_str() != Some("disable") {
                    return Err(at.error(
                        ErrorKind::InvalidPolicy,
                        "`disableBypassPermissionsMode` must be `\"disable\"`",
                    ));
                }
                if let Some(l) = b.layer_mut(layer) {
                    l.permissions.disable_bypass_permissions_mode = Some(DisableBypass::Disable);
                }
            }
            k => {
                return Err(at
                    .error(
                        ErrorKind::UnknownField,
                        format!("unknown key `permissions.{k}`"),
                    )
                    .with_hint(
                        "use allow, ask, deny, additionalDirectories, defaultMode or \
                         disableBypassPermissionsMode",
                    ))
            }
        }
    }
    Ok(())
}

fn as_array<'a>(v: &'a Value, origin: &Origin) -> Result<&'a Vec<Value>> {
    v.as_array().ok_or_else(|| {
        origin.error(
            ErrorKind::InvalidPolicy,
            format!("`{}` must be an array, not {}", origin.text, json_type(v)),
        )
    })
}

fn strings<'a>(v: &'a Value, origin: &Origin) -> Result<Vec<&'a str>> {
    as_array(v, origin)?
        .iter()
        .map(|s| {
            s.as_str().ok_or_else(|| {
                origin.error(
                    ErrorKind::InvalidPolicy,
                    format!("`{}` must hold strings, not {}", origin.text, json_type(s)),
                )
            })
        })
        .collect()
}

/// The scope of a settings file, and the file name without an explicit `scope:` prefix.
pub(crate) fn scope_of(name: &str) -> (Layer, &str) {
    for (prefix, layer) in [
        ("managed:", Layer::Managed),
        ("user:", Layer::User),
        ("project:", Layer::Project),
        ("local:", Layer::Local),
        ("cli:", Layer::Cli),
        ("session:", Layer::Session),
    ] {
        if let Some(rest) = name.strip_prefix(prefix) {
            return (layer, rest);
        }
    }
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let layer = if base.starts_with("managed-settings") {
        Layer::Managed
    } else if base.ends_with(".local.json") {
        Layer::Local
    } else if is_user_file(name) {
        Layer::User
    } else {
        Layer::Project
    };
    (layer, name)
}

fn is_user_file(name: &str) -> bool {
    let Some(dir) = name.strip_suffix("/.claude/settings.json") else {
        return false;
    };
    if dir == "~" || dir == "/root" {
        return true;
    }
    let parts: Vec<&str> = dir.split('/').collect();
    matches!(parts.as_slice(), ["", "home" | "Users", _])
}

/// The project directory of `/abs/proj/.claude/settings.json`.
fn project_root(file: &str) -> Option<String> {
    let dir = file.rsplit_once("/.claude/")?.0;
    (!dir.is_empty()).then(|| dir.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes() {
        assert_eq!(scope_of("~/.claude/settings.json").0, Layer::User);
        assert_eq!(scope_of("/home/ada/.claude/settings.json").0, Layer::User);
        assert_eq!(
            scope_of("/home/ada/p/.claude/settings.json").0,
            Layer::Project
        );
        assert_eq!(scope_of(".claude/settings.local.json").0, Layer::Local);
        assert_eq!(
            scope_of("/etc/claude-code/managed-settings.json").0,
            Layer::Managed
        );
        assert_eq!(scope_of("user:x.json"), (Layer::User, "x.json"));
        assert_eq!(
            project_root("/home/ada/p/.claude/settings.json").as_deref(),
            Some("/home/ada/p")
        );
    }
}
