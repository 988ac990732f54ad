//! Building the imported document: rules with their provenance, warnings, and a final check
//! that the document compiles.

use crate::decision::{Layer, RuleList};
use crate::error::{Error, ErrorKind, Result};
use crate::mode::Mode;
use crate::policy::{
    CopilotFlags, LayerDocument, Permissions, Policy, PolicyDocument, Provenance, Warning,
};
use crate::rule::Rule;

use super::Imported;

/// Warning code: something was approximated in the stricter direction.
pub(crate) const APPROXIMATED: &str = "IMPORT_APPROXIMATED";
/// Warning code: a setting was left out (leaving it out is stricter or changes nothing toolgate
/// decides).
pub(crate) const NOT_IMPORTED: &str = "IMPORT_NOT_EXPRESSED";

/// Where something in an agent's file is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    pub file: String,
    pub line: u32,
    pub text: String,
}

impl Origin {
    pub fn new(file: &str, line: u32, text: impl Into<String>) -> Self {
        Origin {
            file: file.to_owned(),
            line,
            text: text.into(),
        }
    }

    /// `file:line`, the path of errors and warnings.
    pub fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }

    /// An error about this place.
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(kind, message).at(self.at())
    }
}

/// The 1-based line of byte `offset` in `text`.
pub(crate) fn line_at(text: &str, offset: usize) -> u32 {
    let upto = text.get(..offset.min(text.len())).unwrap_or(text);
    u32::try_from(upto.matches('\n').count() + 1).unwrap_or(u32::MAX)
}

/// The line of the first occurrence of `needle` (as a JSON string, quoted) at or after line
/// `from`; `from` when it does not occur.
pub(crate) fn line_of_json_string(text: &str, needle: &str, from: u32) -> u32 {
    let quoted = serde_json::to_string(needle).unwrap_or_default();
    let start = text
        .match_indices('\n')
        .nth(usize::try_from(from).unwrap_or(0).saturating_sub(2))
        .map(|(i, _)| i)
        .filter(|_| from > 1)
        .unwrap_or(0);
    text.get(start..)
        .and_then(|rest| rest.find(&quoted))
        .map(|i| line_at(text, start + i))
        .unwrap_or(from)
}

/// The Copilot flag lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flag {
    AllowTool,
    DenyTool,
    AllowUrl,
    DenyUrl,
}

/// Collects the document and the warnings.
pub(crate) struct Builder {
    doc: PolicyDocument,
    warnings: Vec<Warning>,
}

impl Builder {
    pub fn new() -> Self {
        Builder {
            doc: PolicyDocument::default(),
            warnings: Vec::new(),
        }
    }

    /// The index of the layer of `source`, created when missing.
    pub fn layer(&mut self, source: Layer) -> usize {
        if let Some(i) = self.doc.layers.iter().position(|l| l.source == source) {
            return i;
        }
        self.doc.layers.push(LayerDocument {
            source,
            root: None,
            permissions: Permissions::default(),
            allow_managed_permission_rules_only: false,
        });
        self.doc.layers.len() - 1
    }

    /// The layer at `index` (created by [`Builder::layer`]).
    pub fn layer_mut(&mut self, index: usize) -> Option<&mut LayerDocument> {
        self.doc.layers.get_mut(index)
    }

    /// Adds `rule` to a list of a layer, remembering where it came from. A rule already in
    /// the list keeps its first provenance.
    pub fn rule(&mut self, layer: usize, list: RuleList, rule: &str, origin: &Origin) {
        let Some(l) = self.doc.layers.get_mut(layer) else {
            return;
        };
        let (name, rules) = match list {
            RuleList::Deny => ("deny", &mut l.permissions.deny),
            RuleList::Ask => ("ask", &mut l.permissions.ask),
            RuleList::Allow => ("allow", &mut l.permissions.allow),
        };
        if rules.iter().any(|r| r == rule) {
            return;
        }
        rules.push(rule.to_owned());
        let path = format!("layers[{layer}].permissions.{name}[{}]", rules.len() - 1);
        self.provenance(path, origin);
    }

    /// Adds a value to a Copilot flag list.
    pub fn flag(&mut self, flag: Flag, value: &str, origin: &Origin) {
        let flags = self.doc.copilot.get_or_insert_with(CopilotFlags::default);
        let (name, list) = match flag {
            Flag::AllowTool => ("allowTools", &mut flags.allow_tools),
            Flag::DenyTool => ("denyTools", &mut flags.deny_tools),
            Flag::AllowUrl => ("allowUrls", &mut flags.allow_urls),
            Flag::DenyUrl => ("denyUrls", &mut flags.deny_urls),
        };
        if list.iter().any(|v| v == value) {
            return;
        }
        list.push(value.to_owned());
        let path = format!("copilot.{name}[{}]", list.len() - 1);
        self.provenance(path, origin);
    }

    /// The Copilot flags, for the allow-all switches.
    pub fn copilot(&mut self) -> &mut CopilotFlags {
        self.doc.copilot.get_or_insert_with(CopilotFlags::default)
    }

    /// Adds a directory that counts as inside the working directory.
    pub fn additional_directory(&mut self, layer: usize, dir: &str) {
        if let Some(l) = self.doc.layers.get_mut(layer) {
            if !l
                .permissions
                .additional_directories
                .iter()
                .any(|d| d == dir)
            {
                l.permissions.additional_directories.push(dir.to_owned());
            }
        }
    }

    /// Sets the document's default mode; a second, different mode keeps the stricter one.
    pub fn mode(&mut self, mode: Mode, origin: &Origin) {
        match self.doc.default_mode {
            Some(m) if m != mode => {
                let stricter = stricter_mode(m, mode);
                self.approximated(
                    origin,
                    format!(
                        "two files set different modes (`{}` and `{}`); `{}` is kept",
                        m.as_str(),
                        mode.as_str(),
                        stricter.as_str()
                    ),
                );
                self.doc.default_mode = Some(stricter);
            }
            _ => self.doc.default_mode = Some(mode),
        }
    }

    fn provenance(&mut self, path: String, origin: &Origin) {
        self.doc.provenance.insert(
            path,
            Provenance {
                file: origin.file.clone(),
                line: origin.line,
                text: origin.text.clone(),
            },
        );
    }

    /// Records a stricter approximation.
    pub fn approximated(&mut self, origin: &Origin, message: impl Into<String>) {
        self.warn(APPROXIMATED, origin, message);
    }

    /// Records a setting that was left out.
    pub fn not_imported(&mut self, origin: &Origin, message: impl Into<String>) {
        self.warn(NOT_IMPORTED, origin, message);
    }

    fn warn(&mut self, code: &str, origin: &Origin, message: impl Into<String>) {
        let w = Warning::new(code, origin.at(), message);
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    /// Checks that `rule` parses; an allow rule that does not is left out with a warning
    /// (asking instead is stricter), a deny or ask rule that does not is an error.
    pub fn checked_rule(
        &mut self,
        layer: usize,
        list: RuleList,
        rule: &str,
        origin: &Origin,
    ) -> Result<()> {
        match Rule::parse(rule) {
            Ok(_) => {
                self.rule(layer, list, rule, origin);
                Ok(())
            }
            Err(e) if list == RuleList::Allow => {
                self.approximated(
                    origin,
                    format!(
                        "allow rule `{rule}` is left out, so those calls ask: {}",
                        e.message()
                    ),
                );
                Ok(())
            }
            Err(e) => Err(origin.error(
                ErrorKind::InvalidRule,
                format!("cannot import rule `{rule}`: {}", e.message()),
            )),
        }
    }

    /// Compiles the document (so that `toolgate check` accepts it) and returns it with the
    /// warnings; the policy's own warnings are added with the rule's file and line.
    pub fn finish(mut self) -> Result<Imported> {
        let policy = Policy::compile_unchecked(self.doc.clone()).map_err(|e| {
            match self.doc.provenance.get(e.path()) {
                Some(p) => Error::new(
                    e.kind(),
                    format!("{} (imported from `{}`)", e.message(), p.text),
                )
                .at(format!("{}:{}", p.file, p.line)),
                None => e,
            }
        })?;
        for w in policy.warnings() {
            let path = match policy.provenance(&w.path) {
                Some(p) => format!("{}:{}", p.file, p.line),
                None => w.path.clone(),
            };
            self.warnings
                .push(Warning::new(&w.code, path, w.message.clone()));
        }
        Ok(Imported {
            document: self.doc,
            warnings: self.warnings,
        })
    }
}

/// Of two modes, the one that allows less.
fn stricter_mode(a: Mode, b: Mode) -> Mode {
    let rank = |m: Mode| match m {
        Mode::Plan => 0,
        Mode::DontAsk => 1,
        Mode::Default => 2,
        Mode::AcceptEdits => 3,
        Mode::BypassPermissions => 4,
    };
    if rank(a) <= rank(b) {
        a
    } else {
        b
    }
}

/// A JSON value's type, for messages.
pub(crate) fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let text = "a\n\"x\"\nb\n\"x\"\n";
        assert_eq!(line_at(text, 0), 1);
        assert_eq!(line_at(text, 2), 2);
        assert_eq!(line_of_json_string(text, "x", 1), 2);
        assert_eq!(line_of_json_string(text, "x", 3), 4);
        assert_eq!(line_of_json_string(text, "y", 3), 3);
    }

    #[test]
    fn modes_keep_the_stricter() {
        assert_eq!(stricter_mode(Mode::Plan, Mode::Default), Mode::Plan);
        assert_eq!(
            stricter_mode(Mode::BypassPermissions, Mode::AcceptEdits),
            Mode::AcceptEdits
        );
    }
}
