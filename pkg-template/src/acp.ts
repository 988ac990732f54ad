// The Agent Client Protocol (ACP v1) adapter: a client's handler for the agent's
// `session/request_permission`. The agent's tool call becomes a toolgate call (its kind
// picks the tool, its locations and raw input the arguments); the broker decides, asking a
// person when the policy asks; the outcome becomes one of the options the agent offered.

import { callDirectory } from "./call-directory.js";
import type { ApprovalBroker } from "./broker.js";
import type { ApprovalOutcome, JsonObject, JsonValue, ToolRequest } from "./types.js";

/** ACP tool kinds. */
export type AcpToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "switch_mode" | "other";
/** ACP permission option kinds. */
export type AcpOptionKind = "allow_once" | "allow_always" | "reject_once" | "reject_always";

/** `session/request_permission` params (ACP v1). */
export interface AcpRequestPermissionParams {
  sessionId: string;
  toolCall: {
    toolCallId: string;
    title?: string | null;
    kind?: AcpToolKind | null;
    status?: string | null;
    rawInput?: JsonValue;
    locations?: { path: string; line?: number | null }[] | null;
  };
  options: { optionId: string; name: string; kind: AcpOptionKind }[];
}

/** `session/request_permission` result (ACP v1). */
export interface AcpRequestPermissionResponse {
  outcome: { outcome: "selected"; optionId: string } | { outcome: "cancelled" };
}

/** A decision that had to use another option kind than the one it needed, or none (`cancelled`). */
export interface AcpFallback {
  sessionId: string;
  toolCallId: string;
  approvalId: string;
  needed: AcpOptionKind;
  used: AcpOptionKind | "cancelled";
}

/** Options of the ACP adapter. */
export interface AcpAdapterOptions {
  /** The agent's name, for agent-bound rules and grants. */
  agent?: string;
  /** The working directory of relative paths. */
  cwd?: string;
  /** Called whenever the needed option kind was not offered (also logged with console.warn). */
  onFallback?: (fallback: AcpFallback) => void;
}

/** The parts of an `AbortSignal` the handler uses. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** The client-side handler of `session/request_permission`. */
export interface AcpPermissionHandler {
  requestPermission(
    params: AcpRequestPermissionParams,
    options?: { signal?: AbortSignalLike },
  ): Promise<AcpRequestPermissionResponse>;
  /** ACP `session/cancel`: every pending request of the session answers `cancelled`. */
  cancelSession(sessionId: string): void;
}

const OTHER_TOOL = "acp_other";

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** `rawInput` keys that name the directory a call runs in (Gemini's `dir_path`, Codex's `workdir`). */
const DIRECTORY_KEYS = ["dir_path", "directory", "workdir", "cwd", "working_directory"] as const;
/** `rawInput` keys that name one path the call acts on. */
const PATH_KEYS = ["file_path", "path", "abs_path", "absolute_path"] as const;

/**
 * The directories the call may run in: every distinct directory its raw input names (an agent
 * reads one key and ignores the others, and toolgate cannot know which), else the project.
 */
function runsIn(raw: JsonObject, project: string | undefined): (string | undefined)[] {
  const named = DIRECTORY_KEYS.map((key) => str(raw[key])).filter((dir): dir is string => dir !== undefined && dir !== "");
  if (named.length === 0) return [callDirectory(undefined, project)];
  return [...new Set(named.map((dir) => callDirectory(dir, project)))];
}

/** Every path the call names: its locations and the paths of its raw input, each once. */
function namedPaths(call: AcpRequestPermissionParams["toolCall"], raw: JsonObject): string[] {
  const paths = (call.locations ?? []).map((l) => l.path);
  for (const key of PATH_KEYS) {
    const path = str(raw[key]);
    if (path !== undefined && path !== "") paths.push(path);
  }
  if (Array.isArray(raw.paths)) for (const path of raw.paths) if (typeof path === "string" && path !== "") paths.push(path);
  return [...new Set(paths)];
}

/**
 * The toolgate request for an ACP tool call: the first of `acpToolRequests`, which the handler
 * judges all of. A call with several locations is allowed only when every one of them is.
 */
export function acpToolRequest(call: AcpRequestPermissionParams["toolCall"], options: AcpAdapterOptions = {}): ToolRequest {
  return acpToolRequests(call, options)[0] ?? { tool: OTHER_TOOL, input: {} };
}

/**
 * The toolgate requests for an ACP tool call, one per path it acts on (every location and
 * every path of its raw input): a read of `README.md` and `~/.ssh/id_rsa` is two reads, and the
 * strictest decision of them is the call's. A call that names its own directory (`dir_path`,
 * `directory`, `workdir`, `cwd` in its raw input) runs there: that is each request's `cwd`,
 * and the handler's `cwd` is the project (`root`), where `./` rules stay anchored. A call that
 * names several different directories is judged in each of them (one set of requests per
 * directory), so an extra key can never pick the looser one.
 *
 * ```ts
 * acpToolRequests({ toolCallId: "t", kind: "read", locations: [{ path: "/p/a" }, { path: "/p/b" }] });
 * // [{ tool: "read", input: { file_path: "/p/a" } }, { tool: "read", input: { file_path: "/p/b" } }]
 * ```
 */
export function acpToolRequests(call: AcpRequestPermissionParams["toolCall"], options: AcpAdapterOptions = {}): ToolRequest[] {
  const raw: JsonObject = typeof call.rawInput === "object" && call.rawInput !== null && !Array.isArray(call.rawInput)
    ? call.rawInput : {};
  // One set of requests per directory the call names: the strictest of them is the call's.
  return runsIn(raw, options.cwd).flatMap((cwd) => requestsIn(call, raw, cwd, options));
}

/** The toolgate requests for an ACP tool call run in `cwd`. */
function requestsIn(
  call: AcpRequestPermissionParams["toolCall"],
  raw: JsonObject,
  cwd: string | undefined,
  options: AcpAdapterOptions,
): ToolRequest[] {
  const locations = (call.locations ?? []).map((l) => l.path);
  const paths = namedPaths(call, raw);
  const each = paths.length > 0 ? paths : [""];
  const base = {
    ...(cwd !== undefined ? { cwd } : {}),
    ...(options.cwd !== undefined && cwd !== options.cwd ? { root: options.cwd } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
  };
  switch (call.kind) {
    case "read":
      return each.map((path) => ({ ...base, tool: "read", input: { file_path: path } }));
    case "edit":
      if (typeof raw.old_string === "string" || typeof raw.oldText === "string") {
        const old_string = str(raw.old_string) ?? str(raw.oldText) ?? "";
        const new_string = str(raw.new_string) ?? str(raw.newText) ?? "";
        return each.map((path) => ({ ...base, tool: "edit", input: { file_path: path, old_string, new_string } }));
      }
      return each.map((path) => ({ ...base, tool: "write", input: { file_path: path, content: str(raw.content) ?? str(raw.newText) ?? "" } }));
    case "delete":
      return each.map((path) => ({ ...base, tool: "delete", input: { file_path: path } }));
    case "move": {
      // Every location is a source but the last, the destination: `mv` judges them all.
      const words = locations.length >= 2
        ? locations
        : [str(raw.from) ?? str(raw.source) ?? locations[0] ?? "", str(raw.to) ?? str(raw.destination) ?? ""];
      return [{ ...base, tool: "bash", input: { command: `mv -- ${words.map(quote).join(" ")}` } }];
    }
    case "search": {
      const pattern = str(raw.pattern) ?? str(raw.query) ?? call.title ?? "";
      if (paths.length === 0) return [{ ...base, tool: "grep", input: { pattern } }];
      return paths.map((path) => ({ ...base, tool: "grep", input: { pattern, path } }));
    }
    case "execute": {
      const command = Array.isArray(raw.command)
        ? raw.command.map((w) => quote(String(w))).join(" ")
        : str(raw.command) ?? str(raw.cmd) ?? "";
      return [{ ...base, tool: "bash", input: { command } }];
    }
    case "fetch":
      return [{ ...base, tool: "fetch", input: { url: str(raw.url) ?? str(raw.uri) ?? "" } }];
    default:
      return [{ ...base, tool: OTHER_TOOL, input: { title: call.title ?? "", rawInput: call.rawInput ?? null, locations } }];
  }
}

/**
 * The outcome of a call judged as several requests: the first that is not approved (the
 * others still waiting are cancelled: the call does not run anyway), else every approval, as
 * remembered only when each was.
 */
function strictest(outcomes: Promise<ApprovalOutcome>[], cancelRest: () => void): Promise<ApprovalOutcome> {
  return new Promise((resolve, reject) => {
    const approved: ApprovalOutcome[] = [];
    let done = false;
    for (const outcome of outcomes) {
      outcome.then((o) => {
        if (done) return;
        if (o.status !== "approved") {
          done = true;
          cancelRest();
          resolve(o);
          return;
        }
        approved.push(o);
        if (approved.length === outcomes.length) {
          done = true;
          resolve({ ...o, remembered: approved.every((a) => a.remembered) });
        }
      }, (err: unknown) => {
        if (done) return;
        done = true;
        cancelRest();
        reject(err);
      });
    }
  });
}

/**
 * The option kinds that may answer an outcome, best first. An approval is only ever
 * `allow_once`, whether a person allowed it once, for the session or always, or a grant did:
 * the grant stays in toolgate, so the agent's next call comes back to it. The agent's
 * `allow_always` would approve far more than the grant (Gemini CLI turns it into "approve every
 * edit", or every command of the program), so it is never chosen. A refusal may widen to
 * `reject_always`: that only makes the agent ask less about what it may not do.
 */
function optionOrder(outcome: Pick<ApprovalOutcome, "status">): AcpOptionKind[] {
  return outcome.status === "approved" ? ["allow_once"] : ["reject_once", "reject_always"];
}

/**
 * The handler of `session/request_permission` over `broker`. Registers `acp_other` (a tool
 * that is never trusted) for calls of kind `other`, `think` and `switch_mode`, so that the
 * policy asks about them rather than the registry denying them.
 */
export function createAcpPermissionHandler(broker: ApprovalBroker, options: AcpAdapterOptions = {}): AcpPermissionHandler {
  broker.tools.register({
    name: OTHER_TOOL,
    title: "Agent tool",
    description: "A tool call an ACP agent describes only by its title",
    parameters: { type: "object" },
    kind: "other",
    trustable: false,
  });
  const choose = (
    params: AcpRequestPermissionParams,
    outcome: ApprovalOutcome,
  ): AcpRequestPermissionResponse => {
    if (outcome.status === "cancelled") return { outcome: { outcome: "cancelled" } };
    const order = optionOrder(outcome);
    const needed = order[0] as AcpOptionKind;
    for (const kind of order) {
      const option = params.options.find((o) => o.kind === kind);
      if (option === undefined) continue;
      if (kind !== needed) fallback(params, outcome, needed, kind);
      return { outcome: { outcome: "selected", optionId: option.optionId } };
    }
    // No kind that says exactly this is offered: the call must not run on an answer that
    // would say more (an approval is never sent as `allow_always`).
    fallback(params, outcome, needed, "cancelled");
    return { outcome: { outcome: "cancelled" } };
  };
  const fallback = (p: AcpRequestPermissionParams, o: ApprovalOutcome, needed: AcpOptionKind, used: AcpOptionKind | "cancelled") => {
    const f: AcpFallback = { sessionId: p.sessionId, toolCallId: p.toolCall.toolCallId, approvalId: o.id, needed, used };
    const detail = `ACP option \`${needed}\` was not offered for tool call \`${f.toolCallId}\`; answered ${used}`;
    broker.audit.recordFallback(o.id, detail);
    console.warn(`toolgate acp: ${detail}`);
    options.onFallback?.(f);
  };
  return {
    async requestPermission(params, { signal } = {}) {
      if (signal?.aborted) return { outcome: { outcome: "cancelled" } };
      // One approval per path the call acts on; the call id of the first is the agent's.
      const callIds = new Set<string>();
      const calls = acpToolRequests(params.toolCall, options).map((request, i) => {
        const callId = i === 0 ? params.toolCall.toolCallId : `${params.toolCall.toolCallId}#${i + 1}`;
        callIds.add(callId);
        return { sessionId: params.sessionId, callId, request };
      });
      const cancelAll = () => {
        for (const card of broker.pending()) {
          if (card.sessionId === params.sessionId && card.callId !== null && card.callId !== undefined && callIds.has(card.callId)) broker.cancel(card.id);
        }
      };
      const [only] = calls;
      const outcome = calls.length === 1 && only !== undefined
        ? broker.requestApproval(only)
        : strictest(broker.requestApprovals(calls), cancelAll);
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        onAbort = cancelAll;
        signal.addEventListener("abort", onAbort, { once: true });
      }
      try {
        return choose(params, await outcome);
      } finally {
        if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
      }
    },
    cancelSession(sessionId) {
      broker.sessions.cancel(sessionId);
    },
  };
}
