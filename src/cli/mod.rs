//! The `toolgate` binary's subcommands that touch the file system: `hook`, `install`,
//! `uninstall`, `doctor` and `trust`. The library stays free of I/O; these modules read and
//! write files around it.

pub mod audit_file;
pub mod doctor;
pub mod files;
pub mod hook;
pub mod inbox;
pub mod install;
pub mod layers;
pub mod settings;
pub mod trust;
pub mod trust_file;

use toolgate::{Error, ErrorKind};

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
