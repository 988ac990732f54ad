//! Whether a command's words give an option, read as getopt_long and git's parse-options
//! read them: a short option anywhere in a cluster of letters (`-rf` gives `-f`), a long
//! option by its name or a prefix of it (`--ha` for `--hard`), with or without `=VALUE`,
//! and only before `--`. The one reading for the danger classes and the terminal check.

/// How far an abbreviated long option is taken to give the option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The widest, for an option that makes a command more dangerous: a prefix of any
    /// length, in any case. A prefix another option shares is ambiguous, and the program
    /// refuses it; reading it as this option only adds a label or a prompt.
    Widest,
    /// The narrowest, for an option that makes a command safer (`git rebase --abort`): the
    /// name, or a prefix of three letters or more, as written.
    Surely,
}

/// The shortest prefix [`Reading::Surely`] takes for a long option.
const SURE_PREFIX: usize = 3;

/// Whether `word` is a cluster of short options holding `letters` (`-rf` holds `f`).
fn cluster_holds(word: &str, letters: &str) -> bool {
    match word.strip_prefix('-') {
        Some(cluster) if !cluster.is_empty() && !cluster.starts_with('-') => {
            !letters.is_empty()
                && cluster.chars().all(|c| c.is_ascii_alphanumeric())
                && cluster.contains(letters)
        }
        _ => false,
    }
}

/// Whether `word` gives the long option `name` (without its dashes), read as `reading`.
fn long_given(word: &str, name: &str, reading: Reading) -> bool {
    let Some(given) = word.strip_prefix("--") else {
        return false;
    };
    let given = given.split('=').next().unwrap_or(given);
    if given.is_empty() {
        return false;
    }
    match reading {
        Reading::Widest => {
            given.len() <= name.len()
                && name
                    .get(..given.len())
                    .is_some_and(|start| start.eq_ignore_ascii_case(given))
        }
        Reading::Surely => given == name || (given.len() >= SURE_PREFIX && name.starts_with(given)),
    }
}

/// Whether `word` gives one of the short options `short` or the long options `long` (their
/// names without dashes).
///
/// ```text
/// gives(&["-rf"], &['f'], &[], Widest)            == true
/// gives(&["--ha"], &[], &["hard"], Widest)        == true
/// gives(&["--ab"], &[], &["abort"], Surely)       == false
/// ```
fn gives(word: &str, short: &[char], long: &[&str], reading: Reading) -> bool {
    short
        .iter()
        .any(|&c| cluster_holds(word, c.encode_utf8(&mut [0; 4])))
        || long.iter().any(|l| long_given(word, l, reading))
}

/// The words of `args` before `--`, where options may be given.
fn before_end(args: &[String]) -> impl Iterator<Item = &str> {
    args.iter().map(String::as_str).take_while(|a| *a != "--")
}

/// Whether a word of `args` before `--` gives one of the short options `short` or the long
/// options `long` (names without dashes), read as `reading`.
pub(crate) fn has_option(args: &[String], short: &[char], long: &[&str], reading: Reading) -> bool {
    before_end(args).any(|a| gives(a, short, long, reading))
}

/// The first word of `args` before `--` that gives one of `options`, each spelt as on a
/// command line (`-p`, `--interactive`), read in the widest way.
pub(crate) fn first_giving<'a>(args: &'a [String], options: &[&str]) -> Option<&'a str> {
    before_end(args).find(|a| options.iter().any(|o| gives_spelt(a, o)))
}

/// Whether `word` gives `option`, spelt as on a command line (`-p`, `--interactive`), read
/// in the widest way.
pub(crate) fn gives_spelt(word: &str, option: &str) -> bool {
    if let Some(name) = option.strip_prefix("--") {
        return long_given(word, name, Reading::Widest);
    }
    option
        .strip_prefix('-')
        .is_some_and(|letters| cluster_holds(word, letters))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn a_short_option_counts_anywhere_in_a_cluster_of_letters() {
        assert!(has_option(&words("-xrf dir"), &['f'], &[], Reading::Widest));
        assert!(!has_option(
            &words("-x=f dir"),
            &['f'],
            &[],
            Reading::Widest
        ));
        assert!(!has_option(&words("--force"), &['f'], &[], Reading::Widest));
        assert!(!has_option(&words("-"), &['f'], &[], Reading::Widest));
    }

    #[test]
    fn the_widest_reading_takes_any_prefix_in_any_case() {
        for word in ["--hard", "--ha", "--h", "--HA", "--hard=1"] {
            assert!(
                has_option(&words(word), &[], &["hard"], Reading::Widest),
                "{word}"
            );
        }
        for word in ["--harder", "--", "--x", "-hard"] {
            assert!(
                !has_option(&words(word), &[], &["hard"], Reading::Widest),
                "{word}"
            );
        }
    }

    #[test]
    fn the_sure_reading_takes_the_name_or_three_letters_as_written() {
        for word in ["--abort", "--abo", "--abort=x"] {
            assert!(
                has_option(&words(word), &[], &["abort"], Reading::Surely),
                "{word}"
            );
        }
        for word in ["--ab", "--a", "--ABORT", "--aborts"] {
            assert!(
                !has_option(&words(word), &[], &["abort"], Reading::Surely),
                "{word}"
            );
        }
    }

    #[test]
    fn options_after_the_end_of_options_do_not_count() {
        assert!(!has_option(&words("-- -rf"), &['f'], &[], Reading::Widest));
        assert_eq!(first_giving(&words("x -- -p"), &["-p"]), None);
        assert_eq!(first_giving(&words("-vp --"), &["-p"]), Some("-vp"));
        assert_eq!(
            first_giving(&words("--inter"), &["--interactive"]),
            Some("--inter")
        );
    }
}
