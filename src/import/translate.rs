//! Translations shared by the formats: command prefixes and regexes into toolgate rules.

use crate::decision::RuleList;
use crate::error::{ErrorKind, Result};
use crate::rule::Rule;

use super::builder::{Builder, Origin};
use super::regex_rule::Regex;

/// Characters the shell reads as syntax rather than as part of a word: quotes and escapes,
/// expansions (`$`, `` ` ``, `~`), globs and braces, comments, history expansion, and the
/// operators that end a simple command or redirect it. toolgate matches a command rule
/// against a simple command's words after the shell analysis has read this syntax, so a
/// command prefix an agent compares as text means something else past any of them.
const SHELL_SYNTAX: &[char] = &[
    '\'', '"', '\\', '$', '`', '~', '*', '?', '[', ']', '{', '}', '#', '!', ';', '&', '|', '<',
    '>', '(', ')', '\n', '\r',
];

/// The first character of `text` that the shell reads as syntax ([`SHELL_SYNTAX`]), with
/// its byte offset.
fn first_shell_syntax(text: &str) -> Option<(usize, char)> {
    text.char_indices().find(|(_, c)| SHELL_SYNTAX.contains(c))
}

/// Whether `c` is white space the shell does not split words at: anything but a space, a
/// tab and a newline (a no-break space, an em space, ...). An agent that compares a prefix as
/// text sees `npm\u{a0}run` as two words, the shell as one.
pub(crate) fn is_unsplit_space(c: char) -> bool {
    c.is_whitespace() && !matches!(c, ' ' | '\t' | '\n')
}

/// Where a deny or ask prefix is cut, and why: before its first shell syntax or white space
/// the shell does not split at, whichever comes first.
fn first_cut(text: &str) -> Option<(usize, String)> {
    text.char_indices().find_map(|(at, c)| {
        if SHELL_SYNTAX.contains(&c) {
            Some((at, format!("holds `{c}`, which the shell reads as syntax")))
        } else if is_unsplit_space(c) {
            Some((
                at,
                format!(
                    "holds {}, which the shell does not split words at",
                    space_name(c)
                ),
            ))
        } else {
            None
        }
    })
}

/// A white space character as a person reads its name: `U+00A0`.
fn space_name(c: char) -> String {
    format!("the white space U+{:04X}", u32::from(c))
}

/// `words` without its leading variable assignments (`LANG=C git push` gives `git push`):
/// toolgate matches a command's words after them. `None` when nothing is left.
fn without_assignments(words: &str) -> &str {
    let mut rest = words.trim_start();
    while let Some((first, after)) = rest.split_once(char::is_whitespace) {
        if !is_assignment(first) {
            break;
        }
        rest = after.trim_start();
    }
    if is_assignment(rest) {
        ""
    } else {
        rest
    }
}

/// Whether `word` assigns a shell variable (`NAME=value`).
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The allow rule for a command prefix (`git push` becomes `Bash(git push *)`), or why there
/// is none: an allow takes the narrowest reading, and a prefix holding shell syntax
/// ([`SHELL_SYNTAX`]: `'`, `;`, `$`, `*`, ...) or a leading assignment cannot be matched
/// exactly against the words toolgate sees.
pub(crate) fn prefix_rule(words: &str) -> std::result::Result<String, String> {
    if let Some((_, c)) = first_shell_syntax(words) {
        return Err(format!(
            "holds `{c}`, which the shell reads as syntax, so toolgate cannot match the prefix \
             as text"
        ));
    }
    if let Some(c) = words.chars().find(|c| is_unsplit_space(*c)) {
        return Err(format!(
            "holds {}, which the shell does not split words at, so toolgate cannot match the \
             prefix as words",
            space_name(c)
        ));
    }
    if without_assignments(words) != words.trim_start() {
        return Err(
            "starts with a variable assignment, which toolgate does not match as part of the \
             command"
                .to_owned(),
        );
    }
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    if words.is_empty() {
        return Err("is empty".to_owned());
    }
    Ok(format!("Bash({words} *)"))
}

/// The deny or ask rules that cover every command starting with the text `prefix` (or, when
/// not `anchored`, containing it): `rm -rf` gives `Bash(rm -rf*)`, which also covers
/// `rm -rfv`, and `Bash(rm -rf *)`. A deny or ask takes the widest reading: the prefix is
/// cut before its first shell syntax ([`SHELL_SYNTAX`]), so the rules cover every way the
/// rest could be completed (`git push; echo` gives the rules of `git push`, `git commit -m
/// 'wip` those of `git commit -m `), and leading assignments are dropped (`LANG=C rm` gives
/// those of `rm`). The second value says how the prefix was widened, when it was.
pub(crate) fn wide_prefix_rules(prefix: &str, anchored: bool) -> (Vec<String>, Option<String>) {
    let (plain, cut) = match first_cut(prefix) {
        Some((at, why)) => (prefix.get(..at).unwrap_or_default(), Some(why)),
        None => (prefix, None),
    };
    let bare = if anchored {
        without_assignments(plain)
    } else {
        plain
    };
    let spaced = bare.split_whitespace().collect::<Vec<_>>().join(" ");
    let (words, colon) = without_trailing_colon(&spaced, bare.ends_with(char::is_whitespace));
    let lead = if anchored { "" } else { "*" };
    let widened = match cut {
        Some(why) => Some(format!(
            "{why} and toolgate does not match as text: it is widened to every command {} \
             `{words}`",
            if anchored {
                "starting with"
            } else {
                "containing"
            }
        )),
        None if bare.trim_start() != plain.trim_start() => Some(format!(
            "starts with a variable assignment, which toolgate does not match as part of the \
             command: it is widened to every command starting with `{words}`"
        )),
        None => None,
    };
    let widened = match (widened, colon) {
        (Some(how), _) => Some(how),
        (None, true) => Some(format!(
            "ends in `:`, and a rule ending in `:*` is the prefix form `{words}:*` (the \
             prefix, then a space or the end): it is widened to every command {} `{words}`",
            if anchored {
                "starting with"
            } else {
                "containing"
            }
        )),
        (None, false) => None,
    };
    if words.is_empty() {
        return (vec!["Bash".to_owned()], widened);
    }
    let rules = if bare.ends_with(char::is_whitespace) {
        vec![format!("Bash({lead}{words} *)")]
    } else {
        vec![
            format!("Bash({lead}{words}*)"),
            format!("Bash({lead}{words} *)"),
        ]
    };
    (rules, widened)
}

/// `words` without the colons (and the spaces before them) that end it, and whether there
/// were any. A rule's text ending in `:*` is the prefix form (`Bash(npm run db:*)` is `npm run
/// db` followed by a space or the end), so a prefix that ends in `:` and is followed by `*`
/// would miss `npm run db:drop`; without the colon it covers more, never less. A prefix
/// followed by a space (`spaced_after`) keeps its colon: `Bash(npm run db: *)` is read as
/// written.
fn without_trailing_colon(words: &str, spaced_after: bool) -> (&str, bool) {
    if spaced_after {
        return (words, false);
    }
    let kept = words.trim_end_matches([':', ' ']);
    (kept, kept.len() != words.len())
}

/// Adds the rules for a command prefix that the agent compares as text with the start of a
/// command (Gemini's `commandPrefix`, `ShellTool(...)`, VS Code's terminal auto-approve
/// keys): an allow exactly or not at all ([`prefix_rule`]), a deny or ask as widely as the
/// text could reach ([`wide_prefix_rules`]), with a warning whenever the rules differ from
/// the text.
pub(crate) fn text_prefix(
    b: &mut Builder,
    layer: usize,
    list: RuleList,
    prefix: &str,
    origin: &Origin,
) -> Result<()> {
    let name = list_name(list);
    if list == RuleList::Allow {
        return match prefix_rule(prefix) {
            Ok(rule) => b.checked_rule(layer, list, &rule, origin),
            Err(why) => {
                b.approximated(
                    origin,
                    format!("allow prefix `{prefix}` {why}; it is left out, so those commands ask"),
                );
                Ok(())
            }
        };
    }
    let (rules, widened) = wide_prefix_rules(prefix, true);
    for rule in rules {
        b.checked_rule(layer, list, &rule, origin)?;
    }
    if let Some(how) = widened {
        b.approximated(origin, format!("{name} prefix `{prefix}` {how}"));
    }
    Ok(())
}

/// Whether a JavaScript allow regex (VS Code's and Gemini CLI's) is left out because it holds
/// syntax that JavaScript reads otherwise than toolgate's parser ([`dialect_difference`]),
/// with a warning at `origin` when it is. Only allows are checked: a deny or ask read as Rust
/// covers at least its literal text, and the agent drops a regex it cannot compile.
///
/// [`dialect_difference`]: super::js_regex::dialect_difference
pub(crate) fn js_allow_left_out(
    b: &mut Builder,
    list: RuleList,
    pattern: &str,
    origin: &Origin,
) -> bool {
    if list != RuleList::Allow {
        return false;
    }
    let Some(why) = super::js_regex::dialect_difference(pattern) else {
        return false;
    };
    b.approximated(
        origin,
        format!(
            "allow regex `{pattern}` is run as JavaScript by the agent, and {why}; it is left \
             out, so those commands ask"
        ),
    );
    true
}

/// Parses a regex, or fails with an error at `origin`.
pub(crate) fn regex(pattern: &str, origin: &Origin) -> Result<Regex> {
    Regex::parse(pattern).map_err(|e| {
        origin.error(
            ErrorKind::InvalidRule,
            format!("invalid regex `{pattern}`: {e}"),
        )
    })
}

/// Adds the rules for a command regex. `anchored` says whether the agent matches from the
/// start of the command by itself.
pub(crate) fn command_regex(
    b: &mut Builder,
    layer: usize,
    list: RuleList,
    pattern: &str,
    anchored: bool,
    origin: &Origin,
) -> Result<()> {
    let re = regex(pattern, origin)?;
    if list == RuleList::Allow {
        match re.command_forms(anchored) {
            Some(forms) => {
                for (words, exact) in forms {
                    let rule = if exact {
                        format!("Bash({words})")
                    } else {
                        format!("Bash({words} *)")
                    };
                    b.checked_rule(layer, list, &rule, origin)?;
                }
            }
            None => b.approximated(
                origin,
                format!(
                    "allow regex `{pattern}` is not a finite set of command prefixes; it is \
                     left out, so those commands ask"
                ),
            ),
        }
        return Ok(());
    }
    // An operator may be written as an escape (`\x3b`, `\u003b`, `\;`): it is looked for in
    // the regex with those escapes read as the characters. When that reading differs from
    // the regex (`\>` is a word boundary here, a `>` for other engines), both are covered.
    let decoded = super::operators::decode_escapes(pattern);
    let same = decoded == pattern || Regex::parse(&decoded).is_ok_and(|d| d.same_as(&re));
    if super::operators::mentions_operator(&decoded)
        && !starts_with_one_command(&re, anchored)
        && Regex::parse(&decoded).is_ok()
        && operator_regex(b, layer, list, (&decoded, pattern), &re, origin)?
        && same
    {
        return Ok(());
    }
    let starts = anchored || re.anchored();
    match re.literal_prefixes() {
        Some(lits) => {
            let exact = re.command_forms(anchored).is_some();
            for lit in lits {
                let (rules, widened) = wide_prefix_rules(&lit, starts);
                for rule in rules {
                    if Rule::parse(&rule).is_err() {
                        b.rule(layer, list, "Bash", origin);
                        continue;
                    }
                    b.rule(layer, list, &rule, origin);
                }
                if let Some(how) = widened {
                    b.approximated(
                        origin,
                        format!(
                            "{} regex `{pattern}`: its literal text `{lit}` {how}",
                            list_name(list)
                        ),
                    );
                }
            }
            if !exact || !starts {
                b.approximated(
                    origin,
                    format!(
                        "{} regex `{pattern}` is widened to every command {} its literal \
                         text",
                        list_name(list),
                        if starts {
                            "starting with"
                        } else {
                            "containing"
                        }
                    ),
                );
            }
        }
        None => {
            b.rule(layer, list, "Bash", origin);
            b.approximated(
                origin,
                format!(
                    "{} regex `{pattern}` has no literal prefix; it is widened to every \
                     command",
                    list_name(list)
                ),
            );
        }
    }
    Ok(())
}

/// Whether every match of a regex anchored at the start of the line begins with a literal
/// that holds no shell operator: that literal starts the line's first simple command, so the
/// ordinary rules on it cover the regex (`curl .*\| *sh` gives `Bash(curl *)`).
fn starts_with_one_command(re: &Regex, anchored: bool) -> bool {
    (anchored || re.anchored())
        && re.literal_prefixes().is_some_and(|lits| {
            lits.iter()
                .all(|l| !l.trim().is_empty() && !super::operators::literal_spans(l))
        })
}

/// A deny or ask command regex holding a shell operator, which a rule on one simple command
/// can never hold: the part after the last operator becomes rules on the commands that start
/// with it (`;\s*rm\b` gives `Bash(rm*)`, `Bash(rm *)`) or on the paths a redirection writes
/// or reads (`>\s*/dev/sd` gives an `Edit` rule on every path containing `/dev/sd`). An
/// operator toolgate cannot split at widens the regex to every command. `false` when the
/// operator characters stand only inside literals that do not span a command (then the
/// ordinary translation holds). `decoded` is `pattern` with its escapes of literal characters
/// read as the characters (see `operators::decode_escapes`); messages name `pattern`.
fn operator_regex(
    b: &mut Builder,
    layer: usize,
    list: RuleList,
    (decoded, pattern): (&str, &str),
    re: &Regex,
    origin: &Origin,
) -> Result<bool> {
    use super::operators::{split, After};
    let name = list_name(list);
    match split(decoded) {
        Some((After::Command, rest)) => {
            b.approximated(
                origin,
                format!(
                    "{name} regex `{pattern}` spans a shell operator, and toolgate judges each \
                     command of a line on its own: it covers the commands that start with \
                     `{rest}`"
                ),
            );
            // Words are matched as argv joined by single spaces: white space between two
            // words is one space, however it was spelled.
            let words = rest.replace("\\s+", " ").replace(" +", " ");
            command_regex(b, layer, list, &words, true, origin)?;
        }
        Some((after, rest)) => {
            let (tool, what) = match after {
                After::Read => ("Read", "reads"),
                _ => ("Edit", "writes"),
            };
            // The shell expands `~` and `$HOME` before the path is opened.
            let rest = ["~/", "\\$HOME/", "\\$\\{HOME\\}/"]
                .iter()
                .find_map(|h| rest.strip_prefix(h))
                .unwrap_or(rest);
            b.approximated(
                origin,
                format!(
                    "{name} regex `{pattern}` holds a redirection: it covers the {what} of \
                     every path containing the literal text of `{rest}` (`{tool}` rules)"
                ),
            );
            path_regex(b, layer, list, tool, rest, origin)?;
        }
        None => {
            let spans = re
                .literal_prefixes()
                .is_none_or(|lits| lits.iter().any(|l| super::operators::literal_spans(l)));
            if !spans {
                return Ok(false);
            }
            b.rule(layer, list, "Bash", origin);
            b.approximated(
                origin,
                format!(
                    "{name} regex `{pattern}` spans a shell operator in a way toolgate cannot \
                     split at; it is widened to every command"
                ),
            );
        }
    }
    Ok(true)
}

/// Adds the rules for a regex over a file path (`tool` is `Edit`, `Delete`, ...). Deny and
/// ask regexes cover every path containing one of their literal prefixes; allow regexes are
/// left out.
pub(crate) fn path_regex(
    b: &mut Builder,
    layer: usize,
    list: RuleList,
    tool: &str,
    pattern: &str,
    origin: &Origin,
) -> Result<()> {
    let re = regex(pattern, origin)?;
    if list == RuleList::Allow {
        b.approximated(
            origin,
            format!("allow regex `{pattern}` on paths is left out, so those calls ask"),
        );
        return Ok(());
    }
    let rules: Option<Vec<String>> = re.literal_prefixes().map(|lits| {
        lits.iter()
            .map(|l| format!("{tool}({})", path_glob(l)))
            .collect()
    });
    match rules {
        Some(rules) if rules.iter().all(|r| Rule::parse(r).is_ok()) => {
            for r in &rules {
                b.rule(layer, list, r, origin);
            }
            b.approximated(
                origin,
                format!(
                    "{} regex `{pattern}` is widened to every path containing its literal \
                     text",
                    list_name(list)
                ),
            );
        }
        _ => {
            b.rule(layer, list, tool, origin);
            b.approximated(
                origin,
                format!(
                    "{} regex `{pattern}` has no usable literal; it is widened to every call \
                     of `{tool}`",
                    list_name(list)
                ),
            );
        }
    }
    Ok(())
}

/// A path glob for every absolute path that contains `lit`.
fn path_glob(lit: &str) -> String {
    let lit: String = lit
        .chars()
        .map(|c| {
            if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '!' | '\\' | ' ') {
                '*'
            } else {
                c
            }
        })
        .collect();
    let parts: Vec<&str> = lit.split('/').collect();
    match parts.as_slice() {
        [one] => format!("//**/*{one}*"),
        [first, middle @ .., last] => {
            let mut s = String::from("//**/");
            if !first.is_empty() {
                s.push('*');
                s.push_str(first);
                s.push('/');
            }
            for m in middle {
                s.push_str(m);
                s.push('/');
            }
            if last.is_empty() {
                s.push_str("**");
            } else {
                s.push_str(last);
                s.push('*');
            }
            s.replace("//**//", "//**/")
        }
        [] => "//**".to_owned(),
    }
}

/// Adds the rules for a regex over a URL: an allow regex that is a plain set of host names
/// becomes domain rules (narrower: the host must be exactly that name); anything else in an
/// allow is left out; a deny or ask regex covers every fetch.
pub(crate) fn url_regex(
    b: &mut Builder,
    layer: usize,
    list: RuleList,
    pattern: &str,
    origin: &Origin,
) -> Result<()> {
    let re = regex(pattern, origin)?;
    if list == RuleList::Allow {
        let hosts = re.plain_strings().filter(|hs| {
            hs.iter().all(|h| {
                h.contains('.')
                    && !h.starts_with('.')
                    && h.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            })
        });
        match hosts {
            Some(hosts) => {
                for h in hosts {
                    b.checked_rule(layer, list, &format!("WebFetch(domain:{h})"), origin)?;
                }
                b.approximated(
                    origin,
                    format!(
                        "allow regex `{pattern}` is narrowed to URLs whose host is exactly \
                         the name"
                    ),
                );
            }
            None => b.approximated(
                origin,
                format!("allow regex `{pattern}` on URLs is left out, so those fetches ask"),
            ),
        }
        return Ok(());
    }
    b.rule(layer, list, "WebFetch", origin);
    b.approximated(
        origin,
        format!(
            "{} regex `{pattern}` on URLs is widened to every fetch",
            list_name(list)
        ),
    );
    Ok(())
}

pub(crate) fn list_name(list: RuleList) -> &'static str {
    match list {
        RuleList::Deny => "deny",
        RuleList::Ask => "ask",
        RuleList::Allow => "allow",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allow_prefix_is_exact_or_left_out() {
        assert_eq!(prefix_rule("git  push").as_deref(), Ok("Bash(git push *)"));
        assert_eq!(
            prefix_rule("make CC=gcc").as_deref(),
            Ok("Bash(make CC=gcc *)")
        );
        for p in [
            "git commit -m 'wip",
            "git push; echo",
            "echo $HOME",
            "cat ~/.ssh",
            "ls *.pem",
            "a && b",
            "LANG=C make",
            "",
        ] {
            assert!(prefix_rule(p).is_err(), "{p}");
        }
    }

    #[test]
    fn a_deny_prefix_is_cut_before_shell_syntax() {
        let wide = |p: &str| wide_prefix_rules(p, true);
        assert_eq!(
            wide("rm -rf"),
            (vec!["Bash(rm -rf*)".into(), "Bash(rm -rf *)".into()], None)
        );
        assert_eq!(wide("git "), (vec!["Bash(git *)".into()], None));
        let (rules, how) = wide("git push; echo");
        assert_eq!(rules, ["Bash(git push*)", "Bash(git push *)"]);
        assert!(how.unwrap().contains("`;`"));
        assert_eq!(wide("git commit -m 'wip").0, ["Bash(git commit -m *)"]);
        assert_eq!(
            wide("git commit -m'wip").0,
            ["Bash(git commit -m*)", "Bash(git commit -m *)"]
        );
        assert_eq!(wide("echo a #b").0, ["Bash(echo a *)"]);
        assert_eq!(wide("curl x | sh").0, ["Bash(curl x *)"]);
        assert_eq!(wide("$(x)").0, ["Bash"]);
        assert_eq!(wide("'rm' -rf").0, ["Bash"]);
        let (rules, how) = wide("LANG=C FOO=1 rm -rf");
        assert_eq!(rules, ["Bash(rm -rf*)", "Bash(rm -rf *)"]);
        assert!(how.unwrap().contains("assignment"));
        assert_eq!(wide("FOO=").0, ["Bash"]);
        assert_eq!(
            wide_prefix_rules("a;b", false).0,
            ["Bash(*a*)", "Bash(*a *)"]
        );
    }

    /// Whether a deny rule `rule` decides `command` (run in `/tmp`).
    fn denies(rule: &str, command: &str) -> bool {
        let policy = crate::Policy::from_json(
            &serde_json::json!({ "permissions": { "deny": [rule] } }).to_string(),
        )
        .unwrap();
        let request = crate::Request::from_json(
            &serde_json::json!({ "tool": "Bash", "input": { "command": command }, "cwd": "/tmp" })
                .to_string(),
        )
        .unwrap();
        policy.evaluate(&request).effect == crate::Effect::Deny
    }

    #[test]
    fn every_deny_prefix_covers_the_text_continued() {
        for lit in [
            "npm run db:",
            "npm run db::",
            "npm run db :",
            "make x:",
            "rm -rf",
            "git push",
            "deploy",
        ] {
            for anchored in [true, false] {
                let (rules, _) = wide_prefix_rules(lit, anchored);
                let command = format!("{lit}x");
                assert!(
                    rules.iter().any(|r| denies(r, &command)),
                    "{lit:?} (anchored: {anchored}) gives {rules:?}, which miss `{command}`"
                );
            }
        }
        let (rules, how) = wide_prefix_rules("npm run db:", true);
        assert_eq!(rules, ["Bash(npm run db*)", "Bash(npm run db *)"]);
        assert!(how.unwrap().contains("`:`"));
        assert_eq!(
            wide_prefix_rules("npm run db: ", true).0,
            ["Bash(npm run db: *)"]
        );
        assert_eq!(wide_prefix_rules(":", true).0, ["Bash"]);
    }

    #[test]
    fn white_space_the_shell_does_not_split_at_is_not_a_word_break() {
        let nbsp = "npm\u{a0}run\u{a0}deploy";
        assert!(prefix_rule(nbsp).unwrap_err().contains("U+00A0"));
        assert!(prefix_rule("npm\u{2003}run").is_err());
        assert_eq!(prefix_rule("npm\trun").as_deref(), Ok("Bash(npm run *)"));
        let (rules, how) = wide_prefix_rules(nbsp, true);
        assert_eq!(rules, ["Bash(npm*)", "Bash(npm *)"]);
        assert!(how.unwrap().contains("U+00A0"));
        assert!(denies("Bash(npm*)", nbsp));
    }

    #[test]
    fn path_globs() {
        assert_eq!(path_glob(".env"), "//**/*.env*");
        assert_eq!(path_glob("secrets/"), "//**/*secrets/**");
        assert_eq!(path_glob("/etc"), "//**/etc*");
        assert_eq!(path_glob("a/b/c"), "//**/*a/b/c*");
    }
}
