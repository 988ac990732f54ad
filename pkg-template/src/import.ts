// importPolicy / exportPolicy: the agents' own permission formats to and from policy documents,
// on the tools wasm (see tools-bindings.ts); `toolgate/import` exports them (import-web.ts,
// import-node.ts).

import { toolsBindings } from "./tools-bindings.js";
import { guard, jsonText } from "./errors.js";
import type { PolicyDocument, PolicyWarning } from "./types.js";

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

/** An imported policy and what could not be carried over exactly. */
export interface ImportResult {
  /** The policy document; `new PolicyEngine(document)` accepts it as is. */
  document: PolicyDocument;
  /** Approximations (always stricter) and settings left out; `path` is `file:line`. */
  warnings: PolicyWarning[];
}

/** An agent's file written from a policy, and what the agent cannot express. */
export interface ExportResult {
  text: string;
  /** What was left out or widened, each at its place in the policy document. */
  warnings: PolicyWarning[];
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
    () => toolsBindings().importPolicy(format, jsonText(files, "files"), options.strict === true) as ImportResult,
  );
}

/** Writes a policy document in an agent's format. */
export function exportPolicy(format: ExportFormat, policy: PolicyDocument | string): ExportResult {
  return guard(() => toolsBindings().exportPolicy(format, jsonText(policy, "policy")) as ExportResult);
}
