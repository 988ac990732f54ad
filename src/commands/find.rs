//! `find`: its leading options, its starting points and its expression (GNU findutils 4.9.0,
//! `find --help` and `man find` on Debian 12). Every primary is in the table below; a
//! primary that is not makes the command not read-only.

use super::scan::{Effects, Target};
use super::spec::Role;

/// `(primary, number of values, role)`. `-exec` and friends take words up to `;` or `+`.
const PRIMARIES: &[(&str, u8, Role)] = &[
    // Positional and global options.
    ("-daystart", 0, Role::Inert),
    ("-depth", 0, Role::Inert),
    ("-d", 0, Role::Inert),
    ("-follow", 0, Role::Follows),
    ("-help", 0, Role::Inert),
    ("--help", 0, Role::Inert),
    ("-version", 0, Role::Inert),
    ("--version", 0, Role::Inert),
    ("-ignore_readdir_race", 0, Role::Inert),
    ("-noignore_readdir_race", 0, Role::Inert),
    ("-maxdepth", 1, Role::Inert),
    ("-mindepth", 1, Role::Inert),
    ("-mount", 0, Role::Inert),
    ("-xdev", 0, Role::Inert),
    ("-noleaf", 0, Role::Inert),
    ("-regextype", 1, Role::Inert),
    ("-warn", 0, Role::Inert),
    ("-nowarn", 0, Role::Inert),
    ("-files0-from", 1, Role::ReadsList),
    // Tests.
    ("-amin", 1, Role::Inert),
    ("-anewer", 1, Role::Reads),
    ("-atime", 1, Role::Inert),
    ("-cmin", 1, Role::Inert),
    ("-cnewer", 1, Role::Reads),
    ("-ctime", 1, Role::Inert),
    ("-empty", 0, Role::Inert),
    ("-executable", 0, Role::Inert),
    ("-false", 0, Role::Inert),
    ("-fstype", 1, Role::Inert),
    ("-gid", 1, Role::Inert),
    ("-group", 1, Role::Inert),
    ("-ilname", 1, Role::Inert),
    ("-iname", 1, Role::Inert),
    ("-inum", 1, Role::Inert),
    ("-ipath", 1, Role::Inert),
    ("-iregex", 1, Role::Inert),
    ("-iwholename", 1, Role::Inert),
    ("-links", 1, Role::Inert),
    ("-lname", 1, Role::Inert),
    ("-mmin", 1, Role::Inert),
    ("-mtime", 1, Role::Inert),
    ("-name", 1, Role::Inert),
    ("-newer", 1, Role::Reads),
    ("-nogroup", 0, Role::Inert),
    ("-nouser", 0, Role::Inert),
    ("-path", 1, Role::Inert),
    ("-perm", 1, Role::Inert),
    ("-readable", 0, Role::Inert),
    ("-regex", 1, Role::Inert),
    ("-samefile", 1, Role::Reads),
    ("-size", 1, Role::Inert),
    ("-true", 0, Role::Inert),
    ("-type", 1, Role::Inert),
    ("-uid", 1, Role::Inert),
    ("-used", 1, Role::Inert),
    ("-user", 1, Role::Inert),
    ("-wholename", 1, Role::Inert),
    ("-writable", 0, Role::Inert),
    ("-xtype", 1, Role::Inert),
    ("-context", 1, Role::Inert),
    // Actions.
    ("-delete", 0, Role::Changes),
    ("-exec", 0, Role::Runs),
    ("-execdir", 0, Role::Runs),
    ("-ok", 0, Role::Runs),
    ("-okdir", 0, Role::Runs),
    ("-fls", 1, Role::Writes),
    ("-fprint", 1, Role::Writes),
    ("-fprint0", 1, Role::Writes),
    ("-fprintf", 2, Role::Writes),
    ("-ls", 0, Role::Inert),
    ("-print", 0, Role::Inert),
    ("-print0", 0, Role::Inert),
    ("-printf", 1, Role::Inert),
    ("-prune", 0, Role::Inert),
    ("-quit", 0, Role::Inert),
    // Operators.
    ("(", 0, Role::Inert),
    (")", 0, Role::Inert),
    ("!", 0, Role::Inert),
    ("-not", 0, Role::Inert),
    ("-a", 0, Role::Inert),
    ("-and", 0, Role::Inert),
    ("-o", 0, Role::Inert),
    ("-or", 0, Role::Inert),
    (",", 0, Role::Inert),
];

/// The primaries `find` knows, for the help check.
pub fn primaries() -> impl Iterator<Item = &'static str> {
    PRIMARIES.iter().map(|(n, _, _)| *n)
}

/// Reads `find`'s words from `from` (after the program name).
pub(crate) fn scan(words: &[String], from: usize) -> Effects {
    let mut e = Effects::default();
    let mut i = from;
    while let Some(w) = words.get(i) {
        match w.as_str() {
            // `-L` follows every symbolic link, `-H` those named as starting points: the
            // directories below them can be anywhere.
            "-H" | "-L" => {
                e.not_read_only.get_or_insert(format!(
                    "`find {w}` follows symbolic links, which can lead out of the directories it reads"
                ));
                e.follows_links = true;
                i += 1;
            }
            "-P" => i += 1,
            "-D" => i += 2,
            _ if w.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    let mut roots = 0;
    while let Some(w) = words.get(i) {
        if w.starts_with('-') || matches!(w.as_str(), "(" | ")" | "!" | ",") {
            break;
        }
        // Starting points are listed, names only: read as directories.
        e.reads.push(Target::whole(i));
        roots += 1;
        i += 1;
    }
    if roots == 0 {
        e.reads.push(Target::WorkingDirectory);
    }
    while let Some(w) = words.get(i) {
        i += 1;
        let newer = w.len() == 8 && w.starts_with("-newer");
        let Some((name, values, role)) = PRIMARIES
            .iter()
            .find(|(n, _, _)| *n == w)
            .copied()
            .or(newer.then_some(("-newerXY", 1, Role::Inert)))
        else {
            let why = format!("`find` primary `{w}` is not known to be read-only");
            e.unjudged.get_or_insert(why.clone());
            e.not_read_only.get_or_insert(why);
            continue;
        };
        let value = (values > 0).then(|| Target::whole(i));
        if values > 0 && words.get(i + usize::from(values) - 1).is_none() {
            e.not_read_only
                .get_or_insert(format!("`find` primary `{name}` has no value"));
        }
        i += usize::from(values);
        match role {
            Role::Inert => {
                // `-newerXt DATE` compares with a date; `-newerXY FILE` reads a file.
                if newer && !w.ends_with('t') {
                    e.reads.extend(value);
                }
                // A date holding `TZ="..."` opens that time zone file.
                let date = words
                    .get(i.saturating_sub(1))
                    .map(|d| d.to_ascii_uppercase());
                if newer && w.ends_with('t') && date.is_some_and(|d| d.contains("TZ=")) {
                    e.not_read_only.get_or_insert(format!(
                        "`find` primary `{w}` names a time zone (`TZ=`), whose file it reads"
                    ));
                }
            }
            Role::Reads => e.reads.extend(value),
            Role::ReadsList => {
                // The starting points named in the file: any directory.
                e.reads.extend(value);
                e.reads_below.push(Target::Anywhere);
                e.not_read_only.get_or_insert(format!(
                    "`find` primary `{name}` reads a list of starting points, which toolgate does not analyse"
                ));
            }
            Role::Writes => {
                e.writes.extend(value);
                let why = format!("`find` primary `{name}` writes a file");
                e.option_writes.get_or_insert(why.clone());
                e.not_read_only.get_or_insert(why);
            }
            Role::Follows => {
                e.not_read_only.get_or_insert(format!(
                    "`find` option `{name}` follows symbolic links, which can lead out of the directories it reads"
                ));
                e.follows_links = true;
            }
            Role::Runs => {
                while words.get(i).is_some_and(|w| w != ";" && w != "+") {
                    i += 1;
                }
                i += 1;
                e.runs = true;
                e.not_read_only
                    .get_or_insert(format!("`find` primary `{name}` runs a program"));
            }
            _ => {
                e.not_read_only
                    .get_or_insert(format!("`find` primary `{name}` is not read-only"));
            }
        }
    }
    e
}
