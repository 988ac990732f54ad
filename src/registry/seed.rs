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
            "limit": {"type": "integer", "minimum": 1, "description": "number of lines"},
            "pages": {"type": "string", "description": "pages of a PDF to read"}
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
            "offset": {"type": "integer", "minimum": 0},
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

fn view() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "view_range": {"type": "array", "items": {"type": "integer"}, "maxItems": 2}
        },
        "required": ["path"],
        "additionalProperties": false
    })
}

fn notebook_read() -> Value {
    json!({
        "type": "object",
        "properties": {
            "notebook_path": {"type": "string", "minLength": 1},
            "cell_id": {"type": "string"}
        },
        "required": ["notebook_path"],
        "additionalProperties": false
    })
}

fn list() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "ignore": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["path"],
        "additionalProperties": false
    })
}

fn create() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "file_text": {"type": "string"}
        },
        "required": ["path", "file_text"],
        "additionalProperties": false
    })
}

fn str_replace() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "old_str": {"type": "string"},
            "new_str": {"type": "string"}
        },
        "required": ["path", "old_str"],
        "additionalProperties": false
    })
}

fn insert() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "insert_line": {"type": "integer", "minimum": 0},
            "new_str": {"type": "string"}
        },
        "required": ["path", "insert_line", "new_str"],
        "additionalProperties": false
    })
}

fn multi_edit() -> Value {
    json!({
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "minLength": 1},
            "edits": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "old_string": {"type": "string"},
                        "new_string": {"type": "string"},
                        "replace_all": {"type": "boolean"}
                    },
                    "required": ["old_string", "new_string"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["file_path", "edits"],
        "additionalProperties": false
    })
}

fn notebook_edit() -> Value {
    json!({
        "type": "object",
        "properties": {
            "notebook_path": {"type": "string", "minLength": 1},
            "new_source": {"type": "string"},
            "cell_id": {"type": "string"},
            "cell_type": {"enum": ["code", "markdown"]},
            "edit_mode": {"enum": ["replace", "insert", "delete"]}
        },
        "required": ["notebook_path", "new_source"],
        "additionalProperties": false
    })
}

fn web_fetch() -> Value {
    json!({
        "type": "object",
        "properties": {
            "url": {"type": "string", "minLength": 1},
            "prompt": {"type": "string"},
            "max_length": {"type": "integer", "minimum": 1},
            "start_index": {"type": "integer", "minimum": 0},
            "raw": {"type": "boolean"}
        },
        "required": ["url"],
        "additionalProperties": false
    })
}

fn any_object() -> Value {
    json!({"type": "object"})
}

/// A function that builds a parameter schema.
pub(super) type SchemaFn = fn() -> Value;

/// Spellings whose parameters differ from their seed tool's: (spelling, schema). The
/// spellings of file tools take only the keys listed, so that no key can carry a path that
/// is not judged.
pub(super) const OTHER_SPELLINGS: &[(&str, SchemaFn)] = &[
    ("view", view),
    ("NotebookRead", notebook_read),
    ("LS", list),
    ("ls", list),
    ("create", create),
    ("str_replace", str_replace),
    ("insert", insert),
    ("MultiEdit", multi_edit),
    ("NotebookEdit", notebook_edit),
    ("url", web_fetch),
    ("web_fetch", web_fetch),
];

/// The schema of one of Claude Code's own tools ([`crate::tool::AGENT_TOOLS`]): any
/// object, as they take no paths.
pub(super) fn agent_tool_parameters() -> Value {
    any_object()
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
