//! The hook's policy: toolgate's policy files, layered, merged into one document.
//!
//! From the most authoritative: managed (`/etc/toolgate/policy.json`), `--policy` files
//! (layer `cli`), local (`<project>/.toolgate/policy.local.json`), project
//! (`<project>/.toolgate/policy.json`), user (`~/.config/toolgate/policy.json`). Each file is
//! a policy document; its top-level `permissions` and its `layers` all become layers of the
//! file's own source (a project file cannot claim to be managed). Scalar settings
//! (`defaultMode`, `home`) come from the most authoritative file that sets them; keyed
//! settings (`tools`, `mcpServers`, `agents`) from the most authoritative file naming the
//! key; with no file setting `home`, it is `$HOME`. A file that exists but does not read or
//! parse is an error: the hook then blocks.

use std::path::{Path, PathBuf};

use toolgate::policy::{LayerDocument, PolicyDocument};
use toolgate::{Error, Layer};

use super::files::read_optional;

/// One policy file to read.
#[derive(Clone, Debug)]
pub struct Source {
    /// Its layer.
    pub layer: Layer,
    /// Its path.
    pub path: PathBuf,
    /// The directory `/path` rules of this layer are relative to.
    pub root: Option<String>,
    /// Whether the file must exist (`--policy` files).
    pub required: bool,
}

/// The policy files for a project, in order of authority.
pub fn sources(project: &Path, cli: &[PathBuf]) -> Result<Vec<Source>, Error> {
    let root = Some(project.to_string_lossy().into_owned());
    let mut out = vec![Source {
        layer: Layer::Managed,
        path: super::files::managed_policy()?,
        root: None,
        required: false,
    }];
    for p in cli {
        out.push(Source {
            layer: Layer::Cli,
            path: p.clone(),
            root: root.clone(),
            required: true,
        });
    }
    let dir = project.join(".toolgate");
    out.push(Source {
        layer: Layer::Local,
        path: dir.join("policy.local.json"),
        root: root.clone(),
        required: false,
    });
    out.push(Source {
        layer: Layer::Project,
        path: dir.join("policy.json"),
        root,
        required: false,
    });
    out.push(Source {
        layer: Layer::User,
        path: super::files::config_dir()?.join("policy.json"),
        root: None,
        required: false,
    });
    Ok(out)
}

/// The merged document and the files that were read (with their contents, for caching).
#[derive(Debug, Default)]
pub struct Merged {
    /// The document.
    pub document: PolicyDocument,
    /// `(path, contents)` of every file read.
    pub read: Vec<(String, String)>,
}

/// Reads and merges the sources.
pub fn load(sources: &[Source]) -> Result<Merged, Error> {
    let mut merged = Merged::default();
    for s in sources {
        let text = match read_optional(&s.path)? {
            Some(t) => t,
            None if s.required => {
                return Err(super::files::storage(
                    &s.path,
                    "read",
                    &std::io::Error::from(std::io::ErrorKind::NotFound),
                ))
            }
            None => continue,
        };
        let doc: PolicyDocument = toolgate::json::from_str(&text, "policy")
            .map_err(|e| e.within(&s.path.display().to_string()))?;
        add(&mut merged.document, doc, s);
        merged.read.push((s.path.display().to_string(), text));
    }
    // `~` in a rule or a command is the home directory of the person the hook runs for:
    // without it, a project outside `/home/<user>` could not resolve `~/.bashrc` at all. It
    // is taken where it really is: the paths of a call come resolved through links (a home
    // under `/var/home` reached as `/home`), and the protected `~/bin` must meet them.
    if merged.document.home.is_none() {
        merged.document.home = super::files::home()
            .ok()
            .filter(|h| h.has_root())
            .map(|h| super::files::real_dir(&h).to_string_lossy().into_owned());
    }
    Ok(merged)
}

/// Adds one file's document below what is merged already.
pub fn add(into: &mut PolicyDocument, doc: PolicyDocument, s: &Source) {
    if into.default_mode.is_none() {
        into.default_mode = doc.default_mode;
    }
    if into.home.is_none() {
        into.home = doc.home;
    }
    if let Some(p) = doc.permissions {
        into.layers.push(LayerDocument {
            source: s.layer,
            root: s.root.clone(),
            permissions: p,
            allow_managed_permission_rules_only: false,
        });
    }
    for l in doc.layers {
        into.layers.push(LayerDocument {
            source: s.layer,
            root: l.root.or_else(|| s.root.clone()),
            permissions: l.permissions,
            allow_managed_permission_rules_only: s.layer == Layer::Managed
                && l.allow_managed_permission_rules_only,
        });
    }
    if let Some(c) = doc.copilot {
        let mine = into.copilot.get_or_insert_with(Default::default);
        mine.allow_tools.extend(c.allow_tools);
        mine.deny_tools.extend(c.deny_tools);
        mine.allow_urls.extend(c.allow_urls);
        mine.deny_urls.extend(c.deny_urls);
        mine.allow_all_tools |= c.allow_all_tools;
        mine.allow_all_paths |= c.allow_all_paths;
        mine.allow_all_urls |= c.allow_all_urls;
        mine.allow_all |= c.allow_all;
    }
    for (k, v) in doc.tools {
        into.tools.entry(k).or_insert(v);
    }
    for (k, v) in doc.mcp_servers {
        into.mcp_servers.entry(k).or_insert(v);
    }
    for (k, v) in doc.agents {
        into.agents.entry(k).or_insert(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_file_cannot_claim_the_managed_layer() {
        let doc: PolicyDocument = toolgate::json::from_str(
            r#"{"layers":[{"source":"managed","permissions":{"allow":["Bash"]},
                "allowManagedPermissionRulesOnly":true}]}"#,
            "policy",
        )
        .unwrap();
        let mut into = PolicyDocument::default();
        let s = Source {
            layer: Layer::Project,
            path: PathBuf::from("/p/.toolgate/policy.json"),
            root: Some("/p".into()),
            required: false,
        };
        add(&mut into, doc, &s);
        assert_eq!(into.layers[0].source, Layer::Project);
        assert!(!into.layers[0].allow_managed_permission_rules_only);
    }
}
