//! Canonical command words, so that flag spellings cannot dodge a deny rule.
//!
//! For a documented set of commands, flags are split (`-rf` → `-r -f`), long flags are
//! mapped to their short form (`--force` → `-f`, also unambiguous prefixes such as
//! `--rec`), flags are sorted and deduplicated and moved before the operands. For every
//! command the program name loses its directory (`/bin/rm` → `rm`).

mod flags;
mod subcommands;

pub use flags::CANONICAL_COMMANDS;
use flags::{spec_for, Spec};
pub(crate) use subcommands::{has_subcommands, subcommand_readings};

/// A command split into its canonical pieces.
pub(crate) struct Canonical {
    /// The program name (and git subcommand).
    pub head: Vec<String>,
    /// Flag units (a flag and its value), sorted and deduplicated.
    pub flags: Vec<Vec<String>>,
    /// Operands in their order.
    pub operands: Vec<String>,
    /// Whether flags were understood (otherwise `operands` is the rest as written).
    pub parsed: bool,
}

impl Canonical {
    /// The words of this form with only the flag units `keep` (indices into `flags`).
    pub(crate) fn words_with(&self, keep: &[usize]) -> Vec<String> {
        let mut out = self.head.clone();
        for i in keep {
            if let Some(unit) = self.flags.get(*i) {
                out.extend(unit.iter().cloned());
            }
        }
        if self.parsed && self.operands.iter().any(|o| o.starts_with('-')) {
            out.push("--".to_owned());
        }
        out.extend(self.operands.iter().cloned());
        out
    }

    /// All words.
    pub(crate) fn words(&self) -> Vec<String> {
        let all: Vec<usize> = (0..self.flags.len()).collect();
        self.words_with(&all)
    }
}

/// The program name without its directory (`/usr/bin/rm` → `rm`).
pub(crate) fn program_name(word: &str) -> &str {
    crate::commands::program_name(word)
}

/// git's global options (`git help git`), dropped before the subcommand so that
/// `git -c a=b push`, `git -C x push` and `git --literal-pathspecs push` are `git push`.
/// Those that take the next word as their value: the one list every reader of git's
/// command line (the writes table, the danger classifier) skips them by.
pub(crate) const GIT_GLOBAL_WITH_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--list-cmds",
    "--attr-source",
];
const GIT_GLOBAL_FLAGS: &[&str] = &[
    "--no-pager",
    "-P",
    "--paginate",
    "-p",
    "--no-optional-locks",
    "--no-replace-objects",
    "--bare",
    "--literal-pathspecs",
    "--glob-pathspecs",
    "--noglob-pathspecs",
    "--icase-pathspecs",
    "--no-lazy-fetch",
    "--no-advice",
    "--exec-path",
];

/// The program `first` runs, as rules name it: without its directory, in lower case, and
/// without `.exe` or `.com` (`/BIN/RM.EXE` is `rm`); `*` stays.
fn folded_program(first: &str) -> String {
    if first == "*" {
        return first.to_owned();
    }
    let lower = program_name(first).to_lowercase();
    match lower.strip_suffix(".exe").or(lower.strip_suffix(".com")) {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ => lower,
    }
}

/// Splits `words` into canonical pieces.
pub(crate) fn canonicalise(words: &[String]) -> Canonical {
    let mut rest = words.iter();
    let Some(first) = rest.next() else {
        return Canonical {
            head: Vec::new(),
            flags: Vec::new(),
            operands: Vec::new(),
            parsed: false,
        };
    };
    // The program's name in lower case: on a case-insensitive file system (macOS and
    // Windows by default) `RM` and `/BIN/RM` run `rm`, and deny and ask rules take the
    // widest reading. Subcommands keep their case (`git PUSH` is no git command).
    // Windows runs `rm.exe` for `rm` (Git Bash, MSYS2, WSL's interop), so the suffix goes too.
    let folded = folded_program(first);
    let name = folded.as_str();
    let mut head = vec![name.to_owned()];
    let mut rest: Vec<&String> = rest.collect();
    if name == "git" {
        // Options that only say where the repository is do not change what git does.
        let mut i = 0;
        while let Some(w) = rest.get(i) {
            if GIT_GLOBAL_WITH_VALUE.contains(&w.as_str()) {
                i += 2;
            } else if GIT_GLOBAL_FLAGS.contains(&w.as_str())
                || w.starts_with("--exec-path=")
                || GIT_GLOBAL_WITH_VALUE
                    .iter()
                    .any(|g| w.starts_with(&format!("{g}=")))
            {
                i += 1;
            } else {
                break;
            }
        }
        rest = rest.get(i..).map(<[&String]>::to_vec).unwrap_or_default();
        if let Some(sub) = rest.first() {
            head.push((*sub).clone());
            rest.remove(0);
        }
    }
    if name == "npm" {
        // npm's options may come first; its aliases and abbreviations name a command
        // (`npm pub` is `npm publish`, `npm i` is `npm install`).
        let at = rest.iter().position(|w| !w.starts_with('-'));
        if let Some(at) = at {
            let word = rest.remove(at);
            let command = crate::commands::npm_command(word).map_or(word.clone(), str::to_owned);
            head.push(command);
        }
    }
    let sub = head.get(1).map(String::as_str);
    let Some(spec) = spec_for(name, sub) else {
        return Canonical {
            head,
            flags: Vec::new(),
            operands: rest.into_iter().cloned().collect(),
            parsed: false,
        };
    };
    let mut flags: Vec<Vec<String>> = Vec::new();
    let mut operands = Vec::new();
    let mut it = rest.into_iter().peekable();
    let mut only_operands = false;
    while let Some(w) = it.next() {
        if only_operands || w == "*" || w == "-" || !w.starts_with('-') {
            if name == "git" && sub == Some("push") && w.starts_with('+') {
                // `git push origin +main` is a force push.
                flags.push(vec!["-f".to_owned()]);
            }
            operands.push(w.clone());
        } else if w == "--" {
            only_operands = true;
        } else if let Some(long) = w.strip_prefix("--") {
            let (lname, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            match spec.long(lname) {
                Some((full, short, takes)) => {
                    let key = if short == '\0' {
                        format!("--{full}")
                    } else {
                        format!("-{short}")
                    };
                    let mut unit = vec![key];
                    if takes {
                        if let Some(v) = value.or_else(|| it.next().cloned()) {
                            unit.push(v);
                        }
                    }
                    flags.push(unit);
                }
                None => flags.push(vec![w.clone()]),
            }
        } else if !splittable(&spec, w) {
            flags.push(vec![w.clone()]);
        } else {
            let mut letters = w.chars().skip(1);
            while let Some(c) = letters.next() {
                match spec.short(c) {
                    Some((s, true)) => {
                        let attached: String = letters.by_ref().collect();
                        let value = if attached.is_empty() {
                            it.next().cloned()
                        } else {
                            Some(attached)
                        };
                        let mut unit = vec![format!("-{s}")];
                        unit.extend(value);
                        flags.push(unit);
                    }
                    Some((s, false)) => flags.push(vec![format!("-{s}")]),
                    None => flags.push(vec![format!("-{c}")]),
                }
            }
        }
    }
    flags.sort();
    flags.dedup();
    Canonical {
        head,
        flags,
        operands,
        parsed: true,
    }
}

/// Whether a short-flag cluster is made of letters (up to a flag that takes the rest as
/// its value); anything else is kept as one word.
fn splittable(spec: &Spec, cluster: &str) -> bool {
    for c in cluster.chars().skip(1) {
        if !c.is_ascii_alphanumeric() {
            return false;
        }
        if let Some((_, true)) = spec.short(c) {
            return true;
        }
    }
    true
}

/// Forms of `words` to test against deny and ask rules: the words as written (a rule with a
/// glob inside a word, `Bash(rm -rf*)`, matches the spelling it names), the canonical form,
/// then the same command with only some of its flags, so that a rule naming a few flags
/// matches a command that adds more (`rm -rf x` rule, `rm -rfv x` command).
pub(crate) fn deny_forms(words: &[String]) -> Vec<Vec<String>> {
    deny_probes(words).into_iter().map(|p| p.words).collect()
}

/// A form of a command to look up in deny and ask rules, with its canonical form
/// (`canonical_words(&words)`, which the rules' canonical patterns are matched against)
/// when it is known already.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    /// The form's words.
    pub words: Vec<String>,
    /// `canonical_words(&words)`, or `None` to work it out when the form is looked up.
    pub canonical: Option<Vec<String>>,
}

/// [`deny_forms`], with the canonical form of those whose canonical form is known without
/// more work: the form as written has the canonical form just computed, and the canonical
/// form is its own when it equals the words as written. The others (the canonical form of
/// a respelt command, the subsets of its flags) are canonicalised when looked up, so a
/// look-up budget that runs out also bounds that work.
pub(crate) fn deny_probes(words: &[String]) -> Vec<Probe> {
    let mut out = spelling_probes(words);
    for spelling in subcommand_spellings(words) {
        out.extend(spelling_probes(&spelling));
    }
    if let Some(push) = as_git_push(words) {
        out.extend(spelling_probes(&push));
    }
    out
}

/// npm commands that run another one first, which deny and ask rules on that one also take:
/// `npm install-test` runs `npm install`, `npm install-ci-test` runs `npm ci`, a clean install.
const NPM_COMMANDS_RUN_FIRST: &[(&str, &[&str])] = &[
    ("install-test", &["install"]),
    ("install-ci-test", &["ci", "install"]),
];

/// The other readings of `words` that deny and ask rules take (allow rules take only the
/// command as written): for a program with subcommands, the command from each word its
/// subcommand may be read as ([`subcommand_readings`]), its global options dropped
/// (`npm --registry URL publish`, `pip -v install x`, `aws --region r s3 rm x`, and between
/// the subcommand's words where the program takes them there: `aws s3 --region r rm x`); for npm,
/// also each command the subcommand word may name ([`crate::commands::npm_commands`]) and
/// the one it runs first ([`NPM_COMMANDS_RUN_FIRST`]: `npm it` is `npm install` too).
///
/// ```text
/// subcommand_spellings("npm --otp 1 publish") == ["npm publish"]
/// subcommand_spellings("npm it") == ["npm install-test", "npm install"]
/// ```
fn subcommand_spellings(words: &[String]) -> Vec<Vec<String>> {
    let Some((first, args)) = words.split_first() else {
        return Vec::new();
    };
    let name = folded_program(first);
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut push = |spelling: Vec<String>| {
        if spelling.as_slice() != words && !out.contains(&spelling) {
            out.push(spelling);
        }
    };
    if let Some(module) = python_module_spelling(&name, first, args) {
        push(module);
    }
    let Some(readings) = subcommand_readings(&name, args) else {
        return out;
    };
    for reading in readings {
        let rest: Vec<String> = reading
            .iter()
            .filter_map(|i| args.get(*i))
            .cloned()
            .collect();
        push(
            std::iter::once(first.clone())
                .chain(rest.iter().cloned())
                .collect(),
        );
        let Some((word, after)) = rest.split_first().filter(|_| name == "npm") else {
            continue;
        };
        for command in crate::commands::npm_commands(word) {
            let run_first = NPM_COMMANDS_RUN_FIRST
                .iter()
                .find(|(c, _)| *c == command)
                .map_or(&[][..], |(_, first)| *first);
            for sub in std::iter::once(command).chain(run_first.iter().copied()) {
                let spelling = [first.clone(), sub.to_owned()]
                    .into_iter()
                    .chain(after.iter().cloned())
                    .collect();
                push(spelling);
            }
        }
    }
    out
}

/// Python's module run (`-mpip`, `-Im pip`, `-I -m pip.__main__`: the module reader of
/// [`crate::commands::python_module`]) spelt `python -m PACKAGE`, its top package.
///
/// ```text
/// python_module_spelling("python3 -Im pip.__main__ install x") == "python3 -m pip install x"
/// ```
fn python_module_spelling(name: &str, first: &str, args: &[String]) -> Option<Vec<String>> {
    let (base, _) = crate::commands::interpreter_base(name)?;
    if *base != "python" {
        return None;
    }
    let (module, rest) = crate::commands::python_module(args)?;
    let top = module.split('.').next().unwrap_or(module);
    let head = [first, "-m", top].map(str::to_owned);
    Some(head.into_iter().chain(rest.iter().cloned()).collect())
}

/// git's other spellings of a push (`git send-pack URL REFS`, `git http-push URL REFS`
/// update another repository as `git push URL REFS` does): deny and ask rules on `git push`
/// take them as `git push`, while an allow rule on `git push` does not cover them.
const GIT_PUSH_SPELLINGS: &[&str] = &["send-pack", "http-push"];

/// `words` with its git subcommand respelt `push`, when it is one of
/// [`GIT_PUSH_SPELLINGS`].
fn as_git_push(words: &[String]) -> Option<Vec<String>> {
    let c = canonicalise(words);
    let (Some("git"), Some(sub)) = (
        c.head.first().map(String::as_str),
        c.head.get(1).map(String::as_str),
    ) else {
        return None;
    };
    if !GIT_PUSH_SPELLINGS.contains(&sub) {
        return None;
    }
    let at = words.iter().skip(1).position(|w| w == sub)? + 1;
    let mut push = words.to_vec();
    *push.get_mut(at)? = "push".to_owned();
    Some(push)
}

/// The probes of one spelling of a command ([`deny_probes`]).
fn spelling_probes(words: &[String]) -> Vec<Probe> {
    const MAX_FLAGS: usize = 10;
    const MAX_RULE_FLAGS: usize = 3;
    /// Longer commands are matched in their canonical form only, keeping the cost linear.
    const MAX_WORDS: usize = 64;
    let probe = |words: Vec<String>| Probe {
        words,
        canonical: None,
    };
    let c = canonicalise(words);
    let canonical = c.words();
    let mut out = Vec::new();
    if canonical.as_slice() == words {
        out.push(Probe {
            words: canonical.clone(),
            canonical: Some(canonical),
        });
    } else {
        out.push(Probe {
            words: words.to_vec(),
            canonical: Some(canonical.clone()),
        });
        out.push(probe(canonical));
    }
    let n = c.flags.len().min(MAX_FLAGS);
    if n < 2 || words.len() > MAX_WORDS {
        return out;
    }
    // Proper subsets of up to MAX_RULE_FLAGS flag units, in index order (kept sorted).
    let mut stack: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    while let Some(subset) = stack.pop() {
        if subset.len() < c.flags.len() {
            out.push(probe(c.words_with(&subset)));
        }
        if subset.len() < MAX_RULE_FLAGS {
            let last = subset.last().copied().unwrap_or(0);
            for next in last + 1..n {
                let mut s = subset.clone();
                s.push(next);
                stack.push(s);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(line: &str) -> String {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        canonicalise(&words).words().join(" ")
    }

    #[test]
    fn flag_spellings_agree() {
        for line in [
            "rm -rf /tmp/x",
            "rm -fr /tmp/x",
            "rm -r -f /tmp/x",
            "rm --recursive --force /tmp/x",
            "rm --rec --for /tmp/x",
            "rm -R -f /tmp/x",
            "/bin/rm -f /tmp/x -r",
            "rm -f -r -f /tmp/x",
        ] {
            assert_eq!(canon(line), "rm -f -r /tmp/x", "{line}");
        }
    }

    /// The forms deny and ask rules are matched against for `line` (words split at spaces).
    fn probes(line: &str) -> Vec<String> {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        deny_forms(&words)
            .into_iter()
            .map(|f| f.join(" "))
            .collect()
    }

    #[test]
    fn other_spellings_of_a_push_are_probed_as_git_push() {
        for line in [
            "git send-pack --force https://h/r.git main",
            "git -C . http-push https://h/r main",
        ] {
            let forms = probes(line);
            assert!(
                forms.iter().any(|f| f.starts_with("git push ")),
                "{line}: {forms:?}"
            );
        }
        assert!(probes("git send-pack --force u main").contains(&"git push -f u main".to_owned()));
        assert!(!probes("git fetch-pack u")
            .iter()
            .any(|f| f.starts_with("git push")));
    }

    #[test]
    fn deny_forms_drop_global_options_before_the_subcommand_in_every_reading() {
        for (line, form) in [
            ("npm --registry http://r/ publish", "npm publish"),
            ("npm --workspace a publish", "npm publish"),
            ("npm -w a publish", "npm publish"),
            ("npm --otp 1 publish", "npm publish"),
            ("npm -L project publish", "npm publish"),
            ("npm --foo bar publish", "npm publish"),
            ("npm --otp 1 pub", "npm publish"),
            ("npm it", "npm install"),
            ("npm cit", "npm install"),
            ("npm sit", "npm ci"),
            ("npm isnt", "npm install"),
            ("pip -v install x", "pip install x"),
            ("pip --isolated install x", "pip install x"),
            ("pip --proxy http://p install x", "pip install x"),
            ("pip3 --python python3 install x", "pip3 install x"),
            ("cargo --color always publish", "cargo publish"),
            ("aws --region us-east-1 s3 rm s3://x", "aws s3 rm s3://x"),
            ("aws --debug s3 rm s3://x", "aws s3 rm s3://x"),
            ("python3 -mpip install x", "python3 -m pip install x"),
            (
                "python3 -I -m pip.__main__ install x",
                "python3 -m pip install x",
            ),
        ] {
            let forms = probes(line);
            assert!(forms.contains(&form.to_owned()), "{line}: {forms:?}");
        }
        assert!(!probes("npm run build")
            .iter()
            .any(|f| f.contains("publish")));
    }

    #[test]
    fn deny_forms_drop_global_options_between_subcommand_words() {
        for (line, form) in [
            (
                "aws s3 --endpoint-url http://127.0.0.1:8765 rm s3://b/k",
                "aws s3 rm s3://b/k",
            ),
            ("aws s3 --region x rm s3://b/k", "aws s3 rm s3://b/k"),
            ("aws s3 --debug rm s3://b/k", "aws s3 rm s3://b/k"),
            ("aws s3 --profile p rm s3://b/k", "aws s3 rm s3://b/k"),
            ("aws s3 --output json rm s3://b/k", "aws s3 rm s3://b/k"),
            ("aws s3 --no-paginate rm s3://b/k", "aws s3 rm s3://b/k"),
            ("aws s3 --no-verify-ssl rm s3://b/k", "aws s3 rm s3://b/k"),
            (
                "aws s3 --endpoint-url=http://e rm s3://b/k",
                "aws s3 rm s3://b/k",
            ),
            (
                "aws --debug s3 --region x rm s3://b/k",
                "aws s3 rm s3://b/k",
            ),
            // An option the table does not know may take the next word, or not.
            ("aws s3 --frob x rm s3://b/k", "aws s3 rm s3://b/k"),
            ("aws s3 --frob x rm s3://b/k", "aws s3 x rm s3://b/k"),
            (
                "gcloud compute --project p instances --zone z delete vm",
                "gcloud compute instances delete vm",
            ),
            // A release track runs the same command.
            (
                "gcloud beta compute instances delete vm1 --zone z --quiet",
                "gcloud compute instances delete vm1 --zone z --quiet",
            ),
            (
                "gcloud alpha storage rm gs://b/k",
                "gcloud storage rm gs://b/k",
            ),
            (
                "kubectl config --kubeconfig k delete-context c",
                "kubectl config delete-context c",
            ),
            ("kubectl -n x delete pod p", "kubectl delete pod p"),
            ("gh pr -R o/r merge 1", "gh pr merge 1"),
            ("helm repo --kube-context c remove r", "helm repo remove r"),
            (
                "az group --subscription s delete -n g",
                "az group delete -n g",
            ),
        ] {
            let forms = probes(line);
            assert!(forms.contains(&form.to_owned()), "{line}: {forms:?}");
        }
        // docker, podman and nerdctl take their options before the first subcommand only.
        assert!(!probes("docker image --context x rm i").contains(&"docker image rm i".to_owned()));
        // Only global options are dropped: the operation's own stay.
        assert!(probes("aws s3 rm --recursive s3://b")
            .contains(&"aws s3 rm --recursive s3://b".to_owned()));
    }

    #[test]
    fn readings_of_many_unknown_options_stay_bounded() {
        let split = |line: &str| -> Vec<String> { line.split(' ').map(str::to_owned).collect() };
        let mut line = "aws s3".to_owned();
        for i in 0..200 {
            line.push_str(&format!(" --o{i} v{i}"));
        }
        line.push_str(" rm s3://b/k");
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        let forms = deny_forms(&words);
        assert!(forms.len() <= 200, "{}", forms.len());
        // The reading in which every unknown option takes a value comes first.
        assert!(forms.contains(&split("aws s3 rm s3://b/k")));
        let mut line = "gcloud compute --quiet instances".to_owned();
        for i in 0..200 {
            line.push_str(&format!(" --o{i} v{i}"));
        }
        line.push_str(" delete vm");
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        assert!(deny_forms(&words).contains(&split("gcloud compute instances delete vm")));
    }

    #[test]
    fn program_names_fold_to_lower_case() {
        assert_eq!(canon("RM -rf x"), "rm -f -r x");
        assert_eq!(canon("/BIN/Rm -rf x"), "rm -f -r x");
        assert_eq!(canon("GIT -C . push -f"), "git push -f");
        assert_eq!(canon("NPM pub"), "npm publish");
        // Subcommands are case-sensitive in git.
        assert_eq!(canon("git PUSH"), "git PUSH");
        assert_eq!(canon("RM.EXE -rf x"), "rm -f -r x");
        assert_eq!(canon("curl.exe x"), "curl x");
        assert_eq!(canon(".exe x"), ".exe x");
    }

    #[test]
    fn values_stay_with_their_flags() {
        assert_eq!(canon("curl -sXPOST http://x"), "curl -X POST -s http://x");
        assert_eq!(
            canon("curl http://x --request=POST -s"),
            "curl -X POST -s http://x"
        );
        assert_eq!(canon("curl -X POST *"), "curl -X POST *");
    }

    #[test]
    fn git_subcommands_and_globals() {
        assert_eq!(canon("git -C /x push --force"), "git push -f");
        assert_eq!(canon("git push origin +main"), "git push -f origin +main");
        assert_eq!(canon("git reset --hard HEAD"), "git reset --hard HEAD");
        assert_eq!(canon("git clean -fdx"), "git clean -d -f -x");
        assert_eq!(canon("/usr/bin/git status -s"), "git status -s");
        assert_eq!(canon("git -c a=b push"), "git push");
        assert_eq!(canon("git --literal-pathspecs push"), "git push");
        assert_eq!(
            canon("git --config-env=a=B --exec-path=/x push"),
            "git push"
        );
    }

    #[test]
    fn npm_aliases_and_abbreviations_name_the_command() {
        assert_eq!(canon("npm pub"), "npm publish");
        assert_eq!(canon("npm i left-pad"), "npm install left-pad");
        assert_eq!(canon("npm --silent publ"), "npm publish --silent");
        assert_eq!(canon("npm run test"), "npm run-script test");
    }

    #[test]
    fn operands_that_look_like_flags_keep_their_marker() {
        assert_eq!(canon("rm -- -rf"), "rm -- -rf");
        assert_eq!(canon(&canon("rm -- -rf")), "rm -- -rf");
    }

    #[test]
    fn canonical_form_is_idempotent() {
        for line in [
            "curl -sXPOST http://x -o out",
            "rm -rfv --no-preserve-root /",
            "git push -u origin main --force",
            "chmod -R 777 .",
            "unknown -xyz a b",
            "rm -\0\u{2}-",
            "rm -r- x",
            "curl -o- x",
        ] {
            let once = canon(line);
            assert_eq!(canon(&once), once, "{line}");
        }
    }

    #[test]
    fn probes_carry_the_canonical_form_of_each_form() {
        for line in [
            "rm -rfv x",
            "rm -r -f x",
            "/bin/rm --recursive --force x",
            "git push -u origin main --force",
            "cmd1 sub1 --flag value",
            "curl -sXPOST http://x -o out",
            "unknown -xyz a b",
            "ls",
        ] {
            let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
            let probes = deny_probes(&words);
            let forms: Vec<Vec<String>> = probes.iter().map(|p| p.words.clone()).collect();
            assert_eq!(forms, deny_forms(&words), "{line}");
            for p in &probes {
                if let Some(c) = &p.canonical {
                    assert_eq!(*c, canonicalise(&p.words).words(), "{line}");
                }
            }
            assert!(
                probes.first().is_some_and(|p| p.canonical.is_some()),
                "{line}"
            );
        }
    }

    #[test]
    fn deny_forms_cover_extra_flags() {
        let words: Vec<String> = ["rm", "-rfv", "x"].map(String::from).to_vec();
        let forms: Vec<String> = deny_forms(&words).iter().map(|f| f.join(" ")).collect();
        assert!(forms.contains(&"rm -f -r x".to_owned()), "{forms:?}");
        assert!(forms.contains(&"rm -f -r -v x".to_owned()));
    }
}
