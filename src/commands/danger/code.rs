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
    if python && args.iter().any(|a| a == "-m") {
        let module: Vec<String> = args
            .iter()
            .skip_while(|a| a.as_str() != "-m")
            .skip(1)
            .cloned()
            .collect();
        if let Some((m, rest)) = module.split_first() {
            let mut words = vec![m.clone()];
            words.extend(rest.iter().cloned());
            let mut inner = Classification::default();
            let mut inner_facts = LineFacts::default();
            command_into(&words, MAX_DEPTH, &mut inner, &mut inner_facts);
            out.findings.extend(inner.findings);
            out.secret_uploads.extend(inner.secret_uploads);
        }
        return;
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
