//! Where remembered trust may stand in for a person: the one rule the broker and the agent
//! hooks both apply, so the two can never differ.

use crate::decision::{Decider, Decision, Effect, Evaluate, TrustOverlay};
use crate::mode::Mode;
use crate::request::Request;

use super::split_rule;

/// The decision for `request` with remembered trust, when trust may change it; `None` when
/// the plain decision stands.
///
/// `plain` is the decision without trust (`evaluator.evaluate(request)`). Trust is consulted
/// only when `plain` asks, or when `dontAsk` mode denied the call only because it would have
/// asked; in that second case only an allow is returned, since `dontAsk` still denies what
/// trust does not allow. Grants (`trust.allow_rules`) apply only to a call the policy marks
/// `trustable` (for a `dontAsk` deny: the same call in the default mode), so no grant reaches
/// a write outside the project, a protected path, a delete, or a shell line run away from
/// the project directory. A grant of a bare tool (`Write`) applies only when
/// `tool_trustable` says the tool may be trusted by its name. Agent bypass, the person's
/// explicit choice, is offered whenever the plain decision asks, trustable or not.
///
/// ```
/// use toolgate::trust::decide_with_trust;
/// use toolgate::{Effect, Evaluate, Policy, Request, TrustOverlay};
/// let policy = Policy::from_json("{}").unwrap();
/// let grant = TrustOverlay { allow_rules: vec!["Write".into()], agent_bypass: false };
/// let write = |path: &str| {
///     Request::from_json(&format!(
///         r#"{{"tool":"Write","input":{{"file_path":"{path}","content":""}},"cwd":"/p"}}"#
///     ))
///     .unwrap()
/// };
/// // Inside the project the remembered `Write` allows.
/// let inside = write("/p/src/a.rs");
/// let d = decide_with_trust(&policy, &inside, &policy.evaluate(&inside), &grant, true);
/// assert_eq!(d.map(|d| d.effect), Some(Effect::Allow));
/// // Outside it the call is not trustable: the grant does not apply, the plain ask stands.
/// let outside = write("/tmp/victim/notes.txt");
/// let plain = policy.evaluate(&outside);
/// assert!(!plain.trustable);
/// assert!(decide_with_trust(&policy, &outside, &plain, &grant, true).is_none());
/// ```
pub fn decide_with_trust<E: Evaluate + ?Sized>(
    evaluator: &E,
    request: &Request,
    plain: &Decision,
    trust: &TrustOverlay,
    tool_trustable: bool,
) -> Option<Decision> {
    let unasked = denied_only_for_asking(plain);
    if plain.effect != Effect::Ask && !unasked {
        return None;
    }
    let mut grants: Vec<String> = trust
        .allow_rules
        .iter()
        .filter(|rule| tool_trustable || split_rule(rule).1.is_some())
        .cloned()
        .collect();
    // Whether the call is trustable is worked out only when some grant could apply, so a
    // call with none is evaluated once.
    if !grants.is_empty() && !trustable(evaluator, request, plain, unasked) {
        grants.clear();
    }
    if grants.is_empty() && !trust.agent_bypass {
        return None;
    }
    let overlay = TrustOverlay {
        allow_rules: grants,
        agent_bypass: trust.agent_bypass,
    };
    let decision = evaluator.evaluate_with(request, &overlay);
    if unasked && decision.effect != Effect::Allow {
        return None;
    }
    Some(decision)
}

/// Whether `dontAsk` mode denied the call only because it would have asked.
fn denied_only_for_asking(plain: &Decision) -> bool {
    plain.effect == Effect::Deny
        && matches!(
            plain.reason.decider,
            Decider::Mode {
                mode: Mode::DontAsk
            }
        )
}

/// Whether a grant may stand in for the person: the plain decision's `trustable`, or for a
/// `dontAsk` deny (never trustable itself) what the same call would be in the default mode.
fn trustable<E: Evaluate + ?Sized>(
    evaluator: &E,
    request: &Request,
    plain: &Decision,
    unasked: bool,
) -> bool {
    if !unasked {
        return plain.trustable;
    }
    let mut asked = request.clone();
    asked.mode = Some(Mode::Default);
    evaluator.evaluate(&asked).trustable
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Policy;

    fn request(tool: &str, input: &str, cwd: &str) -> Request {
        Request::from_json(&format!(
            r#"{{"tool":"{tool}","input":{input},"cwd":"{cwd}"}}"#
        ))
        .unwrap()
    }

    fn grants(rules: &[&str]) -> TrustOverlay {
        TrustOverlay {
            allow_rules: rules.iter().map(|r| (*r).to_owned()).collect(),
            agent_bypass: false,
        }
    }

    fn decide(policy: &Policy, r: &Request, trust: &TrustOverlay, tool_trustable: bool) -> Effect {
        let plain = policy.evaluate(r);
        decide_with_trust(policy, r, &plain, trust, tool_trustable)
            .map_or(plain.effect, |d| d.effect)
    }

    #[test]
    fn grants_never_reach_calls_that_are_not_trustable() {
        let policy = Policy::from_json("{}").unwrap();
        let write = grants(&["Write"]);
        let outside = request(
            "Write",
            r#"{"file_path":"/tmp/x/victim/notes.txt","content":"x"}"#,
            "/p",
        );
        assert_eq!(decide(&policy, &outside, &write, true), Effect::Ask);
        let inside = request(
            "Write",
            r#"{"file_path":"/p/notes.txt","content":"x"}"#,
            "/p",
        );
        assert_eq!(decide(&policy, &inside, &write, true), Effect::Allow);
        let echo = request(
            "Bash",
            r#"{"command":"echo pwned > /tmp/x/victim/notes.txt"}"#,
            "/p",
        );
        let line = grants(&["Bash(echo pwned > /tmp/x/victim/notes.txt)", "Bash(echo *)"]);
        assert_eq!(decide(&policy, &echo, &line, false), Effect::Ask);
    }

    #[test]
    fn bare_tool_grants_need_a_trustable_tool() {
        let policy = Policy::from_json("{}").unwrap();
        let inside = request(
            "Write",
            r#"{"file_path":"/p/notes.txt","content":"x"}"#,
            "/p",
        );
        assert_eq!(
            decide(&policy, &inside, &grants(&["Write"]), false),
            Effect::Ask
        );
        let named = grants(&["Write(./notes.txt)"]);
        assert_eq!(decide(&policy, &inside, &named, false), Effect::Allow);
    }

    #[test]
    fn dont_ask_allows_only_what_a_grant_allows_in_the_default_mode() {
        let policy = Policy::from_json(r#"{"defaultMode":"dontAsk"}"#).unwrap();
        let write = grants(&["Write"]);
        let inside = request(
            "Write",
            r#"{"file_path":"/p/notes.txt","content":"x"}"#,
            "/p",
        );
        assert_eq!(decide(&policy, &inside, &write, true), Effect::Allow);
        let outside = request(
            "Write",
            r#"{"file_path":"/tmp/notes.txt","content":"x"}"#,
            "/p",
        );
        assert_eq!(decide(&policy, &outside, &write, true), Effect::Deny);
    }

    #[test]
    fn allows_and_denies_are_left_alone() {
        let policy = Policy::from_json(r#"{"permissions":{"deny":["Write(./secret)"]}}"#).unwrap();
        let denied = request("Write", r#"{"file_path":"/p/secret","content":"x"}"#, "/p");
        let plain = policy.evaluate(&denied);
        assert!(decide_with_trust(&policy, &denied, &plain, &grants(&["Write"]), true).is_none());
        let read = request("Read", r#"{"file_path":"/p/a"}"#, "/p");
        let plain = policy.evaluate(&read);
        assert!(decide_with_trust(&policy, &read, &plain, &grants(&["Read"]), true).is_none());
    }
}
