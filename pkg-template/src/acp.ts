// The Agent Client Protocol (ACP v1) adapter: a client's handler for the agent's
// `session/request_permission`. The agent's tool call becomes a toolgate call (its kind
// picks the tool, its locations and raw input the arguments); the broker decides, asking a
// person when the policy asks; the outcome becomes one of the options the agent offered.

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

/** A decision that had to use another option kind than the one it needed. */
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

/** The toolgate request for an ACP tool call. */
export function acpToolRequest(call: AcpRequestPermissionParams["toolCall"], options: AcpAdapterOptions = {}): ToolRequest {
  const raw: JsonObject = typeof call.rawInput === "object" && call.rawInput !== null && !Array.isArray(call.rawInput)
    ? call.rawInput : {};
  const paths = (call.locations ?? []).map((l) => l.path);
  const path = paths[0] ?? str(raw.file_path) ?? str(raw.path) ?? str(raw.abs_path) ?? "";
  const base = { ...(options.cwd !== undefined ? { cwd: options.cwd } : {}), ...(options.agent !== undefined ? { agent: options.agent } : {}) };
  switch (call.kind) {
    case "read":
      return { ...base, tool: "read", input: { file_path: path } };
    case "edit":
      if (typeof raw.old_string === "string" || typeof raw.oldText === "string") {
        return { ...base, tool: "edit", input: {
          file_path: path,
          old_string: str(raw.old_string) ?? str(raw.oldText) ?? "",
          new_string: str(raw.new_string) ?? str(raw.newText) ?? "",
        } };
      }
      return { ...base, tool: "write", input: { file_path: path, content: str(raw.content) ?? str(raw.newText) ?? "" } };
    case "delete":
      return { ...base, tool: "delete", input: { file_path: path } };
    case "move": {
      const from = paths[0] ?? str(raw.from) ?? str(raw.source) ?? "";
      const to = paths[1] ?? str(raw.to) ?? str(raw.destination) ?? "";
      return { ...base, tool: "bash", input: { command: `mv -- ${quote(from)} ${quote(to)}` } };
    }
    case "search": {
      const pattern = str(raw.pattern) ?? str(raw.query) ?? call.title ?? "";
      return { ...base, tool: "grep", input: { pattern, ...(paths[0] !== undefined ? { path: paths[0] } : {}) } };
    }
    case "execute": {
      const command = Array.isArray(raw.command)
        ? raw.command.map((w) => quote(String(w))).join(" ")
        : str(raw.command) ?? str(raw.cmd) ?? "";
      return { ...base, tool: "bash", input: { command } };
    }
    case "fetch":
      return { ...base, tool: "fetch", input: { url: str(raw.url) ?? str(raw.uri) ?? "" } };
    default:
      return { ...base, tool: OTHER_TOOL, input: { title: call.title ?? "", rawInput: call.rawInput ?? null, locations: paths } };
  }
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
    const approved = outcome.status === "approved";
    const order: AcpOptionKind[] = approved
      ? outcome.remembered ? ["allow_always", "allow_once"] : ["allow_once", "allow_always"]
      : ["reject_once", "reject_always"];
    const needed = order[0] as AcpOptionKind;
    for (const kind of order) {
      const option = params.options.find((o) => o.kind === kind);
      if (option === undefined) continue;
      if (kind !== needed) fallback(params, outcome, needed, kind);
      return { outcome: { outcome: "selected", optionId: option.optionId } };
    }
    // Neither kind is offered: the call must not run on an answer it cannot express.
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
      const call = { sessionId: params.sessionId, callId: params.toolCall.toolCallId, request: acpToolRequest(params.toolCall, options) };
      const outcome = broker.requestApproval(call);
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        onAbort = () => {
          const card = broker.pending().find((a) => a.sessionId === params.sessionId && a.callId === params.toolCall.toolCallId);
          if (card !== undefined) broker.cancel(card.id);
        };
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
