//! Programs that run code they are given: shells, interpreters, `eval`.

use super::*;

pub(super) fn shell_into(
    name: &str,
    args: &[String],
    depth: usize,
    out: &mut Classification,
    facts: &mut LineFacts,
) {
    if name == "su" {
        let script = args
            .iter()
            .position(|a| a == "-c" || a == "--command")
            .and_then(|pos| args.get(pos + 1));
        if let Some(script) = script {
            line_into(script, depth + 1, out);
        }
        return;
    }
    let mut script_next = false;
    for (i, a) in args.iter().enumerate() {
        if script_next {
            if let Some(url) = line_into(a, depth + 1, out) {
                if a.contains("$(") || a.contains('`') {
                    out.add(
                        DangerClass::RemoteCode,
                        format!("runs what `{url}` returns with `{name} -c`"),
                        vec![url],
                    );
                }
            }
            return;
        }
        if a == "--command" || (a.starts_with('-') && !a.starts_with("--") && a.contains('c')) {
            script_next = true;
            continue;
        }
        if is_option(a) || a == "-" {
            if a == "-" || a == "-s" {
                facts.stdin_runner.get_or_insert_with(|| name.to_owned());
            }
            continue;
        }
        // A script file (or process substitution) runs.
        let _ = i;
        facts.runs_code.get_or_insert_with(|| name.to_owned());
        if a.starts_with("<(") || a.starts_with("/dev/") {
            facts.stdin_runner.get_or_insert_with(|| name.to_owned());
        }
        return;
    }
    if !script_next && name != "su" {
        facts.stdin_runner.get_or_insert_with(|| name.to_owned());
    }
}

pub(super) fn interpreter_into(
    name: &str,
    args: &[String],
    out: &mut Classification,
    facts: &mut LineFacts,
) {
    use crate::commands::runners::InterpreterInput;
    let python = crate::commands::interpreter_base(name).is_some_and(|(b, _)| *b == "python");
    let input = crate::commands::runners::interpreter_input(name, args);
    if let InterpreterInput::Inline(code) = input {
        inline_code(name, code, out);
        facts.runs_code.get_or_insert_with(|| name.to_owned());
        return;
    }
    if python {
        // The module parser the terminal check uses: `-m MOD`, `-mMOD`, `-Im MOD`.
        if let Some((module, rest)) = crate::commands::runners::python_module(args) {
            let top = module.split('.').next().unwrap_or(module);
            tool_into(top, rest, out);
            return;
        }
    }
    if let InterpreterInput::Script(script) = input {
        let at = args
            .iter()
            .position(|a| a == script)
            .map_or(args.len(), |i| i + 1);
        tool_into(script_tool(script), args.get(at..).unwrap_or_default(), out);
    }
    match input {
        InterpreterInput::Script(script) if !crate::shell::is_input_path(script) => {
            if script.contains("://") {
                out.add(
                    DangerClass::RemoteCode,
                    format!("runs the script at `{script}`"),
                    vec![script.to_owned()],
                );
            }
            facts.runs_code.get_or_insert_with(|| name.to_owned());
        }
        // Standard input, or a descriptor or the terminal (`/dev/tty`) standing for it.
        _ => {
            facts.stdin_runner.get_or_insert_with(|| name.to_owned());
        }
    }
}

/// Script files that are a tool's entry point, and the tool they are: `node npm-cli.js
/// publish` is `npm publish`.
const TOOL_ENTRY_POINTS: &[(&str, &str)] = &[
    ("npm-cli.js", "npm"),
    ("npx-cli.js", "npx"),
    ("pnpm.cjs", "pnpm"),
    ("pnpm.js", "pnpm"),
    ("pnpx.cjs", "pnpx"),
    ("yarn.js", "yarn"),
    ("yarn.cjs", "yarn"),
];

/// The tool the script file named `base` (no directory) is an entry point of
/// ([`TOOL_ENTRY_POINTS`]): `npm-cli.js` is npm, run by node or by its own `#!` line.
pub(super) fn entry_point_tool(base: &str) -> Option<&'static str> {
    TOOL_ENTRY_POINTS
        .iter()
        .find(|(entry, _)| entry.eq_ignore_ascii_case(base))
        .map(|(_, tool)| *tool)
}

/// The tool an interpreter's script `script` may be: an entry point of
/// [`TOOL_ENTRY_POINTS`], the package of a `__main__.py` (`pip/__main__.py` is pip), else
/// the script itself (`node /usr/bin/npm` runs npm, `python3 /usr/bin/pip3` pip).
///
/// ```text
/// script_tool("/usr/lib/node_modules/npm/bin/npm-cli.js") == "npm"
/// script_tool("/usr/lib/python3/dist-packages/pip/__main__.py") == "pip"
/// script_tool("/usr/bin/npm") == "/usr/bin/npm"
/// ```
fn script_tool(script: &str) -> &str {
    let mut segments = script.rsplit(['/', '\\']);
    let base = segments.next().unwrap_or(script);
    if let Some(tool) = entry_point_tool(base) {
        return tool;
    }
    match segments.next() {
        Some(package) if base == "__main__.py" && !package.is_empty() => package,
        _ => script,
    }
}

/// Classifies the tool `tool` an interpreter runs (a module, or a script that is a tool's
/// entry point) given `rest`, as if it were run itself: `python3 -m pip install x` is
/// `pip install x`. Its facts stay the interpreter's.
fn tool_into(tool: &str, rest: &[String], out: &mut Classification) {
    let mut words = vec![tool.to_owned()];
    words.extend(rest.iter().cloned());
    let mut inner = Classification::default();
    let mut inner_facts = LineFacts::default();
    command_into(&words, MAX_DEPTH, &mut inner, &mut inner_facts);
    out.findings.extend(inner.findings);
    out.secret_uploads.extend(inner.secret_uploads);
}

/// What inline interpreter code visibly does: the spellings that name a class.
pub(super) fn inline_code(name: &str, code: &str, out: &mut Classification) {
    let lower = code.to_lowercase();
    let any = |needles: &[&str]| needles.iter().any(|n| lower.contains(n));
    if any(&[
        "b64decode",
        "base64",
        "frombase64",
        "atob(",
        "decode('hex')",
        "bytes.fromhex",
        "\\x",
        "chr(",
    ]) {
        out.add(
            DangerClass::Obscured,
            format!("inline `{name}` code decodes text"),
            Vec::new(),
        );
    }
    if any(&["exec(", "eval(", "compile(", "function("])
        && any(&["http", "base64", "decode", "urlopen"])
    {
        out.add(
            DangerClass::RemoteCode,
            format!("inline `{name}` code evaluates text it fetches or decodes"),
            Vec::new(),
        );
    }
    if any(&[
        "rmtree",
        "remove-item",
        "rm -rf",
        "rm -r",
        "rimraf",
        "fs.rm(",
        "rmsync",
        "recursive: true",
        "remove_dir_all",
        "os.removedirs",
    ]) {
        out.add(
            DangerClass::RecursiveDelete,
            format!("inline `{name}` code deletes folders"),
            Vec::new(),
        );
    }
    if any(&[
        "urlopen",
        "requests.",
        "http.client",
        "urllib",
        "socket",
        "fetch(",
        "https.request",
        "http.request",
        "net::http",
        "lwp::",
        "curl",
    ]) {
        out.add(
            DangerClass::NetworkUpload,
            format!("inline `{name}` code opens network connections"),
            Vec::new(),
        );
    }
    if any(&[
        "os.system",
        "subprocess",
        "child_process",
        "execsync",
        "spawn(",
        "popen",
        "system(",
        "`",
    ]) {
        out.add(
            DangerClass::Obscured,
            format!("inline `{name}` code runs other programs"),
            Vec::new(),
        );
    }
    for token in code.split(|c: char| c.is_whitespace() || "'\"(),;`[]{}".contains(c)) {
        if let Some(kind) = secret_kind(token).filter(|_| token.len() > 1) {
            out.add(
                DangerClass::SecretRead,
                format!("inline code names `{token}` ({kind})"),
                vec![token.to_owned()],
            );
        }
    }
}

pub(super) fn eval_into(args: &[String], depth: usize, out: &mut Classification) {
    let text = args.join(" ");
    if text.contains('$') || text.contains('`') {
        out.add(
            DangerClass::Obscured,
            format!("evaluates `{text}`, known only at run time"),
            Vec::new(),
        );
    }
    line_into(&text, depth + 1, out);
}
