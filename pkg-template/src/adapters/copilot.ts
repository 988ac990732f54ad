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

const PLAIN_WORDS = /^[\w@%+=,./-]+(?: [\w@%+=,./-]+)*$/;
const PLAIN_HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;
const SHELL_RULE = /^(Bash|bash|shell)\((.*)\)$/;
const SHELL_TOOL = /^(Bash|bash|shell)$/;
const FETCH_RULE = /^(?:WebFetch|url|fetch|web_fetch)\((?:domain:)?(.*)\)$/;
const FETCH_TOOL = /^(?:WebFetch|url|fetch|web_fetch)$/;
const MCP_RULE = /^mcp__([^_]+(?:_[^_]+)*?)(?:__(.+))?$/;

/** The words of a shell rule before its first wildcard or operator: what every call it covers starts with. */
function fixedWords(spec: string): string[] {
  const head = /^[^*?[\]{}$`|;&<>()'"\\]*/.exec(spec.replace(/:\*$/, ""))?.[0] ?? "";
  const words = head.trim().split(/\s+/).filter((w) => w !== "");
  // A wildcard glued to a word (`npm*`) makes that word a prefix of many words: drop it.
  return /[*?[]/.test(spec.slice(head.length, head.length + 1)) && !/\s$/.test(head) ? words.slice(0, -1) : words;
}

function startsWithWords(words: string[], prefix: string[]): boolean {
  return prefix.every((w, i) => words[i] === w);
}

/** The `--allow-tool`/`--allow-url` spelling of an allow rule, when it allows no more. */
function allowArg(rule: string): string[] | undefined {
  const m = SHELL_RULE.exec(rule);
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
 * The `--deny-tool`/`--deny-url` spelling of a deny rule, never narrower than toolgate's
 * reading. The CLI reads `shell(x y)` as a prefix only when `y` is a subcommand it knows
 * (`git push`), and as the exact command otherwise (`shell(touch a.txt)` does not stop `touch
 * a.txt b.txt`): so an exact command is passed as it is, and a rule with a wildcard denies its
 * whole program (`Bash(git push *)` is `shell(git)`), or the whole shell when the program is
 * not plain. `mcp__server__tool` is `server(tool)`, `mcp__server` the whole server, and a
 * plain host is `--deny-url`. Anything else has no spelling (`undefined`).
 */
function denyArg(rule: string): string[] | undefined {
  if (SHELL_TOOL.test(rule)) return ["--deny-tool", "shell"];
  const m = SHELL_RULE.exec(rule);
  if (m !== null) {
    const spec = (m[2] ?? "").trim();
    if (m[1] !== "shell" && PLAIN_WORDS.test(spec)) return ["--deny-tool", `shell(${spec})`];
    const program = /^[\w@%+=,./-]+(?=$|[ :])/.exec(spec)?.[0];
    return ["--deny-tool", program === undefined ? "shell" : `shell(${program})`];
  }
  const f = FETCH_RULE.exec(rule);
  if (f !== null && PLAIN_HOST.test(f[1] ?? "")) return ["--deny-url", (f[1] ?? "").toLowerCase()];
  const mcp = MCP_RULE.exec(rule);
  if (mcp !== null) {
    const [, server = "", tool] = mcp;
    if (!/^[\w-]+$/.test(server)) return undefined;
    if (tool === undefined || tool === "*") return ["--deny-tool", server];
    return /^[\w-]+$/.test(tool) ? ["--deny-tool", `${server}(${tool})`] : ["--deny-tool", server];
  }
  return undefined;
}

/** Why a grant does not apply to this run, or `undefined` when it does. */
function grantLeftOut(grant: Grant, sessionId: string | undefined, agent: string, now: number): string | undefined {
  if (grant.agent !== undefined && grant.agent !== null && grant.agent !== agent) return `a grant for agent \`${grant.agent}\`, not \`${agent}\``;
  if (grant.expiresAt !== undefined && grant.expiresAt !== null && grant.expiresAt <= now) return "an expired grant";
  if (grant.scope === "session") {
    if (sessionId === undefined) return "a session grant, and no `sessionId` was given";
    if (grant.sessionId !== sessionId) return `a grant for session \`${grant.sessionId ?? ""}\`, not \`${sessionId}\``;
  }
  return undefined;
}

/**
 * Why a passed allow would let the CLI run a call toolgate asks about or denies, or
 * `undefined`. `asks` are the ask rules and the deny rules the flags cannot express (the CLI
 * has no "ask" flag): a shell allow is left out when such a shell rule covers calls it covers
 * (`Bash(npm run deploy *)` asks, so `shell(npm run)` is not passed), and whenever a rule of a
 * file tool (`Read(~/.ssh/**)`) cannot be passed, as a program the CLI runs could read or write
 * through it (`cat ~/.ssh/id_rsa`); a URL allow is left out when such a rule names its host,
 * one below it, or hosts the flags cannot name.
 */
function looserThanToolgate(pair: string[], asks: string[]): string | undefined {
  const [flag, value = ""] = pair;
  if (flag === "--allow-tool") {
    const allowed = value.replace(/^shell\(|\)$/g, "").split(" ");
    for (const rule of asks) {
      if (SHELL_TOOL.test(rule)) return `\`${rule}\` covers every command`;
      const m = SHELL_RULE.exec(rule);
      if (m !== null) {
        const fixed = fixedWords(m[2] ?? "");
        if (startsWithWords(fixed, allowed) || startsWithWords(allowed, fixed)) return `\`${rule}\` asks or denies some of the commands it allows`;
        continue;
      }
      if (FETCH_RULE.exec(rule) !== null || FETCH_TOOL.test(rule) || MCP_RULE.test(rule)) continue;
      return `\`${rule}\` has no CLI spelling, and a command it allows could act on what that rule guards`;
    }
    return undefined;
  }
  if (flag === "--allow-url") {
    for (const rule of asks) {
      if (FETCH_TOOL.test(rule)) return `\`${rule}\` covers every URL`;
      const f = FETCH_RULE.exec(rule);
      if (f === null) continue;
      const host = (f[1] ?? "").toLowerCase().replace(/^\*\./, "");
      if (!PLAIN_HOST.test(host) || host === value || host.endsWith(`.${value}`) || value.endsWith(`.${host}`)) {
        return `\`${rule}\` asks or denies some of the URLs it allows`;
      }
    }
  }
  return undefined;
}

/**
 * Path B: `copilot` CLI arguments from trust grants (`broker.trust.list()`) and a policy's
 * rules, never looser than toolgate's decision. Every deny the flags can express is passed
 * (`--deny-tool`, `--deny-url`; the CLI's denies win over its allows), widened to its whole
 * program when the CLI would read it more narrowly. An allow is passed only when the CLI's
 * reading allows no more than toolgate's (`Bash(npm test *)` is `shell(npm test)`;
 * `Bash(npm test)`, which allows no arguments, has no spelling) and it covers no call that
 * toolgate asks about or denies by a rule the flags cannot express; a grant only when it
 * applies to this run (the `copilot` agent or none, the given session, not expired). What is
 * left out is in `skipped`, with why.
 *
 * ```ts
 * const { args, skipped } = copilotCliArgs({ grants: broker.trust.list(), policy, sessionId });
 * spawn("copilot", ["-p", prompt, ...args]);
 * ```
 */
export function copilotCliArgs(options: CopilotCliArgsOptions): CopilotCliArgs {
  const { grants = [], policy, sessionId, agent = "copilot", now = Date.now() } = options;
  const args: string[] = [];
  const skipped: CopilotSkipped[] = [];
  const seen = new Set<string>();
  const push = (pair: string[]) => {
    const key = pair.join(" ");
    if (seen.has(key)) return;
    seen.add(key);
    args.push(...pair);
  };
  const layers = [policy?.permissions, ...(policy?.layers ?? []).map((l) => l.permissions)];
  const rules = (list: "allow" | "ask" | "deny") => layers.flatMap((p) => p?.[list] ?? []);
  // What the CLI cannot be told to stop: every ask, and the denies with no spelling.
  const asks = [...rules("ask")];
  for (const rule of rules("deny")) {
    const pair = denyArg(rule);
    if (pair !== undefined) push(pair);
    else asks.push(rule);
  }
  const allows: string[] = [];
  for (const grant of grants) {
    const why = grantLeftOut(grant, sessionId, agent, now);
    if (why === undefined) allows.push(grant.rule);
    else skipped.push({ rule: grant.rule, why });
  }
  allows.push(...rules("allow"));
  for (const rule of allows) {
    const pair = allowArg(rule);
    if (pair === undefined) {
      skipped.push({ rule, why: "the CLI has no spelling that allows no more than this rule" });
      continue;
    }
    const why = looserThanToolgate(pair, asks);
    if (why !== undefined) skipped.push({ rule, why });
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
