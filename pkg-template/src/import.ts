// importPolicy / exportPolicy: the agents' own permission formats to and from policy documents,
// on the tools wasm (see tools-bindings.ts); `toolgate/import` exports them (import-web.ts,
// import-node.ts).

import { toolsBindings } from "./tools-bindings.js";
import { guard, jsonText } from "./errors.js";
import type { PolicyDocument } from "./types.js";
import type { AgentFile, ExportResult, ImportResult } from "./wire.js";

// The files and the results are wire types, generated from the Rust types (`AgentFile`,
// `Imported`, `Exported`).
export type { AgentFile, ExportResult, ImportResult };

/** The agent formats `importPolicy` reads. */
export type ImportFormat = "claude" | "copilot" | "gemini" | "codex" | "vscode" | "zed";

/** The agent formats `exportPolicy` writes. */
export type ExportFormat = "claude" | "copilot" | "gemini" | "codex";

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

/**
 * @internal `copilotCliArgs` of `toolgate/copilot` on the tools wasm: `options` is the JSON of
 * `{policy, grants, sessionId, agent, now}`. The adapter reaches it as `toolgate/import`, so
 * that Node loads the tools wasm with it.
 */
export function copilotCliArgsOnTools(options: string): { args: string[]; skipped: { rule: string; why: string }[] } {
  return guard(() => toolsBindings().copilotCliArgs(options) as { args: string[]; skipped: { rule: string; why: string }[] });
}
