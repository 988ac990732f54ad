//! jq filters: read-only unless they read the environment or load modules.
//!
//! A filter is read-only when every name it calls is a jq 1.6 builtin known to only compute
//! (`jq -n builtins` on Debian 12, less `env`, `modulemeta`, `get_search_list`,
//! `get_jq_origin`, `get_prog_origin`) or a function the filter defines itself, and every
//! variable it reads is not `$ENV` nor a `$__`-variable. `import` and `include` read module
//! files. Anything else (a name the list does not know) is not read-only.

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
/// ```
pub(crate) fn check_filter(filter: &str) -> Result<(), String> {
    let mut defined: Vec<String> = Vec::new();
    let idents = identifiers(filter)?;
    for (i, ident) in idents.iter().enumerate() {
        if ident.name == "def" {
            if let Some(next) = idents.get(i + 1) {
                defined.push(next.name.clone());
            }
        }
    }
    for ident in &idents {
        let name = ident.name.as_str();
        let fine = match ident.kind {
            Kind::Field | Kind::Format | Kind::Key => true,
            Kind::Variable => name != "ENV" && !name.starts_with("__"),
            Kind::Call => {
                KEYWORDS.contains(&name)
                    || PURE_BUILTINS.split_whitespace().any(|b| b == name)
                    || defined.iter().any(|d| d == name)
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

/// The names in a filter, outside string literals but inside their `\( )` interpolations.
fn identifiers(filter: &str) -> Result<Vec<Ident>, String> {
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
                open.push(c);
                i += 1;
            }
            ']' | '}' => {
                open.pop();
                i += 1;
            }
            ')' => {
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
                out.push(Ident { name, kind });
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
}
