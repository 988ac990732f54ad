//! The parameter schemas of the built-in tools (the seed design's seven, plus fetch).

use serde_json::{json, Value};

use crate::tool::ToolKind;

/// One built-in definition: canonical name, display title, description, kind, schema.
pub(super) struct SeedTool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub kind: ToolKind,
    pub parameters: fn() -> Value,
}

fn read() -> Value {
    json!({
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "minLength": 1, "description": "the file to read"},
            "offset": {"type": "integer", "minimum": 0, "description": "first line to read"},
            "limit": {"type": "integer", "minimum": 1, "description": "number of lines"}
        },
        "required": ["file_path"],
        "additionalProperties": false
    })
}

fn glob() -> Value {
    json!({
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "minLength": 1},
            "path": {"type": "string", "minLength": 1}
        },
        "required": ["pattern"],
        "additionalProperties": false
    })
}

fn grep() -> Value {
    // `include` is the seed design's name; the others are Claude Code's Grep options, so that
    // real calls from that agent validate.
    json!({
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "minLength": 1},
            "path": {"type": "string", "minLength": 1},
            "include": {"type": "string"},
            "glob": {"type": "string"},
            "type": {"type": "string"},
            "output_mode": {"enum": ["content", "files_with_matches", "count"]},
            "-i": {"type": "boolean"},
            "-n": {"type": "boolean"},
            "-A": {"type": "integer", "minimum": 0},
            "-B": {"type": "integer", "minimum": 0},
            "-C": {"type": "integer", "minimum": 0},
            "head_limit": {"type": "integer", "minimum": 0},
            "multiline": {"type": "boolean"}
        },
        "required": ["pattern"],
        "additionalProperties": false
    })
}

fn write() -> Value {
    json!({
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "minLength": 1},
            "content": {"type": "string"}
        },
        "required": ["file_path", "content"],
        "additionalProperties": false
    })
}

fn edit() -> Value {
    json!({
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "minLength": 1},
            "old_string": {"type": "string"},
            "new_string": {"type": "string"},
            "replace_all": {"type": "boolean"}
        },
        "required": ["file_path", "old_string", "new_string"],
        "additionalProperties": false
    })
}

fn delete() -> Value {
    json!({
        "type": "object",
        "properties": {"file_path": {"type": "string", "minLength": 1}},
        "required": ["file_path"],
        "additionalProperties": false
    })
}

fn bash() -> Value {
    json!({
        "type": "object",
        "properties": {
            "command": {"type": "string", "minLength": 1},
            "timeout": {"type": "integer", "minimum": 1, "maximum": 600_000},
            "description": {"type": "string"}
        },
        "required": ["command"],
        "additionalProperties": false
    })
}

fn fetch() -> Value {
    json!({
        "type": "object",
        "properties": {
            "url": {"type": "string", "minLength": 1},
            "prompt": {"type": "string"}
        },
        "required": ["url"],
        "additionalProperties": false
    })
}

pub(super) const SEED_TOOLS: &[SeedTool] = &[
    SeedTool {
        name: "read",
        title: "Read",
        description: "Read a file, optionally a range of lines",
        kind: ToolKind::Read,
        parameters: read,
    },
    SeedTool {
        name: "glob",
        title: "Glob",
        description: "List files matching a glob pattern",
        kind: ToolKind::Glob,
        parameters: glob,
    },
    SeedTool {
        name: "grep",
        title: "Grep",
        description: "Search file contents for a pattern",
        kind: ToolKind::Grep,
        parameters: grep,
    },
    SeedTool {
        name: "write",
        title: "Write",
        description: "Create or overwrite a file",
        kind: ToolKind::Write,
        parameters: write,
    },
    SeedTool {
        name: "edit",
        title: "Edit",
        description: "Replace text in a file",
        kind: ToolKind::Edit,
        parameters: edit,
    },
    SeedTool {
        name: "delete",
        title: "Delete",
        description: "Delete a file",
        kind: ToolKind::Delete,
        parameters: delete,
    },
    SeedTool {
        name: "bash",
        title: "Bash",
        description: "Run a shell command",
        kind: ToolKind::Shell,
        parameters: bash,
    },
    SeedTool {
        name: "fetch",
        title: "Fetch",
        description: "Fetch a URL",
        kind: ToolKind::Fetch,
        parameters: fetch,
    },
];
