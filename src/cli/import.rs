//! `toolgate import --from FORMAT FILE... [--args '...'] [-o FILE] [--strict]`: an agent's
//! configuration as a policy document (JSON).

use std::process::ExitCode;

use toolgate::import::{import, Format};
use toolgate::Error;

use super::{print_warnings, read_input, usage, write_output};

/// Runs the subcommand.
pub fn run(args: &[String]) -> Result<ExitCode, Error> {
    let mut format = None;
    let mut output = None;
    let mut strict = false;
    // Each file's name, and its text when given inline (`--args`).
    let mut files: Vec<(String, Option<String>)> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--from" => {
                let v = it.next().ok_or_else(|| usage("`--from` needs a format"))?;
                format = Some(Format::parse(v)?);
            }
            "-o" | "--output" => {
                output = Some(
                    it.next()
                        .ok_or_else(|| usage("`-o` needs a file name"))?
                        .clone(),
                );
            }
            "--strict" => strict = true,
            "--args" => {
                let v = it
                    .next()
                    .ok_or_else(|| usage("`--args` needs the arguments as one string"))?;
                files.push(("--args".to_owned(), Some(v.clone())));
            }
            f if f.starts_with('-') && f != "-" => {
                return Err(usage(&format!("unexpected argument `{f}`")))
            }
            file => files.push((file.to_owned(), None)),
        }
    }
    let format = format.ok_or_else(|| {
        usage("`--from` is required: claude, copilot, gemini, codex, vscode or zed")
    })?;
    if files.is_empty() {
        return Err(usage("name at least one file to import"));
    }
    if format != Format::Copilot && files.iter().any(|(n, _)| n == "--args") {
        return Err(usage("`--args` is for `--from copilot` only"));
    }
    let files = files
        .into_iter()
        .map(|(name, text)| match text {
            Some(t) => Ok((name, t)),
            None => read_input(&name).map(|t| (name, t)),
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let imported = import(format, &files)?;
    print_warnings(&imported.warnings);
    let document = if strict {
        imported.strict()?
    } else {
        imported.document
    };
    let json = serde_json::to_string_pretty(&document).map_err(|e| {
        Error::new(
            toolgate::ErrorKind::InvalidJson,
            format!("cannot encode the policy: {e}"),
        )
    })?;
    write_output(output.as_deref(), &format!("{json}\n"))?;
    Ok(ExitCode::SUCCESS)
}
