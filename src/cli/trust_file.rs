//! The trust file: grants a person gave, kept across hook processes, keyed by project and
//! session (`$XDG_STATE_HOME/toolgate/trust.json`, or `~/.local/state/toolgate/trust.json`).
//!
//! ```text
//! {"version":1,"projects":{"/home/ada/proj":{
//!     "always":"<trust document>",
//!     "sessions":{"<session id>":"<trust document>"}}}}
//! ```
//! Each `<trust document>` is the library's checksummed trust document
//! ([`toolgate::TrustStore::export`]), verified on every read; a session's document holds
//! that session's grants. Changes are read-modify-write under an exclusive lock on
//! `trust.json.lock` and land by rename, so concurrent hooks lose no grant and a reader never
//! sees half a file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toolgate::trust::{Grant, NewGrant, Scope};
use toolgate::{Error, ErrorKind, Evaluate, TrustStore};

use super::files::{read_optional, write_atomic, FileLock};

const VERSION: u64 = 1;

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TrustFile {
    version: u64,
    #[serde(default)]
    projects: BTreeMap<String, ProjectTrust>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ProjectTrust {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    always: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    sessions: BTreeMap<String, String>,
}

/// The trust file's path: `$TOOLGATE_TRUST_FILE`, or `trust.json` in the state directory.
pub fn path() -> Result<PathBuf, Error> {
    if let Some(p) = std::env::var_os("TOOLGATE_TRUST_FILE") {
        return Ok(PathBuf::from(p));
    }
    Ok(super::files::state_dir()?.join("trust.json"))
}

fn read(path: &Path) -> Result<TrustFile, Error> {
    let Some(text) = read_optional(path)? else {
        return Ok(TrustFile {
            version: VERSION,
            ..TrustFile::default()
        });
    };
    let file: TrustFile = toolgate::json::from_str(&text, "trust file")
        .map_err(|e| e.within(&path.display().to_string()))?;
    if file.version != VERSION {
        return Err(Error::new(
            ErrorKind::UnsupportedVersion,
            format!(
                "trust file `{}` has version {}, expected {VERSION}",
                path.display(),
                file.version
            ),
        )
        .with_hint("upgrade toolgate, or move the file away to start afresh"));
    }
    Ok(file)
}

/// The grants for `project` and `session`: the project's `always` grants and the session's
/// grants, each document verified.
pub fn load(
    path: &Path,
    project: &str,
    session: &str,
    rules: &dyn Evaluate,
    now_ms: u64,
) -> Result<TrustStore, Error> {
    let file = {
        let _lock = FileLock::acquire(path, false)?;
        read(path)?
    };
    let mut store = TrustStore::new();
    let Some(p) = file.projects.get(project) else {
        return Ok(store);
    };
    if let Some(doc) = &p.always {
        store.import(doc, rules)?;
    }
    if let Some(doc) = p.sessions.get(session) {
        let mut s = TrustStore::new();
        s.import(doc, rules)?;
        for g in s.list(now_ms) {
            let mut new = NewGrant::session(&g.rule, session).for_agent(g.agent.as_deref());
            new.expires_at = g.expires_at;
            store.grant(new, rules, now_ms)?;
        }
    }
    Ok(store)
}

/// Adds a grant for `project` under the lock and returns it.
pub fn add(
    path: &Path,
    project: &str,
    new: NewGrant,
    rules: &dyn Evaluate,
    now_ms: u64,
) -> Result<Grant, Error> {
    let _lock = FileLock::acquire(path, true)?;
    let mut file = read(path)?;
    let entry = file.projects.entry(project.to_owned()).or_default();
    let scope = new.scope;
    let session = new.session_id.clone().unwrap_or_default();
    let slot = match scope {
        Scope::Session => entry.sessions.entry(session).or_default(),
        Scope::Always | Scope::Once => entry.always.get_or_insert_with(String::new),
    };
    let mut store = TrustStore::new();
    if !slot.is_empty() {
        store.import(slot, rules)?;
    }
    // Session grants are stored as the `always` grants of the session's own document.
    let mut stored = new;
    if scope == Scope::Session {
        stored.scope = Scope::Always;
        stored.session_id = None;
    }
    let mut grant = store.grant(stored, rules, now_ms)?;
    *slot = store.export(now_ms);
    write_atomic(path, &to_json(&file)?)?;
    if scope == Scope::Session {
        grant.scope = Scope::Session;
    }
    Ok(grant)
}

/// Every grant of `project` as `(session or "", grant)`.
pub fn list(
    path: &Path,
    project: &str,
    rules: &dyn Evaluate,
    now_ms: u64,
) -> Result<Vec<(String, Grant)>, Error> {
    let file = {
        let _lock = FileLock::acquire(path, false)?;
        read(path)?
    };
    let mut out = Vec::new();
    let Some(p) = file.projects.get(project) else {
        return Ok(out);
    };
    let docs = p
        .always
        .iter()
        .map(|d| (String::new(), d))
        .chain(p.sessions.iter().map(|(s, d)| (s.clone(), d)));
    for (session, doc) in docs {
        let mut store = TrustStore::new();
        store.import(doc, rules)?;
        for g in store.list(now_ms) {
            out.push((session.clone(), g.clone()));
        }
    }
    Ok(out)
}

/// Removes the grant with `id` from `project`; whether one was removed.
pub fn revoke(
    path: &Path,
    project: &str,
    id: &str,
    rules: &dyn Evaluate,
    now_ms: u64,
) -> Result<bool, Error> {
    let _lock = FileLock::acquire(path, true)?;
    let mut file = read(path)?;
    let Some(p) = file.projects.get_mut(project) else {
        return Ok(false);
    };
    let mut removed = false;
    for doc in p.always.iter_mut().chain(p.sessions.values_mut()) {
        let mut store = TrustStore::new();
        store.import(doc, rules)?;
        if store.revoke(id).is_some() {
            removed = true;
            *doc = store.export(now_ms);
        }
    }
    if removed {
        write_atomic(path, &to_json(&file)?)?;
    }
    Ok(removed)
}

fn to_json(file: &TrustFile) -> Result<String, Error> {
    serde_json::to_string_pretty(file).map_err(|e| {
        Error::new(
            ErrorKind::InvalidJson,
            format!("cannot encode the trust file: {e}"),
        )
    })
}
