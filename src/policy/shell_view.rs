//! The policy as the shell analysis sees it ([`CommandRules`]), and the combination of the
//! judged parts of a command line into one decision.

use crate::decision::{Decider, Decision, Effect, PartDecision, Reason, RuleList};
use crate::rule::{CommandMatch, Specifier};
use crate::shell::{self, CommandRules, Outcome, Reach};
use crate::tool::ToolKind;
use crate::Risk;

use super::evaluate::Call;
use super::index::{ClassIndex, ToolQuery};
use super::settle::{settle, Basis, Effective};

impl CommandRules for Call<'_> {
    fn match_command(&self, list: RuleList, words: &[String]) -> Option<Reason> {
        if list == RuleList::Allow {
            // Allow rules are matched on the words as written only.
            return self.match_command_canonical(list, words, &[]);
        }
        self.match_command_canonical(list, words, &shell::canonical_words(words))
    }

    fn match_command_canonical(
        &self,
        list: RuleList,
        words: &[String],
        canonical: &[String],
    ) -> Option<Reason> {
        let line = words.join(" ");
        let canonical = if list == RuleList::Allow {
            String::new()
        } else {
            canonical.join(" ")
        };
        let q = self.query();
        self.first(list, &|idx: &ClassIndex| {
            let mut out = Vec::new();
            idx.tool_matches(&q, &mut out);
            idx.command_matches(&line, &canonical, &mut out);
            out
        })
    }

    fn first_command_rule(&self, list: RuleList, program: &str) -> Option<Reason> {
        let names_program = |id: &usize| {
            self.policy
                .entries
                .get(*id)
                .is_some_and(|e| match e.rule.specifier() {
                    Some(Specifier::Command(c)) => c
                        .literal_globs()
                        .first()
                        .and_then(|g| g.split(' ').next())
                        .is_some_and(|first| first.eq_ignore_ascii_case(program)),
                    _ => false,
                })
        };
        self.first(list, &|idx: &ClassIndex| {
            let all = idx.command_rules();
            let own: Vec<usize> = all.iter().copied().filter(names_program).collect();
            if own.is_empty() {
                all.to_vec()
            } else {
                own
            }
        })
    }

    fn write_guard(&self, path: &str, reach: Reach) -> Outcome {
        match self.path_candidates(path) {
            Ok(paths) => self
                .write_stopped(path, &paths, reach)
                .unwrap_or(Outcome::NoRule),
            Err(why) => Outcome::Unanalysable { why },
        }
    }

    fn write_rule_naming(&self, path: &str, reach: Reach) -> Outcome {
        match self.path_candidates(path) {
            Ok(paths) => self
                .rules_on(&ToolQuery::WRITE, &paths, ToolWide::Aside)
                .or_else(|| self.rule_reached(path, &paths, reach))
                .unwrap_or(Outcome::NoRule),
            Err(why) => Outcome::Unanalysable { why },
        }
    }

    fn write_protected(&self, path: &str) -> Outcome {
        match self.path_candidates(path) {
            Ok(paths) => self.protected_among(&paths).unwrap_or(Outcome::NoRule),
            Err(why) => Outcome::Unanalysable { why },
        }
    }

    fn protected_reach(&self, path: &str, reach: Reach) -> Outcome {
        match self.path_candidates(path) {
            Ok(paths) => self
                .protected_reached(&paths, reach)
                .unwrap_or(Outcome::NoRule),
            Err(why) => Outcome::Unanalysable { why },
        }
    }

    fn write_outcome(&self, path: &str) -> Outcome {
        let paths = match self.path_candidates(path) {
            Ok(p) => p,
            Err(why) => return Outcome::Unanalysable { why },
        };
        if paths.iter().any(|p| !self.inside(p)) {
            self.writes_outside.set(true);
        }
        if let Some(stopped) = self.write_stopped(path, &paths, Reach::Name) {
            return stopped;
        }
        let q = ToolQuery::WRITE;
        let cwd = self.anchor.as_deref();
        let home = self.home.as_deref();
        let allowed = self.first(RuleList::Allow, &|idx: &ClassIndex| {
            let mut out = Vec::new();
            idx.tool_matches(&q, &mut out);
            // A path rule may still allow what a Copilot flag does not reach.
            self.set_aside_flags(RuleList::Allow, &mut out);
            if !out.is_empty() {
                return out;
            }
            let mut first = Vec::new();
            for (i, p) in paths.iter().enumerate() {
                let mut hits = Vec::new();
                idx.path_matches(ToolKind::Write, p, cwd, home, &mut hits);
                if hits.is_empty() {
                    return Vec::new();
                }
                if i == 0 {
                    first = hits;
                }
            }
            first
        });
        match allowed {
            Some(r) => Outcome::Allowed(r),
            None => Outcome::NoRule,
        }
    }

    fn away_from_project(&self) -> Option<(String, String)> {
        match (&self.cwd, &self.anchor) {
            (Some(cwd), Some(project)) if cwd != project => Some((cwd.clone(), project.clone())),
            _ => None,
        }
    }

    fn read_outcome(&self, path: &str) -> Outcome {
        let paths = match self.path_candidates(path) {
            Ok(p) => p,
            Err(why) => return Outcome::Unanalysable { why },
        };
        let q = ToolQuery::READ;
        if let Some(decided) = self.deny_or_ask(&q, &paths) {
            return decided;
        }
        if let Some(r) = self.secret_read_by(&q, &paths) {
            return Outcome::AskRule(r);
        }
        if paths.iter().all(|p| self.inside(p)) {
            Outcome::ReadOnly
        } else {
            Outcome::NoRule
        }
    }

    fn read_below_outcome(&self, dir: &str) -> Outcome {
        self.read_below_opening(dir, None)
    }

    fn read_below_matching_outcome(&self, dir: &str, patterns: &[String]) -> Outcome {
        self.read_below_opening(dir, Some(patterns))
    }

    fn write_below_outcome(&self, dir: &str) -> Outcome {
        let own = self.write_outcome(dir);
        if !matches!(
            own,
            Outcome::Allowed(_) | Outcome::NoRule | Outcome::ReadOnly | Outcome::Protected { .. }
        ) {
            return own;
        }
        let dirs = match self.path_candidates(dir) {
            Ok(d) => d,
            Err(why) => return Outcome::Unanalysable { why },
        };
        for dir_abs in &dirs {
            if let Some(rule) = self.could_read_below(ToolKind::Write, dir_abs) {
                let name = rule_name(&rule);
                return Outcome::AskRule(Reason {
                    text: format!(
                        "the command writes files below `{dir}` whose names it does not give, \
                         and rule `{name}` covers files there"
                    ),
                    decider: rule.decider,
                });
            }
        }
        // The names are the input's (an archive's members, a patch's files): any of them
        // may be a protected path.
        Outcome::Protected {
            path: format!("{}/**", dir.trim_end_matches('/')),
        }
    }

    fn resolved(&self, path: &str) -> Option<String> {
        match self.request.realpaths.get(path) {
            Some(real) => Some(real.clone()).filter(|r| !r.is_empty()),
            None => self.through_resolved_directory(path)?.ok(),
        }
    }

    fn allow_naming(&self, words: &[String], word: &str) -> Option<Reason> {
        let line = words.join(" ");
        let names_word = |id: &usize| {
            self.policy
                .entries
                .get(*id)
                .is_some_and(|e| match e.rule.specifier() {
                    Some(Specifier::Command(c)) => match &c.matcher {
                        CommandMatch::Exact(p) | CommandMatch::Prefix(p) => {
                            crate::commands::allow_names_unseen(p, word)
                        }
                    },
                    _ => false,
                })
        };
        self.first(RuleList::Allow, &|idx: &ClassIndex| {
            let mut out = Vec::new();
            idx.command_matches(&line, "", &mut out);
            out.retain(names_word);
            out
        })
    }

    fn git_top_levels(&self) -> Option<usize> {
        let top = self.request.git_top.as_deref()?;
        let cwd = self.request.cwd.as_deref()?;
        // Where the working directory really is, when a link leads there.
        let here = match self.request.realpaths.get(".") {
            Some(real) if real.is_empty() => return None,
            Some(real) => real.as_str(),
            None => cwd,
        };
        let (top, here) = (
            crate::path::normalize(top, None, None)?,
            crate::path::normalize(here, None, None)?,
        );
        let depth = |p: &str| p.split('/').filter(|s| !s.is_empty()).count();
        crate::path::contains(&top, &here).then(|| depth(&here) - depth(&top))
    }

    fn glob_paths(&self, pattern: &str) -> Vec<String> {
        self.request
            .realpaths
            .keys()
            .filter(|k| *k != "." && shell::glob::matches(pattern, k))
            .cloned()
            .collect()
    }

    fn read_rules_outcome(&self, paths: &[String]) -> Option<Outcome> {
        let mut all = Vec::with_capacity(paths.len());
        for p in paths {
            all.extend(self.path_candidates(p).unwrap_or_default());
        }
        let q = ToolQuery::READ;
        self.deny_or_ask(&q, &all)
    }

    fn is_critical(&self, path: &str) -> bool {
        let Some(p) = self.normalize(path) else {
            // What cannot be resolved might be anything: treat it as critical.
            return true;
        };
        self.spellings(&p).iter().any(|p| {
            crate::path::segments(p).count() <= 1
                || self.home.as_deref() == Some(p.as_str())
                || self
                    .cwd
                    .as_deref()
                    .is_some_and(|c| crate::path::contains(p, c))
        })
    }
}

/// The text of the rule that decided `reason`, or nothing when no rule did.
fn rule_name(reason: &Reason) -> String {
    match &reason.decider {
        Decider::Rule { rule, .. } => rule.clone(),
        _ => String::new(),
    }
}

/// Whether a rule on a whole file tool (`Edit`) counts for a path ([`Call::rules_on`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum ToolWide {
    Counts,
    Aside,
}

impl Call<'_> {
    /// A read of every file below `dir`, opening only the files one of `patterns` matches
    /// when there are some ([`CommandRules::read_below_matching_outcome`]): the read of
    /// `dir` itself, a Read deny or ask rule that could match a file below it, and a secret
    /// file the host found there that the search opens.
    fn read_below_opening(&self, dir: &str, patterns: Option<&[String]>) -> Outcome {
        let own = self.read_outcome(dir);
        if !matches!(own, Outcome::ReadOnly | Outcome::NoRule) {
            return own;
        }
        // The directory as written and, when it is (or passes through) a link, where it
        // leads: the files below either are read.
        let dirs = match self.path_candidates(dir) {
            Ok(d) => d,
            Err(why) => return Outcome::Unanalysable { why },
        };
        for dir_abs in &dirs {
            if let Some(rule) = self.could_read_below(ToolKind::Read, dir_abs) {
                return Outcome::AskRule(Reason {
                    text: format!(
                        "a file below `{dir}` could match a rule, and the command reads every file there: {}",
                        rule.text
                    ),
                    decider: rule.decider,
                });
            }
        }
        let read = ToolQuery::READ;
        for dir_abs in &dirs {
            if let Some(reason) = self.secret_below(&read, dir_abs, patterns) {
                return Outcome::AskRule(reason);
            }
        }
        own
    }

    /// The first deny, then ask, rule that covers a call of the file tool `q` on any of
    /// `paths` (a path and its real path), as that tool itself would be judged.
    fn deny_or_ask(&self, q: &ToolQuery, paths: &[String]) -> Option<Outcome> {
        self.rules_on(q, paths, ToolWide::Counts)
    }

    /// [`Call::deny_or_ask`], with the rules on the whole tool (`Edit`, `Write(*)`) counted
    /// or set aside.
    fn rules_on(&self, q: &ToolQuery, paths: &[String], tool_wide: ToolWide) -> Option<Outcome> {
        let cwd = self.anchor.as_deref();
        let home = self.home.as_deref();
        let any = |list: RuleList| {
            self.first(list, &|idx: &ClassIndex| {
                let mut out = Vec::new();
                if tool_wide == ToolWide::Counts {
                    idx.tool_matches(q, &mut out);
                }
                for p in paths.iter().flat_map(|p| self.spellings(p)) {
                    idx.path_matches(q.kind, &p, cwd, home, &mut out);
                }
                out
            })
        };
        if let Some(r) = any(RuleList::Deny) {
            return Some(Outcome::Denied(r));
        }
        any(RuleList::Ask).map(Outcome::AskRule)
    }

    /// What stops a write of any of `paths` (`word` as the line writes it: a path and its
    /// real path) whatever allows it: an Edit or Write deny or ask rule on the name, else
    /// one that could match what the write reaches beyond it, else a protected path the
    /// write reaches.
    fn write_stopped(&self, word: &str, paths: &[String], reach: Reach) -> Option<Outcome> {
        let q = ToolQuery::WRITE;
        if let Some(decided) = self.deny_or_ask(&q, paths) {
            return Some(decided);
        }
        self.rule_reached(word, paths, reach)
            .or_else(|| self.protected_reached(paths, reach))
    }

    /// The first Edit or Write deny, then ask, rule that could match what a write of any of
    /// `paths` (`word` as the line writes it, resolved) reaches beyond the name itself (see
    /// [`Reach`]): a file below it, or a name that begins with it. Such a rule asks, as the
    /// name the program writes may or may not be one the rule covers.
    fn rule_reached(&self, word: &str, paths: &[String], reach: Reach) -> Option<Outcome> {
        let rule = paths.iter().find_map(|p| self.write_reach_rule(p, reach))?;
        let name = rule_name(&rule);
        let text = match reach {
            Reach::Prefix => format!(
                "the command may write `{word}`, a file below it, or one whose name begins \
                 with it, and rule `{name}` covers such a file"
            ),
            _ => format!(
                "the command may write files below `{word}`, and rule `{name}` covers files there"
            ),
        };
        Some(Outcome::AskRule(Reason {
            text,
            decider: rule.decider,
        }))
    }

    /// The first of `paths` that is a protected path.
    fn protected_among(&self, paths: &[String]) -> Option<Outcome> {
        self.protected_reached(paths, Reach::Name)
    }

    /// The first of `paths` whose write reaches a protected path (see [`Reach`]), as the
    /// protected place's pattern: the path itself, `path/**` when one may be below it,
    /// `path*` when one may begin with it.
    fn protected_reached(&self, paths: &[String], reach: Reach) -> Option<Outcome> {
        let cwd = self.anchor.as_deref();
        let is = |p: &str, r: Reach| self.reaches_protected(p, cwd, r);
        paths.iter().find(|p| is(p, reach)).map(|p| {
            let path = if reach == Reach::Name || is(p, Reach::Name) {
                p.clone()
            } else if is(p, Reach::Tree) {
                format!("{}/**", p.trim_end_matches('/'))
            } else {
                format!("{p}*")
            };
            Outcome::Protected { path }
        })
    }
}

/// Decides a shell call: judge every part, apply the mode to each, combine. Also hands back
/// the line's simple commands from the judgement's parse, when it parsed the line.
pub(crate) fn decide_shell(
    call: &Call<'_>,
    mode: &Effective,
) -> (Decision, Option<Vec<Vec<String>>>) {
    let Some(line) = call.request.input_str("command") else {
        // A deny or ask rule on the tool itself still decides.
        let basis = match (
            call.match_command(RuleList::Deny, &[]),
            call.match_command(RuleList::Ask, &[]),
        ) {
            (Some(r), _) => Basis::Denied(r),
            (None, Some(r)) => Basis::AskRule(r),
            (None, None) => Basis::Unanalysable(format!(
                "`{}` has no `command` string in its input",
                call.tool.name
            )),
        };
        let (effect, reason) = settle(basis, mode, ToolKind::Shell);
        let decision = Decision {
            effect,
            risk: call.tool.defaults.risk,
            trustable: false,
            reason,
            parts: Vec::new(),
            dangers: Vec::new(),
        };
        return (decision, None);
    };
    let (parts, commands) = shell::judge_keeping_commands(line, call);
    // The host marks a line whose paths it could not all resolve (`.` mapped to nothing):
    // any of them may lead elsewhere, so nothing short of a rule's ask or deny decides it.
    let unresolved = call
        .request
        .realpaths
        .get(".")
        .is_some_and(String::is_empty);
    let mut decided = Vec::with_capacity(parts.len());
    let mut safe = true;
    let mut all_read_only = true;
    for part in parts {
        let basis = match part.outcome {
            Outcome::Denied(r) => Basis::Denied(r),
            Outcome::AskRule(r) => Basis::AskRule(r),
            Outcome::Critical { path } => Basis::Critical(path),
            Outcome::Protected { path } => Basis::Protected(path),
            Outcome::Allowed(r) => Basis::Allowed(r),
            Outcome::ReadOnly => Basis::ReadOnly(format!(
                "`{}` is a read-only command inside the working directory",
                part.text
            )),
            Outcome::NoRule => call.default_basis(&[]),
            Outcome::Unanalysable { why } => Basis::Unanalysable(why),
        };
        let basis = match basis {
            b @ (Basis::Denied(_) | Basis::AskRule(_) | Basis::Critical(_)) => b,
            _ if unresolved => Basis::Unanalysable(
                "the command names paths the host could not all resolve (symlinks it could not follow, globs it could not list, searches below more names than it looks at or below a `~` root, or paths such as `/proc/self/cwd` that lead where the process opening them sees)"
                    .to_owned(),
            ),
            b => b,
        };
        safe &= basis.analysable_and_safe();
        all_read_only &= matches!(basis, Basis::ReadOnly(_));
        let (effect, reason) = settle(basis, mode, ToolKind::Shell);
        decided.push(PartDecision {
            part: part.text,
            effect,
            reason,
            dangers: Vec::new(),
        });
    }
    let effect = decided
        .iter()
        .map(|p| p.effect)
        .max()
        .unwrap_or(Effect::Ask);
    let reason = match decided.as_slice() {
        [] => Reason {
            decider: Decider::Unanalysable {
                detail: "nothing to run".into(),
            },
            text: "the command has nothing to run".into(),
        },
        [one] => one.reason.clone(),
        many => super::dangers::overall_reason(many, effect),
    };
    let risk = if all_read_only && !decided.is_empty() {
        Risk::Low
    } else {
        call.tool.defaults.risk
    };
    let parts = if decided.len() > 1 {
        decided
    } else {
        Vec::new()
    };
    let decision = Decision {
        effect,
        risk,
        trustable: effect != Effect::Deny && safe && !untrustable_line(call, commands.as_deref()),
        reason,
        parts,
        dangers: Vec::new(),
    };
    (decision, commands)
}

/// Whether a remembered answer must not stand in for a person on this line, whatever rule
/// it names: the line deletes, writes outside the project's roots, or runs away from the
/// project directory, where its relative words name other files than where it was granted.
fn untrustable_line(call: &Call<'_>, commands: Option<&[Vec<String>]>) -> bool {
    let absolute = |dir: Option<&str>| dir.and_then(|d| crate::path::normalize(d, None, None));
    commands.is_some_and(|c| c.iter().any(|words| may_delete(words)))
        || call.writes_outside.get()
        || call.away_from_project().is_some()
        // Where the line's relative words lead is unknown with a working directory that is
        // not absolute (an empty or relative `cwd` or `root`; a host that gives none has no
        // directories to tell apart).
        || (call.request.cwd.is_some() && absolute(call.request.cwd.as_deref()).is_none())
        || (call.request.root.is_some() && absolute(call.request.root.as_deref()).is_none())
}

/// Whether a simple command may delete files, in the widest reading: any of its words is a
/// destructive program ([`shell::is_destructive`]) in any directory, so a wrapper, a runner
/// or `find -exec` in front of it changes nothing.
fn may_delete(words: &[String]) -> bool {
    words
        .iter()
        .any(|w| shell::is_destructive(w.rsplit(['/', '\\']).next().unwrap_or(w)))
}

#[cfg(test)]
mod tests {
    use crate::{Policy, Request};

    fn trustable(command: &str, cwd: &str) -> bool {
        let policy =
            Policy::from_json(r#"{"permissions":{"additionalDirectories":["/data"]}}"#).unwrap();
        let request = serde_json::json!({
            "tool": "Bash", "input": {"command": command}, "cwd": cwd, "root": "/p"
        });
        let d = policy.evaluate(&Request::from_json(&request.to_string()).unwrap());
        assert_eq!(d.effect, crate::Effect::Ask, "{command}: {d:?}");
        d.trustable
    }

    /// The decision on the shell line `command` in `/p` under `policy`.
    fn decide(policy: &str, command: &str) -> crate::Effect {
        let request = serde_json::json!({
            "tool": "Bash", "input": {"command": command}, "cwd": "/p"
        });
        let policy = Policy::from_json(policy).unwrap();
        policy
            .evaluate(&Request::from_json(&request.to_string()).unwrap())
            .effect
    }

    #[test]
    fn an_unknown_writer_s_bare_words_meet_rules_that_name_a_file() {
        let named = r#"{"permissions":{"allow":["Bash(gcc *)","Bash(xxd *)"],
            "deny":["Edit(./Makefile)"]}}"#;
        assert_eq!(decide(named, "gcc -o Makefile x.c"), crate::Effect::Deny);
        assert_eq!(decide(named, "xxd -r x.hex Makefile"), crate::Effect::Deny);
        assert_eq!(decide(named, "gcc -o app x.c"), crate::Effect::Allow);
        // A deny of every edit names no file: a bare value is not taken for one.
        let every = r#"{"permissions":{"allow":["Bash(cargo *)","Bash(gcc *)"],"deny":["Edit"]}}"#;
        assert_eq!(
            decide(every, "cargo build -p app -j 4"),
            crate::Effect::Allow
        );
        assert_eq!(decide(every, "gcc -o out/app x.c"), crate::Effect::Deny);
        // An option's value at the project's root named as a git directory's file.
        let open = r#"{"permissions":{"allow":["Bash(openssl *)","Bash(gcc *)"]}}"#;
        assert_eq!(
            decide(open, "openssl base64 -d -out HEAD"),
            crate::Effect::Ask
        );
        assert_eq!(decide(open, "gcc x.c -oconfig"), crate::Effect::Ask);
    }

    #[test]
    fn an_unknown_writer_s_words_meet_rules_on_names_it_composes_and_files_below() {
        let named = r#"{"permissions":{"allow":["Bash(split *)"],
            "deny":["Edit(./Makefile)"]}}"#;
        // split names its pieces PREFIX + letters + the additional suffix: `Makefile`.
        for command in [
            "split -l1 -a1 --additional-suffix=file a5.txt Mak",
            "split -l1 a5.txt ./Ma",
        ] {
            assert_eq!(decide(named, command), crate::Effect::Ask, "{command}");
        }
        assert_eq!(decide(named, "split -l1 a5.txt part"), crate::Effect::Allow);
        let tree = r#"{"permissions":{"allow":["Bash(gcc *)","Bash(rustc *)","Bash(cargo *)"],
            "ask":["Write(./src/**)"]}}"#;
        for command in [
            "gcc -c -dumpdir src/ -save-temps x.c",
            "gcc -fprofile-dir=src x.c",
            "rustc --out-dir src x.rs",
            "rustc -C incremental=./src x.rs",
            "cargo build --target-dir src",
        ] {
            assert_eq!(decide(tree, command), crate::Effect::Ask, "{command}");
        }
        for command in ["gcc -o app x.c", "rustc --out-dir out x.rs", "cargo build"] {
            assert_eq!(decide(tree, command), crate::Effect::Allow, "{command}");
        }
        // A rule on a name at any depth meets the names a word begins, not the files a
        // program chooses below it.
        let anywhere = r#"{"permissions":{"allow":["Bash(split *)","Bash(gcc *)","Bash(npm *)"],
            "deny":["Edit(.env)","Edit(**/*.pem)"]}}"#;
        for command in [
            "split -l1 x .en",
            "split -l1 x sub/.en",
            "split -l1 x key.p",
        ] {
            assert_eq!(decide(anywhere, command), crate::Effect::Ask, "{command}");
        }
        for command in ["gcc -o app x.c", "npm test", "split -l1 x sub/part"] {
            assert_eq!(decide(anywhere, command), crate::Effect::Allow, "{command}");
        }
    }

    #[test]
    fn deletes_are_never_trustable() {
        for line in [
            "rm -rf build",
            "rm notes.txt",
            "rmdir build",
            "unlink notes.txt",
            "shred notes.txt",
            "/bin/rm notes.txt",
            "find build -name '*.o' -delete",
            "find build -exec rm {} +",
            "npm test && rm -r dist",
            "mv notes.txt old.txt",
        ] {
            assert!(!trustable(line, "/p"), "{line}");
        }
    }

    #[test]
    fn writes_outside_the_roots_are_never_trustable() {
        for line in [
            "echo pwned > /tmp/x/victim/notes.txt",
            "echo pwned >> ../victim/notes.txt",
            "cp notes.txt /tmp/x/victim/",
            "npm test | tee /tmp/log",
        ] {
            assert!(!trustable(line, "/p"), "{line}");
        }
        for line in [
            "echo hi > notes.txt",
            "echo hi > /data/notes.txt",
            "npm test",
        ] {
            assert!(trustable(line, "/p"), "{line}");
        }
    }

    #[test]
    fn lines_without_an_absolute_working_directory_are_never_trustable() {
        let policy = Policy::from_json("{}").unwrap();
        for (cwd, root) in [
            ("", "/p"),
            (".", "/p"),
            ("sub", "/p"),
            ("/p", "sub"),
            ("/p", ""),
        ] {
            let request = serde_json::json!({
                "tool": "Bash", "input": {"command": "touch ../outside/x"}, "cwd": cwd, "root": root
            });
            let d = policy.evaluate(&Request::from_json(&request.to_string()).unwrap());
            assert!(!d.trustable, "{cwd:?} {root:?}: {d:?}");
        }
    }

    #[test]
    fn lines_run_away_from_the_project_directory_are_never_trustable() {
        assert!(trustable("npm test", "/p"));
        assert!(!trustable("npm test", "/p/sub"));
        assert!(!trustable("npm test", "/tmp/x/victim"));
    }
}
