//! Which shells may run a line, and the syntax they read differently from bash.
//!
//! The parser reads bash's grammar. A line may be run by another shell: the host's
//! (`/bin/sh`, which is dash on Debian and Ubuntu, when a host runs lines with Node's
//! `child_process.exec`; the user's zsh on macOS), or the one a line names (`sh -c`,
//! `zsh -c`). Where such a shell reads a construct so that something else runs, the parser
//! refuses the line ([`Divergence`]) or marks the word as known only at run time.

use super::{fail, RedirKind, Result, Simple};

/// The shells besides bash that may run a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dialect {
    /// A POSIX shell such as dash may run it: no `&>`, no `$'..'`, no `$".."`.
    pub posix: bool,
    /// zsh may run it: `>!`, `&!`, `=cmd`, `<1-10>`, `${(e)..}` and `$+name` mean other things.
    pub zsh: bool,
}

impl Dialect {
    /// Only bash runs the line (`bash -c`).
    pub(crate) const BASH: Dialect = Dialect {
        posix: false,
        zsh: false,
    };

    /// Any of bash, zsh and a POSIX shell may run the line: a line the host runs with a shell
    /// the request does not name, and the payload of a runner (`eval`, `su -c`, `watch`).
    pub(crate) const ANY: Dialect = Dialect {
        posix: true,
        zsh: true,
    };

    /// The reading of a script run by the shell `name` (`sh -c SCRIPT`), or `None` for a shell
    /// whose grammar the parser does not read (`ksh`, `mksh`, `fish`: their scripts are
    /// unanalysable).
    ///
    /// `sh` is dash on Debian and Ubuntu and bash on macOS, so it gets both readings; `dash`
    /// and `ash` are POSIX shells; zsh reads the rest of bash's subset as bash does.
    pub(crate) fn of_shell(name: &str) -> Option<Dialect> {
        match name {
            "bash" => Some(Dialect::BASH),
            "sh" | "dash" | "ash" => Some(Dialect {
                posix: true,
                zsh: false,
            }),
            "zsh" => Some(Dialect {
                posix: false,
                zsh: true,
            }),
            _ => None,
        }
    }

    /// Refuses `divergence` when one of this dialect's shells reads it differently from bash.
    pub(super) fn check(self, divergence: Divergence) -> Result<()> {
        let differs = match divergence.shell() {
            Shell::Posix => self.posix,
            Shell::Zsh => self.zsh,
        };
        if differs {
            fail(divergence.why())
        } else {
            Ok(())
        }
    }

    /// Why a `$"..."` word is only known at run time in this dialect, if it is: bash reads a
    /// translated string, a POSIX shell and zsh a `$` before the string (`$"ls"` runs `$ls`).
    pub(super) fn translated_string(self) -> Option<&'static str> {
        (self.posix || self.zsh).then_some(
            "`$\"..\"`, which bash translates and a POSIX shell or zsh reads as `$` and a string",
        )
    }

    /// The program zsh runs for `cmd` when it has redirections but no command word, if zsh
    /// may run the line: `$READNULLCMD` for input redirections alone (`< big.txt`; `more`,
    /// Debian's `pager`: a pager, which runs commands typed into it), `$NULLCMD` (`cat`,
    /// which reads the terminal) for any other (`> out.txt`). Bash and a POSIX shell only
    /// open the files. With assignments before them (`X=1 < big.txt`) the line is refused:
    /// which of the two runs, and with what in its environment, is zsh's choice.
    pub(super) fn null_command(self, cmd: &Simple) -> Result<Option<&'static str>> {
        if !self.zsh || !cmd.words.is_empty() || cmd.redirs.is_empty() {
            return Ok(None);
        }
        if !cmd.assigns.is_empty() {
            return fail(
                "assignments and redirections without a command, for which zsh runs a pager \
                 (`$READNULLCMD`) or `cat` (`$NULLCMD`) on the terminal; name the command",
            );
        }
        let input_only = cmd
            .redirs
            .iter()
            .all(|r| matches!(r.kind, RedirKind::Read | RedirKind::HereString));
        Ok(Some(if input_only { "more" } else { "cat" }))
    }

    /// Why a word is only known at run time in zsh, if it may run there: `=name` becomes the
    /// path of the command `name` (`rm =node` removes the `node` on `PATH`), and `$+name`,
    /// `$=name`, `$~name`, `$^name` are expansions.
    pub(super) fn zsh_expansion(self) -> Option<&'static str> {
        self.zsh
            .then_some("zsh's `=name` or `$+name`-style expansion, which bash leaves as written")
    }
}

/// The shell that reads a [`Divergence`] differently from bash.
enum Shell {
    Posix,
    Zsh,
}

/// A construct that bash reads one way and another shell another way, so that something else
/// runs or another file is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Divergence {
    /// `&>FILE` or `&>>FILE` followed by more words: bash and zsh send both streams to the
    /// file; a POSIX shell runs the command before it in the background and the words after
    /// the file as a new command (`ls &>/dev/null rm -R keys` runs `rm`).
    WordsAfterBothStreams,
    /// `$'..'`: a POSIX shell reads `$` and a plain single-quoted string, so the quote ends
    /// at another `'` (`echo $'\' ; rm x ; # '` runs `rm x` in dash).
    AnsiCQuote,
    /// `>!`, `>>!`, `&>!`, `>&!`: zsh overwrites the next word (`echo x >! secret.txt`); bash
    /// writes a file named `!`.
    ZshClobber,
    /// `&!` (and `&|`): zsh's `&` that disowns, after which a new command starts (`ls &!rm x`);
    /// bash runs a program named `!rm`.
    ZshDisown,
    /// `<1-10>`: a zsh glob of numbered files; bash reads the file `1-10` and redirects the
    /// output to the next word.
    ZshNumericGlob,
    /// `${(e)..}` and other zsh expansion flags, which can evaluate the value as code.
    ZshExpansionFlags,
}

impl Divergence {
    fn shell(self) -> Shell {
        match self {
            Divergence::WordsAfterBothStreams | Divergence::AnsiCQuote => Shell::Posix,
            Divergence::ZshClobber
            | Divergence::ZshDisown
            | Divergence::ZshNumericGlob
            | Divergence::ZshExpansionFlags => Shell::Zsh,
        }
    }

    /// What the line does in the other shell, and how to write it so every shell agrees.
    fn why(self) -> &'static str {
        match self {
            Divergence::WordsAfterBothStreams => {
                "`&>FILE` is followed by more words: bash and zsh send both streams to the file, \
                 but a POSIX shell such as dash (`/bin/sh` on Debian) runs the command in the \
                 background and the words after the file as a new command; put `&>FILE` last, \
                 or write `>FILE 2>&1`"
            }
            Divergence::AnsiCQuote => {
                "`$'..'` is bash's and zsh's quoting; a POSIX shell such as dash (`/bin/sh` on \
                 Debian) reads `$` and a plain single-quoted string, so its quotes end elsewhere; \
                 use '..' or \"..\""
            }
            Divergence::ZshClobber => {
                "`>!` is zsh's overwrite of the next word, while bash writes a file named `!`; \
                 write `>|` instead"
            }
            Divergence::ZshDisown => {
                "`&!` and `&|` end a background command in zsh, so what follows is a new \
                 command, while bash reads it otherwise; write `&` and a blank"
            }
            Divergence::ZshNumericGlob => {
                "`<N-M>` is a zsh glob of numbered files, while bash reads the file `N-M` and \
                 redirects the output; put blanks around `<` and `>`"
            }
            Divergence::ZshExpansionFlags => {
                "`${(FLAGS)..}` is a zsh expansion whose flags can run its value as code"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shell_of_the_table_has_a_reading_or_none() {
        for name in crate::commands::SHELLS {
            let reading = Dialect::of_shell(name);
            let expected = !matches!(*name, "ksh" | "mksh" | "fish");
            assert_eq!(reading.is_some(), expected, "{name}");
        }
    }

    #[test]
    fn a_divergence_is_refused_only_where_a_shell_reads_it_otherwise() {
        let sh = Dialect::of_shell("sh").unwrap();
        let zsh = Dialect::of_shell("zsh").unwrap();
        assert!(sh.check(Divergence::WordsAfterBothStreams).is_err());
        assert!(zsh.check(Divergence::WordsAfterBothStreams).is_ok());
        assert!(zsh.check(Divergence::ZshClobber).is_err());
        assert!(sh.check(Divergence::ZshClobber).is_ok());
        assert!(Dialect::BASH.check(Divergence::AnsiCQuote).is_ok());
        assert!(Dialect::ANY.check(Divergence::ZshDisown).is_err());
    }

    #[test]
    fn zsh_runs_a_pager_or_cat_for_a_command_of_redirections_alone() {
        let program = |line: &str, dialect: Dialect| {
            let commands = super::super::parse_as(line, 0, dialect).unwrap();
            commands
                .iter()
                .map(|c| c.words.first().map_or("", |w| w.value.as_str()).to_owned())
                .collect::<Vec<_>>()
        };
        let zsh = Dialect::of_shell("zsh").unwrap();
        assert_eq!(program("< big.txt", zsh), ["more"]);
        assert_eq!(program("<big.txt", Dialect::ANY), ["more"]);
        assert_eq!(program("ls; < big.txt", zsh), ["ls", "more"]);
        assert_eq!(program("(< big.txt)", zsh), ["more"]);
        assert_eq!(program("<<< text", zsh), ["more"]);
        assert_eq!(program("> out.txt", zsh), ["cat"]);
        assert_eq!(program("< in.txt > out.txt", zsh), ["cat"]);
        assert_eq!(program("cat < big.txt", zsh), ["cat"]);
        // Bash and a POSIX shell only open the files.
        assert_eq!(program("< big.txt", Dialect::BASH), [""]);
        assert_eq!(program("< big.txt", Dialect::of_shell("sh").unwrap()), [""]);
        assert!(super::super::parse_as("X=1 < big.txt", 0, zsh).is_err());
    }
}
