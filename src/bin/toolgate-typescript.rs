//! `toolgate-typescript [OUT]`: writes the TypeScript declarations of the wire types
//! ([`toolgate::typescript::declarations`]) to `OUT`, or to standard output without one.
//! `scripts/build.sh` runs it before compiling the npm package's TypeScript layer.

use std::process::ExitCode;

fn main() -> ExitCode {
    let undeclared = toolgate::typescript::undeclared();
    if !undeclared.is_empty() {
        eprintln!(
            "error: the declarations refer to types they do not declare: {}\n  \
             hint: add them to the list in src/typescript.rs",
            undeclared.into_iter().collect::<Vec<_>>().join(", ")
        );
        return ExitCode::FAILURE;
    }
    let module = toolgate::typescript::declarations();
    let Some(out) = std::env::args().nth(1) else {
        print!("{module}");
        return ExitCode::SUCCESS;
    };
    let path = std::path::Path::new(&out);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: cannot create `{}`: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    }
    match std::fs::write(path, module) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write `{out}`: {e}");
            ExitCode::FAILURE
        }
    }
}
