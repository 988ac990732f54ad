//! `toolgate export --to claude|copilot|gemini|codex [-o FILE] POLICY`: a policy in an
//! agent's format; what the agent cannot express is reported on standard error.

use std::process::ExitCode;

use toolgate::import::{export, Format};
use toolgate::Error;

use super::{print_warnings, read_input, usage, write_output};

/// Runs the subcommand.
pub fn run(args: &[String]) -> Result<ExitCode, Error> {
    let mut target = None;
    let mut output = None;
    let mut policy = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--to" => {
                let v = it.next().ok_or_else(|| usage("`--to` needs a format"))?;
                target = Some(Format::parse(v)?);
            }
            "-o" | "--output" => {
                output = Some(
                    it.next()
                        .ok_or_else(|| usage("`-o` needs a file name"))?
                        .clone(),
                );
            }
            f if f.starts_with('-') && f != "-" => {
                return Err(usage(&format!("unexpected argument `{f}`")))
            }
            file if policy.is_none() => policy = Some(file.to_owned()),
            _ => return Err(usage("`export` takes one policy file")),
        }
    }
    let target =
        target.ok_or_else(|| usage("`--to` is required: claude, copilot, gemini or codex"))?;
    let policy = policy.ok_or_else(|| usage("name the policy file to export (or `-`)"))?;
    let doc = toolgate::json::from_str(&read_input(&policy)?, "policy")
        .map_err(|e| e.within("policy"))?;
    // Refuse a policy that does not load, as `check` would.
    toolgate::Policy::compile_unchecked(Clone::clone(&doc)).map_err(|e| e.within("policy"))?;
    let exported = export(target, &doc)?;
    print_warnings(&exported.warnings);
    write_output(output.as_deref(), &exported.text)?;
    Ok(ExitCode::SUCCESS)
}
