//! Subcommands of the `toolgate` binary that live in their own modules.

pub mod export;
pub mod import;

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
