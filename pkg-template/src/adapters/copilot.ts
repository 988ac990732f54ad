// The GitHub Copilot adapter (`toolgate/copilot`).
// Path A, the Copilot SDK (`@github/copilot-sdk`): an `onPermissionRequest` handler over the
// broker. Path B, a host that runs the `copilot` CLI as a child process: the trust grants and
// policy rules the CLI can express as `--deny-tool`/`--deny-url`/`--allow-url` arguments
// (never broader than toolgate reads them; decided in Rust, src/import/copilot_cli.rs), and the CLI's "permission denied" lines
// recognised, so the host can raise an approval card and run again.

import type { ApprovalBroker } from "../broker.js";
import { callDirectory, decide, sameInput, type GateOptions } from "./gate.js";
import type { Grant, JsonValue, PolicyDocument, ToolRequest } from "../types.js";
// The package's own `toolgate/import` entry: in Node it loads the tools wasm synchronously.
import { copilotCliArgsOnTools } from "toolgate/import";

/** The Copilot SDK's `PermissionRequest` (the kinds the handler maps; others are asked about). */
export type CopilotPermissionRequest =
  | { kind: "shell"; fullCommandText: string; toolCallId?: string; resolvedWorkingDirectory?: string }
  | { kind: "write"; fileName: string; resolvedPath?: string; newFileContents?: string; toolCallId?: string }
  | { kind: "read"; path: string; resolvedPath?: string; toolCallId?: string }
  | { kind: "url"; url: string; toolCallId?: string }
  | { kind: "mcp"; serverName: string; toolName: string; args?: JsonValue; toolCallId?: string }
  | { kind: "custom-tool"; toolName: string; args?: JsonValue; toolCallId?: string }
  | { kind: string; toolCallId?: string };

/** The Copilot SDK's `PermissionRequestResult` (the variants the handler answers). */
export type CopilotPermissionResult =
  | { kind: "approve-once"; approvedInteractively?: boolean }
  | { kind: "reject"; feedback?: string };

/** The Copilot SDK's `PermissionHandler`. */
export type CopilotPermissionHandler = (
  request: CopilotPermissionRequest & { managedApprovalRequired?: boolean },
  invocation: { sessionId: string },
) => Promise<CopilotPermissionResult>;

const OTHER_TOOL = "copilot_other";

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The toolgate request for a Copilot permission request (`copilot_other` for other kinds). */
export function copilotToolRequest(request: CopilotPermissionRequest): ToolRequest {
  const r = request as Record<string, unknown>;
  switch (request.kind) {
    case "shell":
      return { tool: "bash", input: { command: str(r.fullCommandText) },
        ...(typeof r.resolvedWorkingDirectory === "string" ? { cwd: r.resolvedWorkingDirectory } : {}) };
    case "write":
      return { tool: "write", input: { file_path: str(r.resolvedPath) || str(r.fileName), content: str(r.newFileContents) } };
    case "read":
      return { tool: "read", input: { file_path: str(r.resolvedPath) || str(r.path) } };
    case "url":
      return { tool: "fetch", input: { url: str(r.url) } };
    case "mcp":
      return { tool: `mcp__${str(r.serverName)}__${str(r.toolName)}`, input: (r.args ?? {}) as JsonValue };
    case "custom-tool":
      return { tool: str(r.toolName), input: (r.args ?? {}) as JsonValue };
    default:
      return { tool: OTHER_TOOL, input: { kind: request.kind, request: JSON.parse(JSON.stringify(request)) as JsonValue } };
  }
}

/**
 * Path A: `onPermissionRequest` over the broker. Approved calls are `approve-once` (a
 * remembered answer stays in toolgate's trust, which is narrower than Copilot's session
 * approvals); others are rejected with the model's feedback. The SDK cannot run an edited
 * call, so an edit is rejected with a message that names it. A request whose managed policy
 * requires a person's decision (`managedApprovalRequired`) is approved only when a person
 * approved it in the broker; a rule or a grant does not answer it.
 *
 * ```ts
 * import { createCopilotPermissionHandler } from "toolgate/copilot";
 * const session = await client.createSession({ onPermissionRequest: createCopilotPermissionHandler({ broker }) });
 * ```
 */
export function createCopilotPermissionHandler(options: Omit<GateOptions, "sessionId" | "toolName">): CopilotPermissionHandler {
  registerOther(options.broker);
  return async (request, { sessionId }) => {
    const mapped = copilotToolRequest(request);
    // The call runs where Copilot says it does; the handler's `cwd` is the project (`root`).
    const cwd = callDirectory(mapped.cwd, options.cwd);
    const { cwd: _project, ...rest } = options;
    const gate: GateOptions = { ...rest, sessionId, ...(cwd !== undefined ? { cwd } : {}),
      ...(options.cwd !== undefined ? { root: options.root ?? options.cwd } : {}) };
    const input = mapped.input ?? {};
    const v = await decide(gate, mapped.tool, input, request.toolCallId);
    if (!v.run) return { kind: "reject", feedback: v.feedback.aiMessage };
    if (!sameInput(v.input, input)) {
      return { kind: "reject", feedback: `The user changed this call to ${JSON.stringify(v.input)}; make that call instead.` };
    }
    const byPerson = v.outcome.by === "person";
    if (request.managedApprovalRequired === true && !byPerson) {
      return { kind: "reject", feedback: "An organisation policy requires a person to approve this call, and none did. Ask the user to run it." };
    }
    return byPerson ? { kind: "approve-once", approvedInteractively: true } : { kind: "approve-once" };
  };
}

function registerOther(broker: ApprovalBroker): void {
  if (broker.tools.names().includes(OTHER_TOOL)) return;
  broker.tools.register({
    name: OTHER_TOOL, title: "Copilot permission", description: "A Copilot permission request of a kind toolgate does not model",
    parameters: { type: "object" }, kind: "other", trustable: false,
  });
}

/** A rule or grant `copilotCliArgs` left out, and why. */
export interface CopilotSkipped {
  /** The rule (a policy rule, or a grant's rule). */
  rule: string;
  /** Why it is not passed: the CLI would allow more than toolgate with it. */
  why: string;
}

/** `copilot` CLI arguments, and the allows that were left out. */
export interface CopilotCliArgs {
  args: string[];
  /** Allows the CLI cannot be given without allowing more than toolgate; the CLI asks (or denies). */
  skipped: CopilotSkipped[];
}

/** What `copilotCliArgs` reads. */
export interface CopilotCliArgsOptions {
  /** The broker's grants (`broker.trust.list()`): only those that apply to the run are passed. */
  grants?: Grant[];
  /** The policy whose rules are passed (every layer's). */
  policy?: PolicyDocument;
  /** The session the CLI run belongs to: its session grants apply; without it, none do. */
  sessionId?: string;
  /** The agent name grants are bound to (default `copilot`); grants of other agents do not apply. */
  agent?: string;
  /** The time grants are checked against (Unix ms, default now). */
  now?: number;
}

/**
 * Path B: `copilot` CLI arguments from trust grants (`broker.trust.list()`) and a policy's
 * rules, never looser than toolgate's decision. The reading is toolgate's own (the Rust
 * exporter's, the same as `toolgate export --to copilot`), run on the tools wasm that
 * `toolgate/import` loads: Node loads it with this call; in a browser, `await init()` from
 * `toolgate/import` first. Every deny the flags can express is passed (`--deny-tool`,
 * `--deny-url`; the CLI's denies win over its allows), widened to its whole program when the
 * CLI would read it more narrowly. An allow is passed only when the CLI's reading allows no
 * more than toolgate's (`WebFetch(domain:docs.rs)` is `--allow-url docs.rs`) and it covers no
 * call that toolgate asks about or denies by a rule the flags cannot express. No shell allow
 * is passed: the CLI reads `shell(cp)` as `cp` with any arguments, `cp x .git/hooks/pre-commit`
 * too, which toolgate asks about; install toolgate as the CLI's hook for shell rules. A grant
 * is passed only when it applies to this run (the
 * `copilot` agent or none, the given session, not expired). What is left out is in
 * `skipped`, with why. A policy toolgate cannot read throws a `ToolgateError`.
 *
 * ```ts
 * const { args, skipped } = copilotCliArgs({ grants: broker.trust.list(), policy, sessionId });
 * spawn("copilot", ["-p", prompt, ...args]);
 * ```
 */
export function copilotCliArgs(options: CopilotCliArgsOptions): CopilotCliArgs {
  const { grants = [], policy, sessionId, agent, now = Date.now() } = options;
  return copilotCliArgsOnTools(JSON.stringify({ grants, policy, sessionId, agent, now }));
}

/** One "permission denied" line of the `copilot` CLI's output. */
export interface CopilotDenial {
  /** Who denied: a preToolUse hook, a permissionRequest hook, or nobody could be asked. */
  by: "preToolUse" | "permissionRequest" | "noUser" | "rules";
  /** The reason or message the CLI printed, when it printed one. */
  reason: string;
  /** The whole line. */
  line: string;
}

const DENIALS: [CopilotDenial["by"], RegExp][] = [
  ["preToolUse", /Denied by preToolUse hook(?: \(unable to ask user for confirmation\))?:\s*(.*)$/],
  ["permissionRequest", /Permission denied by a PermissionRequest hook:\s*(.*)$/],
  ["noUser", /Permission denied because no interactive user response was available(.*)$/],
  ["rules", /Permission to run this tool was denied due to the following rules:\s*(.*)$/],
  ["rules", /Permission denied(?: by rules)?:\s*(.*)$/],
];

/**
 * The CLI's "permission denied" lines in `output` (its text or JSON output), so the host can
 * ask a person and run again with the approved call's arguments.
 */
export function copilotDenials(output: string): CopilotDenial[] {
  const found: CopilotDenial[] = [];
  for (const raw of output.split(/\r?\n|\\n/)) {
    for (const [by, pattern] of DENIALS) {
      const m = pattern.exec(raw);
      if (m === null) continue;
      found.push({ by, reason: (m[1] ?? "").replace(/["}\]]+$/, "").trim(), line: raw.trim() });
      break;
    }
  }
  return found;
}
