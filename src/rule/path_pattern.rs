//! Path rules with gitignore semantics and four anchors: `//abs`, `~/home`, `/layer-root`,
//! and bare or `./` for the working directory.

use crate::error::{Error, ErrorKind, Result};

/// What a path pattern is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// `//path`: the file system root.
    Root,
    /// `~/path`: the home directory.
    Home,
    /// `/path`: the root of the layer the rule comes from (the working directory when the
    /// layer names no root).
    LayerRoot,
    /// `./path` or `dir/file`: the working directory.
    Cwd,
    /// A bare name with no slash (`.env`, `*.pem`): any depth under the working directory.
    AnyDepth,
}

/// A parsed path specifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPattern {
    /// What it is relative to.
    pub anchor: Anchor,
    /// The glob below the anchor, without leading or trailing slashes (may be empty for the
    /// anchor itself).
    pub glob: String,
}

impl PathPattern {
    /// Parses a path specifier.
    pub fn parse(spec: &str) -> Result<Self> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRule, "empty path specifier")
                .with_hint("name a path, e.g. `Read(./.env)`, or drop the parentheses"));
        }
        let (anchor, rest) = if let Some(r) = spec.strip_prefix("//") {
            (Anchor::Root, r)
        } else if let Some(r) = spec.strip_prefix("~/") {
            (Anchor::Home, r)
        } else if spec == "~" {
            (Anchor::Home, "")
        } else if let Some(r) = spec.strip_prefix('/') {
            (Anchor::LayerRoot, r)
        } else if let Some(r) = spec.strip_prefix("./") {
            (Anchor::Cwd, r)
        } else if spec == "." {
            (Anchor::Cwd, "")
        } else if spec.trim_end_matches('/').contains('/') {
            (Anchor::Cwd, spec)
        } else {
            (Anchor::AnyDepth, spec)
        };
        let glob: Vec<&str> = rest
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        if glob.contains(&"..") {
            return Err(Error::new(
                ErrorKind::InvalidRule,
                format!("path specifier `{spec}` contains `..`"),
            )
            .with_hint(
                "write the path from an anchor instead: `//abs/path`, `~/path` or `./path`",
            ));
        }
        if spec.contains('{') || spec.contains('}') || spec.contains('\\') {
            return Err(Error::new(
                ErrorKind::InvalidRule,
                format!("path specifier `{spec}` uses `{{`, `}}` or `\\`, which path rules do not support"),
            )
            .with_hint("use `*`, `**`, `?` or `[...]`, or write one rule per alternative"));
        }
        Ok(PathPattern {
            anchor,
            glob: glob.join("/"),
        })
    }

    /// The globs this pattern compiles to, given the absolute base of its anchor (`None`
    /// for anchors matched against a relative path). The pattern covers what it names and,
    /// as in gitignore, everything under it.
    pub fn globs(&self, base: Option<&str>) -> Vec<String> {
        let body = match self.anchor {
            Anchor::AnyDepth => format!("**/{}", self.glob),
            _ => self.glob.clone(),
        };
        let full = match base {
            Some(b) if body.is_empty() => b.trim_end_matches('/').to_owned(),
            Some(b) => format!("{}/{body}", b.trim_end_matches('/')),
            None => body,
        };
        if full.is_empty() || full == "/" {
            return vec!["**".to_owned()];
        }
        if full.ends_with("/**") {
            return vec![full];
        }
        vec![full.clone(), format!("{full}/**")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors() {
        let a = |s| PathPattern::parse(s).unwrap().anchor;
        assert_eq!(a("//etc/passwd"), Anchor::Root);
        assert_eq!(a("~/.ssh/**"), Anchor::Home);
        assert_eq!(a("/src/**/*.ts"), Anchor::LayerRoot);
        assert_eq!(a("./.env"), Anchor::Cwd);
        assert_eq!(a("src/a.ts"), Anchor::Cwd);
        assert_eq!(a(".env"), Anchor::AnyDepth);
        assert_eq!(a("secrets/"), Anchor::AnyDepth);
        assert!(PathPattern::parse("../x").is_err());
        assert!(PathPattern::parse("a/{b,c}").is_err());
    }

    #[test]
    fn globs_cover_contents() {
        let p = PathPattern::parse(".env").unwrap();
        assert_eq!(p.globs(None), vec!["**/.env", "**/.env/**"]);
        let p = PathPattern::parse("//etc").unwrap();
        assert_eq!(p.globs(Some("")), vec!["/etc", "/etc/**"]);
    }
}
