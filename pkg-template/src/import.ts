// importPolicy / exportPolicy: the agents' own permission formats to and from policy documents.

import { bindings } from "./bindings.js";
import { guard, jsonText } from "./errors.js";
import type { PolicyDocument } from "./types.js";
import type { ExportResult, ImportResult } from "./wire.js";

// The results are wire types, generated from the Rust types (`Imported`, `Exported`).
export type { ExportResult, ImportResult };

/** The agent formats `importPolicy` reads. */
export type ImportFormat = "claude" | "copilot" | "gemini" | "codex" | "vscode" | "zed";

/** The agent formats `exportPolicy` writes. */
export type ExportFormat = "claude" | "copilot" | "gemini" | "codex";

/**
 * One file of an agent's configuration. The name decides how it is read: a Claude Code
 * `settings.local.json` is the `local` layer, a Gemini `.toml` file is a policy and a `.json`
 * file settings, a Codex `.toml` file is `config.toml` and anything else rules, a Copilot file
 * that is not JSON holds command-line arguments.
 */
export interface AgentFile {
  name: string;
  text: string;
}

/**
 * Turns an agent's configuration files into one policy document. Throws a `ToolgateError`
 * whose `path` is `file:line` for bad input (bad JSON or TOML, an unknown key, a Starlark
 * construct outside the supported subset); with `strict`, any warning is an error too.
 */
export function importPolicy(
  format: ImportFormat,
  files: AgentFile[],
  options: { strict?: boolean } = {},
): ImportResult {
  return guard(
    () => bindings().importPolicy(format, jsonText(files, "files"), options.strict === true),
  );
}

/** Writes a policy document in an agent's format. */
export function exportPolicy(format: ExportFormat, policy: PolicyDocument | string): ExportResult {
  return guard(() => bindings().exportPolicy(format, jsonText(policy, "policy")));
}
