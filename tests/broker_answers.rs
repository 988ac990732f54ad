//! Every answer kind, edited arguments, and answers that must be rejected.
#![allow(clippy::unwrap_used, reason = "tests")]

mod broker_support;

use broker_support::{bash, broker, call, write};
use serde_json::json;
use toolgate::broker::{Answer, AnswerKind, By, Status};
use toolgate::trust::Scope;
use toolgate::ErrorKind;
use toolgate::FeedbackCode;

fn allow(scope: Scope) -> Answer {
    Answer::Allow {
        scope,
        rules: None,
        edited_input: None,
    }
}

#[test]
fn policy_allow_and_deny_settle_at_once() {
    let mut b = broker();
    let (_, f) = b
        .request_approval(call("s", "Read", json!({"file_path": "a"})), 0)
        .unwrap();
    let o = f.outcome().unwrap();
    assert_eq!(
        (o.status, o.by, o.feedback),
        (Status::Approved, By::Policy, None)
    );
    let (_, f) = b.request_approval(bash("s", "rm -rf build"), 0).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Denied, By::Policy));
    let fb = o.feedback.unwrap();
    assert_eq!(fb.code, FeedbackCode::PermissionDenied);
    assert!(fb.ai_message.contains("Do not retry"));
    assert!(b.pending().is_empty());
}

#[test]
fn the_card_carries_what_a_ui_needs() {
    let mut b = broker();
    let content = "x".repeat(800);
    let (id, _) = b
        .request_approval(write("s", "src/a.ts", &content), 1_000)
        .unwrap();
    let card = b.pending_approval(&id).unwrap();
    assert_eq!(card.description, "Write to file: src/a.ts");
    assert_eq!(card.title, "Write");
    assert_eq!(card.preview.as_ref().unwrap().text.len(), 500);
    assert!(card.preview.as_ref().unwrap().truncated);
    assert!(card.trustable);
    assert_eq!(card.reason, "file changes ask by default");
    assert_eq!(card.rules, ["Write(//p/src/a.ts)"]);
    assert_eq!(
        card.answers,
        [
            AnswerKind::AllowOnce,
            AnswerKind::AllowSession,
            AnswerKind::AllowAlways,
            AnswerKind::Deny,
            AnswerKind::AllowAll,
            AnswerKind::DenyAll,
            AnswerKind::AllowToolForSession,
        ]
    );
    assert_eq!(card.deadline, 301_000);

    let (id, _) = b
        .request_approval(
            call(
                "s",
                "Edit",
                json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
            ),
            0,
        )
        .unwrap();
    let diff = b.pending_approval(&id).unwrap().diff.clone().unwrap();
    assert_eq!((diff.old_text.as_str(), diff.new_text.as_str()), ("x", "y"));

    let (id, _) = b
        .request_approval(call("s", "Delete", json!({"file_path": "a"})), 0)
        .unwrap();
    let card = b.pending_approval(&id).unwrap();
    assert!(!card.trustable);
    assert_eq!(
        card.answers,
        [
            AnswerKind::AllowOnce,
            AnswerKind::Deny,
            AnswerKind::AllowAll,
            AnswerKind::DenyAll
        ]
    );
}

#[test]
fn allow_once_applies_to_one_call_only() {
    let mut b = broker();
    let (id, f) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    let o = b.respond(&id, allow(Scope::Once), 10).unwrap();
    assert_eq!(
        (o.status, o.by, o.scope),
        (Status::Approved, By::Person, Some(Scope::Once))
    );
    assert_eq!(f.outcome().unwrap(), o);
    let (id2, _) = b.request_approval(write("s", "a", "2"), 20).unwrap();
    assert!(
        b.pending_approval(&id2).is_some(),
        "once must not be remembered"
    );
    assert!(b.trust().list(20).is_empty());
}

#[test]
fn allow_session_remembers_for_the_session() {
    let mut b = broker();
    let (id, _) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    let o = b.respond(&id, allow(Scope::Session), 10).unwrap();
    assert_eq!(o.grants, ["Write(//p/a)"]);
    let (sibling, _) = b.request_approval(write("s", "b", "2"), 15).unwrap();
    assert!(
        b.pending_approval(&sibling).is_some(),
        "another file still asks"
    );
    let (_, f) = b.request_approval(write("s", "a", "2"), 20).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!(
        (o.status, o.by, o.scope),
        (Status::Approved, By::Trust, Some(Scope::Session))
    );
    let (other, _) = b.request_approval(write("t", "a", "2"), 20).unwrap();
    assert!(
        b.pending_approval(&other).is_some(),
        "other sessions still ask"
    );
    b.end_session("s", 30);
    let (again, _) = b.request_approval(write("s", "a", "3"), 40).unwrap();
    assert!(
        b.pending_approval(&again).is_some(),
        "ending the session forgets its grants"
    );
}

#[test]
fn allow_always_is_persisted() {
    let mut b = broker();
    let (id, _) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    b.respond(&id, allow(Scope::Always), 10).unwrap();
    let doc = b.trust().export(20);
    assert!(doc.contains("\"rule\": \"Write(//p/a)\""), "{doc}");
    let (_, f) = b.request_approval(write("other", "a", "2"), 20).unwrap();
    assert_eq!(f.outcome().unwrap().by, By::Trust);
}

#[test]
fn shell_answers_remember_one_rule_per_command() {
    let mut b = broker();
    let (id, _) = b
        .request_approval(bash("s", "npm test && git status && npm run lint"), 0)
        .unwrap();
    let o = b.respond(&id, allow(Scope::Session), 10).unwrap();
    assert_eq!(o.grants, ["Bash(npm test)", "Bash(npm run lint)"]);
    let (_, f) = b
        .request_approval(bash("s", "npm run lint && npm test"), 20)
        .unwrap();
    assert_eq!(f.outcome().unwrap().by, By::Trust);
    let (id, _) = b
        .request_approval(bash("s", "npm test && curl x"), 20)
        .unwrap();
    assert!(
        b.pending_approval(&id).is_some(),
        "an unremembered command still asks"
    );
}

#[test]
fn answers_may_name_narrower_rules() {
    let mut b = broker();
    let (id, _) = b
        .request_approval(bash("s", "npm test -- --watch"), 0)
        .unwrap();
    let answer = Answer::Allow {
        scope: Scope::Session,
        rules: Some(vec!["Bash(npm test *)".into()]),
        edited_input: None,
    };
    assert_eq!(
        b.respond(&id, answer, 1).unwrap().grants,
        ["Bash(npm test *)"]
    );
    let (_, f) = b
        .request_approval(bash("s", "npm test -- --ci"), 2)
        .unwrap();
    assert_eq!(f.outcome().unwrap().by, By::Trust);
}

#[test]
fn broad_rules_in_answers_are_refused_and_change_nothing() {
    let mut b = broker();
    let (id, f) = b.request_approval(bash("s", "cargo build"), 0).unwrap();
    for rules in [
        vec!["Bash(python3 *)"],
        vec!["Bash"],
        vec!["Bash(git *)"],
        vec!["Bash(("],
    ] {
        let answer = Answer::Allow {
            scope: Scope::Session,
            rules: Some(rules.iter().map(|r| r.to_string()).collect()),
            edited_input: None,
        };
        let e = b.respond(&id, answer, 1).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::GrantRefused, "{rules:?}: {e}");
        assert!(e.path().starts_with("rules[0]"), "{e}");
    }
    assert!(b.pending_approval(&id).is_some() && !f.is_settled());
    assert!(b.trust().list(1).is_empty());
    b.respond(&id, allow(Scope::Once), 2).unwrap();
}

#[test]
fn remember_answers_are_not_offered_when_their_rules_would_be_refused() {
    let mut b = broker();
    // The default rule would trust an interpreter.
    let (id, _) = b.request_approval(bash("s", "python3 x.py"), 0).unwrap();
    let card = b.pending_approval(&id).unwrap();
    assert!(card.trustable, "the policy would accept a narrow grant");
    assert!(!card.answers.contains(&AnswerKind::AllowSession));
    assert!(!card.answers.contains(&AnswerKind::AllowToolForSession));
    let e = b.respond(&id, allow(Scope::Always), 1).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::AnswerNotOffered);
    // A narrow default rule is offered, but never the whole shell tool.
    let (id, _) = b.request_approval(bash("s", "cargo build"), 0).unwrap();
    let card = b.pending_approval(&id).unwrap();
    assert!(card.answers.contains(&AnswerKind::AllowSession));
    assert!(!card.answers.contains(&AnswerKind::AllowToolForSession));
}

#[test]
fn deny_carries_the_message_to_the_model() {
    let mut b = broker();
    let (id, f) = b.request_approval(bash("s", "npm publish"), 0).unwrap();
    let answer = Answer::Deny {
        message: Some("publish from CI instead".into()),
    };
    b.respond(&id, answer, 5).unwrap();
    let o = f.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Denied, By::Person));
    let fb = o.feedback.unwrap();
    assert_eq!(fb.code, FeedbackCode::UserDenied);
    assert!(fb.ai_message.contains("publish from CI instead"));
    assert_eq!(o.message.as_deref(), Some("publish from CI instead"));
}

#[test]
fn allow_all_and_deny_all_answer_the_session_batch() {
    let mut b = broker();
    let calls = vec![
        bash("s", "npm test"),
        call("s", "Read", json!({"file_path": "x"})),
        write("s", "a", "1"),
        call("s", "Delete", json!({"file_path": "a"})),
    ];
    let results = b.request_approvals(calls, 0).unwrap();
    assert_eq!(results.len(), 4);
    assert!(
        results[1].1.is_settled(),
        "the policy allowed the read at once"
    );
    let (other, _) = b.request_approval(write("t", "b", "2"), 0).unwrap();
    // A partial answer first, then the rest of the batch at once.
    b.respond(&results[0].0, Answer::Deny { message: None }, 1)
        .unwrap();
    let approved = b.approve_all("s", 2).unwrap();
    assert_eq!(approved.len(), 2);
    assert!(approved.iter().all(|o| o.scope == Some(Scope::Once)));
    assert_eq!(results[3].1.outcome().unwrap().status, Status::Approved);
    assert!(
        b.pending_approval(&other).is_some(),
        "other sessions are untouched"
    );
    let denied = b.deny_all("t", Some("not now".into()), 3).unwrap();
    assert_eq!(
        denied[0].feedback.as_ref().unwrap().code,
        FeedbackCode::UserDenied
    );
    assert!(b.pending().is_empty());
}

#[test]
fn allow_tool_for_session_settles_the_tools_other_calls() {
    let mut b = broker();
    let (a, _) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    let (_, fb) = b.request_approval(write("s", "b", "2"), 0).unwrap();
    let (c, _) = b
        .request_approval(
            call(
                "s",
                "Edit",
                json!({"file_path": "c",
        "old_string": "x", "new_string": "y"}),
            ),
            0,
        )
        .unwrap();
    let o = b.respond(&a, Answer::AllowToolForSession, 1).unwrap();
    assert_eq!(
        (o.scope, o.grants.as_slice()),
        (Some(Scope::Session), &["Write".to_owned()][..])
    );
    let ob = fb.outcome().unwrap();
    assert_eq!((ob.status, ob.by), (Status::Approved, By::Trust));
    assert!(b.pending_approval(&c).is_some(), "other tools still ask");
    let (d, _) = b
        .request_approval(call("s", "Delete", json!({"file_path": "a"})), 2)
        .unwrap();
    let e = b.respond(&d, Answer::AllowToolForSession, 3).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::AnswerNotOffered);
}

#[test]
fn answers_that_were_not_offered_are_rejected() {
    let mut b = broker();
    let (id, f) = b
        .request_approval(call("s", "Delete", json!({"file_path": "a"})), 0)
        .unwrap();
    for scope in [Scope::Session, Scope::Always] {
        let e = b.respond(&id, allow(scope), 1).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::AnswerNotOffered);
        assert!(e.hint().unwrap().contains("`allowOnce`"), "{e}");
    }
    let with_rules = Answer::Allow {
        scope: Scope::Once,
        rules: Some(vec!["Delete(a)".into()]),
        edited_input: None,
    };
    assert_eq!(
        b.respond(&id, with_rules, 1).unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );
    assert!(!f.is_settled());
}

#[test]
fn forged_duplicate_and_late_answers_are_rejected() {
    let mut b = broker();
    let (id, _) = b.request_approval(write("s", "a", "1"), 0).unwrap();
    for forged in [
        "",
        "nope",
        "00000000-0000-4000-8000-0000000000ff",
        &format!("{id} "),
    ] {
        let e = b.respond(forged, allow(Scope::Once), 1).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownApproval, "{forged}");
    }
    b.respond(&id, allow(Scope::Once), 1).unwrap();
    let e = b.respond(&id, allow(Scope::Once), 2).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::AlreadySettled);
    let e = b
        .respond(&id, Answer::Deny { message: None }, 2)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::AlreadySettled);

    let mut late = call("s", "Write", json!({"file_path": "b", "content": ""}));
    late.timeout_ms = Some(1_000);
    let (id, f) = b.request_approval(late, 0).unwrap();
    let e = b.respond(&id, allow(Scope::Once), 1_000).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::AlreadySettled);
    assert!(e.message().contains("expired"), "{e}");
    assert_eq!(f.outcome().unwrap().status, Status::Expired);
}

#[test]
fn edited_arguments_are_validated_and_evaluated_again() {
    let mut b = broker();
    let (id, f) = b
        .request_approval(write("s", "notes.txt", "hi"), 0)
        .unwrap();
    let edit = |input| Answer::Allow {
        scope: Scope::Once,
        rules: None,
        edited_input: Some(input),
    };
    // Invalid for the schema: an error, nothing changes.
    let e = b
        .respond(&id, edit(json!({"file_path": "notes.txt"})), 1)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidParams);
    assert_eq!(e.path(), "editedInput.input.content");
    assert!(!f.is_settled());
    // Still asks after the edit: the person approved exactly this call.
    let edited = json!({"file_path": "notes.md", "content": "hello"});
    let o = b.respond(&id, edit(edited.clone()), 2).unwrap();
    assert_eq!((o.status, &o.input), (Status::Approved, &edited));

    // Denied after the edit: settles denied, and is not an error.
    let (id, f) = b
        .request_approval(write("s", "notes.txt", "hi"), 3)
        .unwrap();
    let o = b
        .respond(
            &id,
            edit(json!({"file_path": "/etc/passwd", "content": "x"})),
            4,
        )
        .unwrap();
    assert_eq!((o.status, o.by), (Status::Denied, By::Policy));
    let fb = o.feedback.unwrap();
    assert_eq!(fb.code, FeedbackCode::PermissionDenied);
    assert!(
        fb.message.contains("edited call is denied"),
        "{}",
        fb.message
    );
    assert_eq!(f.outcome().unwrap().status, Status::Denied);
}

#[test]
fn edited_calls_remember_rules_for_the_edited_call() {
    let mut b = broker();
    let (id, _) = b.request_approval(bash("s", "npm test"), 0).unwrap();
    let answer = Answer::Allow {
        scope: Scope::Session,
        rules: None,
        edited_input: Some(json!({"command": "npm run check"})),
    };
    let o = b.respond(&id, answer, 1).unwrap();
    assert_eq!(o.grants, ["Bash(npm run check)"]);
    // An edit that the policy denies settles denied, whatever the scope asked for.
    let (id, _) = b.request_approval(bash("s", "npm test"), 2).unwrap();
    let answer = Answer::Allow {
        scope: Scope::Session,
        rules: None,
        edited_input: Some(json!({"command": "npm test && rm -rf /"})),
    };
    let o = b.respond(&id, answer, 3).unwrap();
    assert_eq!(o.status, Status::Denied, "rm is denied by the policy");
}

#[test]
fn unknown_tools_and_invalid_params_tell_the_model() {
    let mut b = broker();
    let (_, f) = b
        .request_approval(call("s", "Bsh", json!({"command": "ls"})), 0)
        .unwrap();
    let o = f.outcome().unwrap();
    assert_eq!((o.status, o.by), (Status::Denied, By::Registry));
    let fb = o.feedback.unwrap();
    assert_eq!(fb.code, FeedbackCode::UnknownTool);
    assert!(fb.ai_message.contains("Bash"), "{}", fb.ai_message);
    let (_, f) = b
        .request_approval(call("s", "Bash", json!({"cmd": "ls"})), 0)
        .unwrap();
    let fb = f.outcome().unwrap().feedback.unwrap();
    assert_eq!(fb.code, FeedbackCode::InvalidParams);
    assert!(
        fb.message.contains("`input.command` is required"),
        "{}",
        fb.message
    );
}
