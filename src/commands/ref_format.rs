//! git's ref-filter formats and sort keys (`git branch --format='%(refname:short)'`,
//! `git tag --sort=-creatordate`; git 2.47, `git help for-each-ref`, "FIELD NAMES"): plain
//! when every field is one known to print only what the repository holds. `%(signature)`
//! (and `--sort=signature:grade`) verifies signatures, which runs `gpg.program` (writing
//! below `~/.gnupg`); a field not on the list asks, so that a new field of a later git is
//! never taken as plain.

/// Fields that print what the repository holds and run nothing (`%(describe)` runs
/// `git describe`, itself read-only). Compared as spelled: git's field names are
/// case-sensitive (`%(HEAD)`, and `%(Refname)` is an error).
const PLAIN_FIELDS: &[&str] = &[
    "refname",
    "objecttype",
    "objectsize",
    "objectname",
    "deltabase",
    "tree",
    "parent",
    "numparent",
    "object",
    "type",
    "tag",
    "author",
    "authorname",
    "authoremail",
    "authordate",
    "committer",
    "committername",
    "committeremail",
    "committerdate",
    "tagger",
    "taggername",
    "taggeremail",
    "taggerdate",
    "creator",
    "creatordate",
    "describe",
    "subject",
    "body",
    "trailers",
    "contents",
    "raw",
    "upstream",
    "push",
    "symref",
    "flag",
    "HEAD",
    "color",
    "align",
    "end",
    "if",
    "then",
    "else",
    "worktreepath",
    "ahead-behind",
    "is-base",
];

/// Checks a `--format` value: every `%(field...)` names a plain field.
///
/// ```text
/// check_format("%(refname:short) %(objectname:short)")  -> Ok
/// check_format("%(signature:signer)")                   -> Err
/// ```
pub(crate) fn check_format(format: &str) -> Result<(), String> {
    refuse_signature(format)?;
    let mut rest = format;
    while let Some(at) = rest.find("%(") {
        let after = rest.get(at + 2..).unwrap_or_default();
        let Some(end) = after.find(')') else {
            return Err("has a field without its `)`".to_owned());
        };
        check_field(after.get(..end).unwrap_or_default())?;
        rest = after.get(end..).unwrap_or_default();
    }
    Ok(())
}

/// Checks a `--sort` value: `[-][version:|v:]field[:arguments]`.
///
/// ```text
/// check_sort_key("-committerdate")   -> Ok
/// check_sort_key("version:refname")  -> Ok
/// check_sort_key("signature:grade")  -> Err
/// ```
pub(crate) fn check_sort_key(key: &str) -> Result<(), String> {
    refuse_signature(key)?;
    let key = key.strip_prefix('-').unwrap_or(key);
    let key = key
        .strip_prefix("version:")
        .or_else(|| key.strip_prefix("v:"))
        .unwrap_or(key);
    check_field(key)
}

/// `signature` anywhere, in any case, is refused outright (also inside arguments such as
/// `%(contents:signature)`, which only prints, to keep the test simple and wide).
fn refuse_signature(text: &str) -> Result<(), String> {
    if text.to_lowercase().contains("signature") {
        return Err(
            "names a signature field, whose verification runs gpg (`%(signature)`)".to_owned(),
        );
    }
    Ok(())
}

/// One field with its arguments (`refname:short`, `align:width=10`).
fn check_field(field: &str) -> Result<(), String> {
    let name = field.split(':').next().unwrap_or_default();
    if PLAIN_FIELDS.contains(&name) {
        Ok(())
    } else {
        Err(format!(
            "names the field `{name}`, which is not known to run nothing"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_fields_pass() {
        for f in [
            "%(refname:short)",
            "%(HEAD) %(refname:lstrip=2) %(upstream:track)",
            "%(if)%(upstream)%(then)%(upstream:short)%(else)-%(end)",
            "%(align:width=20,position=left)%(refname)%(end)",
            "%(color:red)%(objectname:short)%(color:reset) %(subject)",
            "%(committerdate:relative) %(authorname) %(contents:subject)",
            "plain text, no field",
            "",
        ] {
            assert!(check_format(f).is_ok(), "{f}");
        }
        for k in [
            "refname",
            "-committerdate",
            "version:refname",
            "v:refname",
            "-creatordate",
            "objectsize",
            "HEAD",
        ] {
            assert!(check_sort_key(k).is_ok(), "{k}");
        }
    }

    #[test]
    fn signatures_and_unknown_fields_are_refused() {
        for f in [
            "%(signature)",
            "%(signature:signer)",
            "%(SIGNATURE)",
            "%(refname) %(Signature:grade)",
            "%(contents:signature)",
            "%(if:equals=x)%(signature:key)%(then)x%(end)",
            "%(Refname)",
            "%(newfield)",
            "%(refname",
            "%(",
            "%%(signature)",
        ] {
            assert!(check_format(f).is_err(), "{f}");
        }
        for k in [
            "signature:grade",
            "-signature",
            "version:signature:key",
            "SIGNATURE",
            "newfield",
            "",
            "-",
        ] {
            assert!(check_sort_key(k).is_err(), "{k}");
        }
    }
}
