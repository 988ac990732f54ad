//! Subcommands of the `toolgate` binary that live in their own modules: `import` and
//! `export`, and those that touch the file system around an agent: `hook`, `install`,
//! `uninstall`, `doctor` and `trust`. The library stays free of I/O.

pub mod audit_file;
pub mod doctor;
pub mod export;
pub mod files;
pub mod hook;
pub mod import;
pub mod inbox;
pub mod install;
pub mod layers;
pub mod settings;
pub mod trust;
pub mod trust_file;

use toolgate::{Error, ErrorKind};

/// An error for bad command-line usage.
pub(crate) fn usage(message: &str) -> Error {
    Error::new(ErrorKind::InvalidRequest, message.to_owned()).with_hint("run `toolgate --help`")
}

/// Reads a file, or standard input for `-`.
pub(crate) fn read_input(file: &str) -> Result<String, Error> {
    use std::io::Read as _;
    let mut text = String::new();
    let result = if file == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(file).map(|t| text = t)
    };
    result.map_err(|e| {
        Error::new(ErrorKind::Storage, format!("cannot read `{file}`: {e}"))
            .with_hint("check the file name")
    })?;
    Ok(text)
}

/// Writes `text` to `file`, or to standard output without one.
pub(crate) fn write_output(file: Option<&str>, text: &str) -> Result<(), Error> {
    match file {
        None | Some("-") => {
            print!("{text}");
            Ok(())
        }
        Some(f) => std::fs::write(f, text).map_err(|e| {
            Error::new(ErrorKind::Storage, format!("cannot write `{f}`: {e}"))
                .with_hint("check that the directory exists and is writable")
        }),
    }
}

/// Prints warnings on standard error.
pub(crate) fn print_warnings(warnings: &[toolgate::Warning]) {
    for w in warnings {
        eprintln!("toolgate: warning[{}] {}: {}", w.code, w.path, w.message);
    }
}

/// A usage error with the hint every usage error carries.
pub fn usage_error(message: &str) -> Error {
    Error::new(ErrorKind::InvalidRequest, message.to_owned()).with_hint("run `toolgate --help`")
}

/// Splits `--flag value` pairs and bare `--switch`es. `switches` lists the flags that take no
/// value; every other `--flag` needs one.
pub fn parse_flags(
    args: &[String],
    switches: &[&str],
    valued: &[&str],
) -> Result<Vec<(String, Option<String>)>, Error> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if switches.contains(&flag.as_str()) {
            out.push((flag.clone(), None));
        } else if valued.contains(&flag.as_str()) {
            let Some(v) = it.next() else {
                return Err(usage_error(&format!("`{flag}` needs a value")));
            };
            out.push((flag.clone(), Some(v.clone())));
        } else {
            return Err(usage_error(&format!("unexpected argument `{flag}`")));
        }
    }
    Ok(out)
}

/// The value of the last `flag` in parsed flags.
pub fn flag_value<'a>(flags: &'a [(String, Option<String>)], flag: &str) -> Option<&'a str> {
    flags
        .iter()
        .rev()
        .find(|(f, _)| f == flag)
        .and_then(|(_, v)| v.as_deref())
}

/// Whether `switch` was given.
pub fn has_flag(flags: &[(String, Option<String>)], switch: &str) -> bool {
    flags.iter().any(|(f, _)| f == switch)
}
