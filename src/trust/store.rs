//! The in-memory trust store.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::{check_grant_rule, document, Grant, NewGrant, Scope};
use crate::decision::Evaluate;
use crate::error::{Error, ErrorKind, Result};

/// Grants and per-agent bypass. Session grants are kept in memory only; `always` grants and
/// bypass flags are what [`TrustStore::export`] writes and [`TrustStore::import`] reads.
///
/// While the host loads the stored document ([`TrustStore::begin_load`] …
/// [`TrustStore::finish_load`]), changes apply at once and are also recorded; the load then
/// replays them over the stored document, in order, so a revoke or a bypass turned off
/// before the load finished is not undone by it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustStore {
    grants: BTreeMap<String, Grant>,
    bypass: BTreeMap<String, bool>,
    /// Changes made since `begin_load`, while a load is under way.
    journal: Option<Vec<Change>>,
    /// Counts changes to the persisted part ([`TrustStore::revision`]).
    revision: u64,
}

/// A change to the store, recorded while the stored document loads.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Change {
    Added(Grant),
    Revoked(String),
    Bypass(String, bool),
    ClearedSession(String),
    Imported {
        grants: BTreeMap<String, Grant>,
        bypass: BTreeMap<String, bool>,
    },
}

/// A stable id for a grant, derived from what it grants to whom.
pub(super) fn grant_id(
    rule: &str,
    scope: Scope,
    session: Option<&str>,
    agent: Option<&str>,
) -> String {
    let mut h = Sha256::new();
    for part in [
        scope.as_str(),
        session.unwrap_or(""),
        agent.unwrap_or(""),
        rule,
    ] {
        h.update(part.len().to_le_bytes());
        h.update(part.as_bytes());
    }
    let digest = h.finalize();
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("g-{hex}")
}

impl TrustStore {
    /// An empty store.
    pub fn new() -> Self {
        TrustStore::default()
    }

    /// A number that changes whenever the persisted part (`always` grants, bypass) may have
    /// changed, so a host knows when to save [`TrustStore::export`] again. While a load is
    /// under way every revoke counts, since it applies to the document still to come.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    fn touch(&mut self) {
        self.revision = self.revision.wrapping_add(1);
    }

    fn record(&mut self, change: Change) {
        if let Some(journal) = self.journal.as_mut() {
            journal.push(change);
        }
    }

    /// Starts a load of the stored document: from now until [`TrustStore::finish_load`],
    /// every change is applied at once and recorded, to be replayed over what is loaded.
    ///
    /// ```
    /// use toolgate::trust::{NewGrant, TrustStore};
    /// # use toolgate::{Decision, Evaluate, Request};
    /// # struct AnyRule;
    /// # impl Evaluate for AnyRule {
    /// #     fn evaluate_with(&self, _: &Request, _: &toolgate::TrustOverlay) -> Decision { unimplemented!() }
    /// #     fn check_rule(&self, _: &str) -> toolgate::Result<()> { Ok(()) }
    /// # }
    /// let mut saved = TrustStore::new();
    /// let grant = saved.grant(NewGrant::always("Write"), &AnyRule, 1).unwrap();
    /// saved.set_agent_bypass("claude", true);
    /// let stored = saved.export(2);
    ///
    /// let mut store = TrustStore::new();
    /// store.begin_load();
    /// store.revoke(&grant.id); // issued before the stored document arrived
    /// store.set_agent_bypass("claude", false);
    /// store.finish_load(Some(&stored), &AnyRule).unwrap();
    /// assert!(store.list(3).is_empty());
    /// assert!(!store.agent_bypass(Some("claude")));
    /// ```
    pub fn begin_load(&mut self) {
        self.journal = Some(Vec::new());
    }

    /// Whether a load started by [`TrustStore::begin_load`] is under way.
    pub fn loading(&self) -> bool {
        self.journal.is_some()
    }

    /// Finishes a load: imports `stored` (the document the storage held, `None` when it
    /// held none), then replays the changes made since [`TrustStore::begin_load`] in order.
    /// A bad document is an error and leaves the store as the changes made it. Either way
    /// the store stops recording. Returns how many grants the document held.
    pub fn finish_load(&mut self, stored: Option<&str>, rules: &dyn Evaluate) -> Result<usize> {
        let journal = self.journal.take().unwrap_or_default();
        let Some(text) = stored else {
            return Ok(0);
        };
        let count = self.import(text, rules)?;
        for change in journal {
            match change {
                Change::Added(g) => {
                    self.grants.insert(g.id.clone(), g);
                }
                Change::Revoked(id) => {
                    self.grants.remove(&id);
                }
                Change::Bypass(agent, on) => self.set_agent_bypass(&agent, on),
                Change::ClearedSession(session) => {
                    self.clear_session(&session);
                }
                Change::Imported { grants, bypass } => self.replace_persisted(grants, bypass),
            }
        }
        Ok(count)
    }

    /// Adds a grant after checking it ([`check_grant_rule`]): a refused rule, a `once` scope,
    /// a session grant without a session, or an expiry in the past is an error and nothing
    /// changes. Adding a grant that exists already replaces it (new time and expiry).
    /// (JS: `TrustStore.grant`.)
    ///
    /// ```
    /// use toolgate::trust::{NewGrant, Scope};
    /// use toolgate::{ErrorKind, Policy, TrustStore};
    ///
    /// let policy = Policy::from_json("{}")?;
    /// let mut store = TrustStore::new();
    /// let lint = store.grant(NewGrant::always("Bash(npm run lint)"), &policy, 0)?;
    /// assert_eq!(store.list(0)[0].id, lint.id);
    ///
    /// // A grant is remembered: "once" is an answer, never a grant.
    /// let mut once = NewGrant::always("Bash(npm test)");
    /// once.scope = Scope::Once;
    /// assert!(store.grant(once, &policy, 0).is_err());
    /// # Ok::<(), toolgate::Error>(())
    /// ```
    pub fn grant(&mut self, new: NewGrant, rules: &dyn Evaluate, now_ms: u64) -> Result<Grant> {
        let rule = new.rule.trim().to_owned();
        check_grant_rule(&rule, rules)?;
        let session_id = match (new.scope, new.session_id) {
            (Scope::Once, _) => {
                return Err(Error::new(
                    ErrorKind::GrantRefused,
                    "a `once` answer applies to one call and is not remembered",
                )
                .at("scope")
                .with_hint("use scope `session` or `always` for a grant"))
            }
            (Scope::Session, Some(s)) if !s.is_empty() => Some(s),
            (Scope::Session, _) => {
                return Err(Error::new(
                    ErrorKind::GrantRefused,
                    "a session grant needs the session it belongs to",
                )
                .at("sessionId")
                .with_hint("set `sessionId`"))
            }
            (Scope::Always, _) => None,
        };
        if let Some(t) = new.expires_at.filter(|t| *t <= now_ms) {
            return Err(Error::new(
                ErrorKind::GrantRefused,
                format!("the grant would expire at {t}, which is not after now ({now_ms})"),
            )
            .at("expiresAt")
            .with_hint("give an expiry in the future, or none"));
        }
        let grant = Grant {
            id: grant_id(
                &rule,
                new.scope,
                session_id.as_deref(),
                new.agent.as_deref(),
            ),
            rule,
            scope: new.scope,
            session_id,
            agent: new.agent,
            created_at: now_ms,
            expires_at: new.expires_at,
        };
        self.grants.insert(grant.id.clone(), grant.clone());
        if grant.scope == Scope::Always {
            self.touch();
        }
        self.record(Change::Added(grant.clone()));
        Ok(grant)
    }

    /// Turns per-agent bypass on or off for `agent` (persisted).
    pub fn set_agent_bypass(&mut self, agent: &str, on: bool) {
        if on {
            self.bypass.insert(agent.to_owned(), true);
        } else {
            self.bypass.remove(agent);
        }
        self.record(Change::Bypass(agent.to_owned(), on));
        self.touch();
    }

    /// Whether `agent` has bypass.
    pub fn agent_bypass(&self, agent: Option<&str>) -> bool {
        agent.is_some_and(|a| self.bypass.get(a).copied().unwrap_or(false))
    }

    /// The agents with bypass, sorted.
    pub fn bypass_agents(&self) -> Vec<String> {
        self.bypass.keys().cloned().collect()
    }

    /// Every grant that has not expired at `now_ms`, sorted by id.
    pub fn list(&self, now_ms: u64) -> Vec<&Grant> {
        self.grants
            .values()
            .filter(|g| g.expires_at.is_none_or(|t| now_ms < t))
            .collect()
    }

    /// The grants that apply to a call of `session_id` by `agent` at `now_ms`.
    pub fn active(&self, session_id: &str, agent: Option<&str>, now_ms: u64) -> Vec<&Grant> {
        self.grants
            .values()
            .filter(|g| g.applies(session_id, agent, now_ms))
            .collect()
    }

    /// Removes one grant by id; `None` when there is no such grant.
    pub fn revoke(&mut self, id: &str) -> Option<Grant> {
        let loading = self.loading();
        self.record(Change::Revoked(id.to_owned()));
        let gone = self.grants.remove(id);
        if loading || gone.as_ref().is_some_and(|g| g.scope == Scope::Always) {
            self.touch();
        }
        gone
    }

    /// Removes every grant of a session; returns how many.
    pub fn clear_session(&mut self, session_id: &str) -> usize {
        self.record(Change::ClearedSession(session_id.to_owned()));
        let before = self.grants.len();
        self.grants
            .retain(|_, g| g.session_id.as_deref() != Some(session_id));
        before - self.grants.len()
    }

    /// Removes the grants that expired at or before `now_ms` and returns them.
    pub fn expire(&mut self, now_ms: u64) -> Vec<Grant> {
        let expired: Vec<String> = self
            .grants
            .values()
            .filter(|g| g.expires_at.is_some_and(|t| t <= now_ms))
            .map(|g| g.id.clone())
            .collect();
        expired
            .iter()
            .filter_map(|id| self.grants.remove(id))
            .collect()
    }

    /// The persisted part (`always` grants unexpired at `now_ms`, and bypass) as a version 1
    /// trust document with its checksum.
    pub fn export(&self, now_ms: u64) -> String {
        let grants = self
            .list(now_ms)
            .into_iter()
            .filter(|g| g.scope == Scope::Always)
            .cloned()
            .collect::<Vec<_>>();
        document::write(&grants, &self.bypass)
    }

    /// Replaces the persisted part with a trust document (version 1, or an older version,
    /// which is migrated). A malformed, unknown-version or tampered document, or one with a
    /// grant that would be refused, is an error and leaves the store as it was. Session
    /// grants are kept. Returns how many grants were imported.
    pub fn import(&mut self, text: &str, rules: &dyn Evaluate) -> Result<usize> {
        let parsed = document::read(text)?;
        let mut grants = BTreeMap::new();
        for (i, g) in parsed.grants.into_iter().enumerate() {
            check_grant_rule(&g.rule, rules).map_err(|e| e.within(&format!("grants[{i}]")))?;
            let id = grant_id(&g.rule, Scope::Always, None, g.agent.as_deref());
            let grant = Grant {
                id: id.clone(),
                rule: g.rule,
                scope: Scope::Always,
                session_id: None,
                agent: g.agent,
                created_at: g.created_at,
                expires_at: g.expires_at,
            };
            grants.insert(id, grant);
        }
        let count = grants.len();
        self.record(Change::Imported {
            grants: grants.clone(),
            bypass: parsed.bypass.clone(),
        });
        self.replace_persisted(grants, parsed.bypass);
        Ok(count)
    }

    /// Replaces the `always` grants and the bypass flags; session grants stay.
    fn replace_persisted(
        &mut self,
        grants: BTreeMap<String, Grant>,
        bypass: BTreeMap<String, bool>,
    ) {
        self.touch();
        self.grants.retain(|_, g| g.scope != Scope::Always);
        self.grants.extend(grants);
        self.bypass = bypass;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Decision, TrustOverlay};
    use crate::Request;

    struct AnyRule;
    impl Evaluate for AnyRule {
        fn evaluate_with(&self, _: &Request, _: &TrustOverlay) -> Decision {
            unimplemented!()
        }
        fn check_rule(&self, _: &str) -> Result<()> {
            Ok(())
        }
    }

    #[test]
    fn session_grants_stay_in_their_session() {
        let mut s = TrustStore::new();
        s.grant(NewGrant::session("Write", "a"), &AnyRule, 0)
            .unwrap();
        assert_eq!(s.active("a", None, 1).len(), 1);
        assert!(s.active("b", None, 1).is_empty());
        assert_eq!(s.clear_session("a"), 1);
        assert!(s.active("a", None, 1).is_empty());
    }

    #[test]
    fn agent_bound_grants_apply_to_that_agent_only() {
        let mut s = TrustStore::new();
        s.grant(
            NewGrant::always("Write").for_agent(Some("claude")),
            &AnyRule,
            0,
        )
        .unwrap();
        assert_eq!(s.active("x", Some("claude"), 1).len(), 1);
        assert!(s.active("x", Some("copilot"), 1).is_empty());
        assert!(s.active("x", None, 1).is_empty());
    }

    #[test]
    fn grants_expire_and_can_be_revoked() {
        let mut s = TrustStore::new();
        let mut g = NewGrant::always("Write");
        g.expires_at = Some(100);
        let g = s.grant(g, &AnyRule, 0).unwrap();
        assert_eq!(s.active("x", None, 99).len(), 1);
        assert!(s.active("x", None, 100).is_empty());
        assert!(s.list(100).is_empty());
        assert_eq!(s.expire(100).len(), 1);
        let g2 = s.grant(NewGrant::always("Edit"), &AnyRule, 0).unwrap();
        assert_ne!(g.id, g2.id);
        assert_eq!(s.revoke(&g2.id).map(|g| g.rule), Some("Edit".into()));
        assert!(s.revoke(&g2.id).is_none());
    }

    #[test]
    fn bad_grants_change_nothing() {
        let mut s = TrustStore::new();
        let mut once = NewGrant::always("Write");
        once.scope = Scope::Once;
        let mut no_session = NewGrant::session("Write", "");
        no_session.session_id = None;
        let mut past = NewGrant::always("Write");
        past.expires_at = Some(5);
        for g in [once, no_session, past, NewGrant::always("Bash")] {
            let e = s.grant(g, &AnyRule, 10).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::GrantRefused);
        }
        assert_eq!(s, TrustStore::new());
    }

    #[test]
    fn changes_made_while_loading_are_replayed_over_the_stored_document() {
        let mut saved = TrustStore::new();
        let write = saved.grant(NewGrant::always("Write"), &AnyRule, 1).unwrap();
        saved.grant(NewGrant::always("Edit"), &AnyRule, 1).unwrap();
        saved.set_agent_bypass("claude", true);
        let stored = saved.export(2);

        let mut s = TrustStore::new();
        s.begin_load();
        assert!(s.loading());
        assert!(s.revoke(&write.id).is_none(), "not loaded yet");
        s.set_agent_bypass("claude", false);
        s.grant(NewGrant::always("Read"), &AnyRule, 3).unwrap();
        s.grant(NewGrant::session("Glob", "s1"), &AnyRule, 3)
            .unwrap();
        assert_eq!(s.finish_load(Some(&stored), &AnyRule).unwrap(), 2);
        assert!(!s.loading());
        let rules: Vec<&str> = s.list(4).iter().map(|g| g.rule.as_str()).collect();
        assert_eq!(rules.len(), 3);
        for rule in ["Edit", "Read", "Glob"] {
            assert!(rules.contains(&rule), "{rules:?}");
        }
        assert!(!s.agent_bypass(Some("claude")));
        // Recording stops with the load.
        s.revoke("g-none");
        assert_eq!(s.journal, None);
    }

    #[test]
    fn a_bad_stored_document_keeps_the_changes_and_stops_recording() {
        let mut s = TrustStore::new();
        s.begin_load();
        s.grant(NewGrant::always("Read"), &AnyRule, 3).unwrap();
        let e = s.finish_load(Some("{"), &AnyRule).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidTrustDocument);
        assert_eq!(s.list(4).len(), 1);
        assert!(!s.loading());
        s.begin_load();
        assert_eq!(s.finish_load(None, &AnyRule).unwrap(), 0);
        assert_eq!(s.list(4).len(), 1);
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        let a = grant_id("Write", Scope::Always, None, None);
        assert_eq!(a, grant_id("Write", Scope::Always, None, None));
        assert_ne!(a, grant_id("Write", Scope::Session, Some("s"), None));
        assert_ne!(a, grant_id("Write", Scope::Always, None, Some("x")));
        assert_eq!(a.len(), 18);
    }
}
