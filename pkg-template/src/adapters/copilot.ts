// The GitHub Copilot adapter (`toolgate/copilot`).
// Path A, the Copilot SDK (`@github/copilot-sdk`): an `onPermissionRequest` handler over the
// broker. Path B, a host that runs the `copilot` CLI as a child process: the trust grants and
// policy rules the CLI can express as `--allow-tool`/`--deny-tool`/`--allow-url` arguments
// (never broader than toolgate reads them), and the CLI's "permission denied" lines
// recognised, so the host can raise an approval card and run again.

import type { ApprovalBroker } from "../broker.js";
import { callDirectory, decide, sameInput, type GateOptions } from "./gate.js";
import type { Grant, JsonValue, PolicyDocument, ToolRequest } from "../types.js";

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

/** `copilot` CLI arguments, and the rules that had no exact CLI spelling. */
export interface CopilotCliArgs {
  args: string[];
  /** Allow rules the CLI cannot express without allowing more; the CLI will ask (or deny). */
  skipped: string[];
}

const PLAIN_WORDS = /^[\w@%+=,./-]+(?: [\w@%+=,./-]+)*$/;
const PLAIN_HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

/** The `--allow-tool`/`--allow-url` spelling of an allow rule, when it allows no more. */
function allowArg(rule: string): string[] | undefined {
  const m = /^(Bash|bash|shell)\((.*)\)$/.exec(rule);
  if (m !== null) {
    const spec = m[2] ?? "";
    // Only "this command with any arguments": Copilot's `shell(x)` is always a prefix.
    const prefix = m[1] === "shell" ? spec.replace(/:\*$/, "") : /^(.*?)(?: \*|:\*)$/.exec(spec)?.[1];
    if (prefix !== undefined && PLAIN_WORDS.test(prefix)) return ["--allow-tool", `shell(${prefix})`];
    return undefined;
  }
  const d = /^(?:WebFetch|url|fetch|web_fetch)\(domain:(.*)\)$/.exec(rule) ?? /^(?:url|fetch|web_fetch)\((.*)\)$/.exec(rule);
  if (d !== null && PLAIN_HOST.test(d[1] ?? "")) return ["--allow-url", (d[1] ?? "").toLowerCase()];
  return undefined;
}

/**
 * The `--deny-tool` spelling of a deny rule, never narrower than toolgate's reading. The CLI
 * reads `shell(x y)` as a prefix only when `y` is a subcommand it knows (`git push`), and as
 * the exact command otherwise (`shell(touch a.txt)` does not stop `touch a.txt b.txt`): so an
 * exact command is passed as it is, and a rule with a wildcard denies its whole program
 * (`Bash(git push *)` is `shell(git)`), or the whole shell when the program is not plain.
 */
function denyArg(rule: string): string[] | undefined {
  if (/^(Bash|bash|shell)$/.test(rule)) return ["--deny-tool", "shell"];
  const m = /^(Bash|bash|shell)\((.*)\)$/.exec(rule);
  if (m === null) return undefined;
  const spec = (m[2] ?? "").trim();
  if (m[1] !== "shell" && PLAIN_WORDS.test(spec)) return ["--deny-tool", `shell(${spec})`];
  const program = /^[\w@%+=,./-]+(?=$|[ :])/.exec(spec)?.[0];
  return ["--deny-tool", program === undefined ? "shell" : `shell(${program})`];
}

/**
 * Path B: `copilot` CLI arguments from trust grants (`broker.trust.list()`) and a policy's
 * allow and deny rules. An allow is passed only when the CLI's reading allows no more than
 * toolgate's (`Bash(npm test *)` is `shell(npm test)`; `Bash(npm test)`, which allows no
 * arguments, has no spelling and is skipped); every shell deny is passed, widened to its whole
 * program when the CLI would read it more narrowly.
 *
 * ```ts
 * const { args } = copilotCliArgs({ grants: broker.trust.list(), policy });
 * spawn("copilot", ["-p", prompt, ...args]);
 * ```
 */
export function copilotCliArgs({ grants = [], policy }: { grants?: Grant[]; policy?: PolicyDocument }): CopilotCliArgs {
  const args: string[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const push = (pair: string[]) => {
    const key = pair.join(" ");
    if (seen.has(key)) return;
    seen.add(key);
    args.push(...pair);
  };
  const allows = [...grants.map((g) => g.rule), ...(policy?.permissions?.allow ?? [])];
  for (const rule of policy?.permissions?.deny ?? []) {
    const pair = denyArg(rule);
    if (pair !== undefined) push(pair);
  }
  for (const rule of allows) {
    const pair = allowArg(rule);
    if (pair === undefined) skipped.push(rule);
    else push(pair);
  }
  return { args, skipped };
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
