//! jq filters: read-only unless they read the environment or load modules.
//!
//! A filter is read-only when every name it calls is a jq 1.6 builtin known to only compute
//! (`jq -n builtins` on Debian 12, less [`READS_OUTSIDE_INPUT`]) or a function the filter
//! defines where the call can see it, and every variable it reads is not `$ENV` nor a
//! `$__`-variable. `import` and `include` read module files. Anything else (a name the list
//! does not know) is not read-only.
//!
//! A definition is seen as jq scopes it: in its own body and in the expression after its
//! `;`, up to the end of the enclosing parentheses, brackets, braces, string interpolation,
//! function body or `if`/`try` branch. Outside it the name is jq's builtin again, so
//! `(def env: .; 1) | env` calls the builtin `env`, which prints the environment. A filter
//! that defines a function named after one of [`READS_OUTSIDE_INPUT`] is refused outright.

/// jq 1.6 builtins that only compute on their input.
const PURE_BUILTINS: &str = "IN INDEX JOIN acos acosh add all any arrays ascii_downcase \
ascii_upcase asin asinh atan atan2 atanh booleans bsearch builtins capture cbrt ceil \
combinations contains copysign cos cosh debug del delpaths drem empty endswith erf erfc error \
exp exp10 exp2 explode expm1 fabs fdim finites first flatten floor fma fmax fmin fmod format \
frexp from_entries fromdate fromdateiso8601 fromjson fromstream gamma getpath gmtime group_by \
gsub halt halt_error has hypot implode in index indices infinite input input_filename \
input_line_number inputs inside isempty isfinite isinfinite isnan isnormal iterables j0 j1 jn \
join keys keys_unsorted last ldexp leaf_paths length lgamma lgamma_r limit localtime log log10 \
log1p log2 logb ltrimstr map map_values match max max_by min min_by mktime modf nan nearbyint \
nextafter nexttoward normals not now nth nulls numbers objects path paths pow pow10 range \
recurse recurse_down remainder repeat reverse rindex rint round rtrimstr scalars \
scalars_or_empty scalb scalbln scan select setpath significand sin sinh sort sort_by split \
splits sqrt startswith stderr strflocaltime strftime strings strptime sub tan tanh test tgamma \
to_entries todate todateiso8601 tojson tonumber tostream tostring transpose trunc \
truncate_stream type unique unique_by until utf8bytelength values walk while with_entries y0 y1 \
yn";

/// jq 1.6 builtins that read something other than the filter's input: the environment
/// (`env`), the module search path and module files.
const READS_OUTSIDE_INPUT: &[&str] = &[
    "env",
    "modulemeta",
    "get_search_list",
    "get_jq_origin",
    "get_prog_origin",
];

/// Keywords of the jq language (not calls), less `import` and `include`.
const KEYWORDS: &[&str] = &[
    "def", "as", "if", "then", "elif", "else", "end", "reduce", "foreach", "try", "catch", "label",
    "break", "and", "or", "__loc__", "true", "false", "null",
];

/// Checks that `filter` only computes on its input.
///
/// ```
/// use toolgate::commands::jq_filter_is_read_only as ok;
/// assert!(ok(".name"));
/// assert!(ok(r#".[] | select(.type == "file") | "\(.name): \(.size)""#));
/// assert!(!ok("env"));
/// assert!(!ok("$ENV.HOME"));
/// assert!(!ok(r#""\(env.HOME)""#));
/// assert!(!ok(r#"import "x" as x; ."#));
/// assert!(ok("def f: . + 1; [f, (def g: 2; g)]"));
/// assert!(!ok("(def env: .; 1) | env"));
/// ```
pub(crate) fn check_filter(filter: &str) -> Result<(), String> {
    let tokens = tokens(filter)?;
    let definitions = definitions(&tokens)?;
    for (at, token) in tokens.iter().enumerate() {
        let Token::Name(ident) = token else { continue };
        let name = ident.name.as_str();
        let fine = match ident.kind {
            Kind::Field | Kind::Format | Kind::Key => true,
            Kind::Variable => name != "ENV" && !name.starts_with("__"),
            Kind::Call => {
                KEYWORDS.contains(&name)
                    || PURE_BUILTINS.split_whitespace().any(|b| b == name)
                    || definitions
                        .iter()
                        .any(|d| d.name == name && d.scope.contains(&at))
            }
        };
        if !fine {
            let shown = if ident.kind == Kind::Variable {
                format!("${name}")
            } else {
                name.to_owned()
            };
            return Err(format!(
                "the jq filter uses `{shown}`, which is not known to only compute on its input"
            ));
        }
    }
    Ok(())
}

/// jq 1.6 directives and builtins that open module and data files by names the filter and
/// the search path build (`import "x" as $d {search: "./"}`, `-L DIR`, `~/.jq`,
/// `$ORIGIN/../lib`): the files may be anywhere.
const LOADS_FILES: &[&str] = &["import", "include", "modulemeta"];

/// Whether `filter` may open files other than its input: it imports or includes a module
/// or data file, or asks for a module's metadata ([`LOADS_FILES`]). A filter that cannot be
/// read counts as one that may.
///
/// ```text
/// loads_files(r#"import "secrets/config" as $d {search: "./"}; $d"#) == true
/// loads_files(r#"include "lib"; f"#)                                 == true
/// loads_files(".import")                                             == false
/// ```
pub(crate) fn loads_files(filter: &str) -> bool {
    tokens(filter).map_or(true, |tokens| {
        tokens
            .iter()
            .any(|t| LOADS_FILES.iter().any(|name| t.is_call(name)))
    })
}

/// A function the filter defines, and the tokens that see it.
struct Definition<'t> {
    name: &'t str,
    scope: std::ops::Range<usize>,
}

/// Each `def NAME` of `tokens` with its scope, from the `def` to the end of the expression
/// after its body. A function named after one of [`READS_OUTSIDE_INPUT`] is refused.
fn definitions(tokens: &[Token]) -> Result<Vec<Definition<'_>>, String> {
    let mut out = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        if !token.is_call("def") {
            continue;
        }
        let Some(Token::Name(ident)) = tokens.get(at + 1) else {
            continue;
        };
        if READS_OUTSIDE_INPUT.contains(&ident.name.as_str()) {
            return Err(format!(
                "the jq filter defines a function named `{}`, which is jq's builtin outside \
                 the definition's scope",
                ident.name
            ));
        }
        out.push(Definition {
            name: &ident.name,
            scope: at..scope_end(tokens, at + 2),
        });
    }
    Ok(out)
}

/// Where the scope of the definition whose body starts at `from` ends: at the `;` that ends
/// an enclosing definition's body, a bracket that closes one opened before the definition,
/// the `then`, `elif`, `else`, `end` or `catch` of an enclosing `if` or `try`, or the end
/// of the filter. Ending early only refuses a filter; ending late would let a call to a
/// builtin pass as a call to the definition.
fn scope_end(tokens: &[Token], from: usize) -> usize {
    let mut depth = 0usize;
    // The definitions (this one first) whose body has not met its `;` yet.
    let mut bodies = 1usize;
    // The `if` blocks, and the `try` blocks that may still meet a `catch`, opened after the
    // definition at its depth.
    let mut ifs = 0usize;
    let mut tries = 0usize;
    for (at, token) in tokens.iter().enumerate().skip(from) {
        match token {
            Token::Open => depth += 1,
            Token::Close if depth == 0 => return at,
            Token::Close => depth -= 1,
            Token::Semicolon if depth == 0 => match bodies.checked_sub(1) {
                Some(left) => bodies = left,
                None => return at,
            },
            Token::Name(_) if depth > 0 => {}
            t if t.is_call("def") => bodies += 1,
            t if t.is_call("if") => ifs += 1,
            t if t.is_call("try") => tries += 1,
            t if t.is_call("end") => match ifs.checked_sub(1) {
                Some(left) => ifs = left,
                None => return at,
            },
            t if t.is_call("catch") => match tries.checked_sub(1) {
                Some(left) => tries = left,
                None => return at,
            },
            t if ["then", "elif", "else"].iter().any(|k| t.is_call(k)) && ifs == 0 => return at,
            _ => {}
        }
    }
    tokens.len()
}

/// A token of a filter that matters for names and their scopes.
enum Token {
    /// A name.
    Name(Ident),
    /// `(`, `[`, `{` or the `\(` of a string interpolation.
    Open,
    /// `)`, `]`, `}` or the `)` ending an interpolation.
    Close,
    /// `;`.
    Semicolon,
}

impl Token {
    /// Whether this is the bare name `name` (a call or keyword).
    fn is_call(&self, name: &str) -> bool {
        matches!(self, Token::Name(i) if i.kind == Kind::Call && i.name == name)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Call,
    Field,
    Variable,
    Format,
    Key,
}

struct Ident {
    name: String,
    kind: Kind,
}

/// The names, brackets and `;` of a filter, outside string literals but inside their `\( )`
/// interpolations.
fn tokens(filter: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = filter.chars().collect();
    let mut out = Vec::new();
    // Each entry: the parenthesis depth at which an interpolation returns to its string.
    let mut interpolations: Vec<usize> = Vec::new();
    // The brackets open around the current position (`{`, `[`, `(`): a name followed by
    // `:` is an object key only directly inside `{` (`{env: 1}`), not in a slice
    // (`.[env:]`).
    let mut open: Vec<char> = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if in_string {
            match c {
                '\\' if chars.get(i + 1) == Some(&'(') => {
                    interpolations.push(depth);
                    out.push(Token::Open);
                    open.push('(');
                    depth += 1;
                    in_string = false;
                    i += 2;
                }
                '\\' => i += 2,
                '"' => {
                    in_string = false;
                    i += 1;
                }
                _ => i += 1,
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                i += 1;
            }
            '(' | '[' | '{' => {
                if c == '(' {
                    depth += 1;
                }
                out.push(Token::Open);
                open.push(c);
                i += 1;
            }
            ']' | '}' => {
                out.push(Token::Close);
                open.pop();
                i += 1;
            }
            ';' => {
                out.push(Token::Semicolon);
                i += 1;
            }
            ')' => {
                out.push(Token::Close);
                open.pop();
                depth = depth.saturating_sub(1);
                if interpolations.last() == Some(&depth) {
                    interpolations.pop();
                    in_string = true;
                }
                i += 1;
            }
            '#' => {
                while chars.get(i).is_some_and(|c| *c != '\n') {
                    i += 1;
                }
            }
            c if c.is_ascii_digit() => {
                while chars
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '.')
                {
                    i += 1;
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while chars.get(i).is_some_and(|c| {
                    c.is_alphanumeric() || *c == '_' || *c == ':' && chars.get(i + 1) == Some(&':')
                }) {
                    i += if chars.get(i) == Some(&':') { 2 } else { 1 };
                }
                let name: String = chars.get(start..i).unwrap_or_default().iter().collect();
                let before = start
                    .checked_sub(1)
                    .and_then(|b| chars.get(b))
                    .copied()
                    .unwrap_or(' ');
                let mut after = i;
                while chars.get(after).is_some_and(|c| c.is_whitespace()) {
                    after += 1;
                }
                let kind = match before {
                    '.' => Kind::Field,
                    '$' => Kind::Variable,
                    '@' => Kind::Format,
                    _ if chars.get(after) == Some(&':')
                        && chars.get(after + 1) != Some(&':')
                        && open.last() == Some(&'{')
                        && matches!(previous(&chars, start), Some('{' | ',')) =>
                    {
                        Kind::Key
                    }
                    _ => Kind::Call,
                };
                out.push(Token::Name(Ident { name, kind }));
            }
            c if !c.is_ascii() => {
                return Err(format!("the jq filter has the character `{c}`"));
            }
            _ => i += 1,
        }
    }
    if in_string || !interpolations.is_empty() {
        return Err("the jq filter has an unterminated string".to_owned());
    }
    Ok(out)
}

/// The last character before `at` that is not white space.
fn previous(chars: &[char], at: usize) -> Option<char> {
    chars
        .get(..at)?
        .iter()
        .rev()
        .find(|c| !c.is_whitespace())
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_filters_pass() {
        for f in [
            ".",
            ".name",
            ".dependencies | keys[]",
            "{name: .name, v: .version}",
            ".[] | select(.a > 1e3)",
            "def f: . + 1; f",
            r#"map(.x) | join(",")"#,
            "@base64",
            "reduce .[] as $x (0; . + $x)",
            r#".scripts["test"]"#,
            "{env: 1}",
            "{a: 1, env: .x}",
            ". as {env: $e} | $e",
        ] {
            assert_eq!(check_filter(f), Ok(()), "{f}");
        }
    }

    #[test]
    fn environment_and_modules_do_not() {
        for f in [
            "env",
            "env.HOME",
            "$ENV",
            "$__prog_args",
            r#""\(env)""#,
            r#""a\("b\(env)")""#,
            "include \"x\"; .",
            "modulemeta",
            "get_search_list",
            "unknown_thing",
            "\"unterminated",
            // `env` in a slice or an object's value is the builtin, not a key.
            ".[env:]",
            ".[1:env]",
            "{a: .[env:]}",
            "{a: env}",
        ] {
            assert!(check_filter(f).is_err(), "{f}");
        }
    }

    #[test]
    fn modules_and_data_files_are_files_it_loads() {
        for f in [
            r#"import "secrets/config" as $d {search: "./"}; $d"#,
            r#"import "m" as m; m::f"#,
            r#"include "lib"; f"#,
            r#""m" | modulemeta"#,
            "\"unterminated",
        ] {
            assert!(loads_files(f), "{f}");
        }
        for f in [".", ".import", "{import: 1}", "$__loc__", "input_filename"] {
            assert!(!loads_files(f), "{f}");
        }
    }

    #[test]
    fn a_definition_is_seen_only_in_its_scope() {
        // Each of these calls jq's builtin `env` (or `modulemeta`) outside the definition.
        for f in [
            "(def env: .; 1) | env",
            "(def env: 1; .) | env.GITHUB_TOKEN",
            "def x: (def env: 1; 2); env",
            "def x: def env: 1; 2; env",
            "[def env: 1; 2] | env",
            "{a: (def env: 1; 2)} | env",
            r#""\(def env: 1; 2)" | env"#,
            "if . then def env: 1; 2 else env end",
            "if . then def env: 1; 2 elif env then 3 end",
            "try def env: 1; 2 catch env",
            "reduce (def env: 1; 2) as $x (0; env)",
            "def modulemeta: 1; modulemeta",
            "def env: 1; env",
            "(def f: 1; f) | f",
        ] {
            assert!(check_filter(f).is_err(), "{f}");
        }
        for f in [
            "def f: 1; f",
            "def f: 1; [f, f] | f",
            "def a: 1; def b: a; [a, b]",
            "def f: if . then 1 else 2 end; f",
            "def f: 1; if . then f else f end",
            "def f: try 1 catch 2; f",
            "try def f: 1; try f catch f",
            "(def f: 1; f) | length",
            "def r: if . > 0 then . - 1 | r else . end; r",
        ] {
            assert_eq!(check_filter(f), Ok(()), "{f}");
        }
    }
}
