// The approval bridge between processes: the broker runs where the engine lives (Electron's
// main process, a VS Code extension host, a worker) and the UI elsewhere (a renderer, a
// webview, a page). Messages cross any postMessage-like channel and are validated on both
// sides; a response for an id the host never sent, or sent twice, is rejected and logged.
//
//   host → UI   { toolgate: 1, type: "approval-request", requestId, agent, toolCall, options }
//   host → UI   { toolgate: 1, type: "approval-settled", requestId, outcome }
//   host → UI   { toolgate: 1, type: "approval-rejected", requestId, code, message }
//   UI → host   { toolgate: 1, type: "approval-response", requestId, answer, bypass? }
//   UI → host   { toolgate: 1, type: "approve-all", sessionId, requestIds }
//   UI → host   { toolgate: 1, type: "deny-all", sessionId, requestIds, message? }
//   UI → host   { toolgate: 1, type: "hello" }   (asks for every pending request again)

import type { ApprovalBroker } from "./broker.js";
import { callSafely } from "./callbacks.js";
import { ToolgateError, toToolgateError } from "./errors.js";
import type { Answer, AnswerKind, ApprovalOutcome, ErrorCode, PendingApproval } from "./types.js";

/** Anything that posts messages and delivers them: MessagePort, Worker, window, a webview. */
export interface MessageChannelLike {
  postMessage(message: unknown): unknown;
  addEventListener?(type: "message", listener: (event: { data: unknown }) => void): void;
  removeEventListener?(type: "message", listener: (event: { data: unknown }) => void): void;
  on?(type: "message", listener: (data: unknown) => void): unknown;
  off?(type: "message", listener: (data: unknown) => void): unknown;
  onDidReceiveMessage?(listener: (data: unknown) => void): { dispose(): unknown };
  start?(): void;
}

/** A tool call waiting for an answer, as the UI receives it. */
export interface ApprovalRequestMessage {
  toolgate: 1;
  type: "approval-request";
  requestId: string;
  agent: string | null;
  toolCall: PendingApproval;
  options: AnswerKind[];
}

/**
 * The UI's answer. `bypass` also turns on the agent's "Bypass Permissions": only with an
 * allow answer, and only once the broker accepted it and approved the call.
 */
export interface ApprovalResponseMessage {
  toolgate: 1;
  type: "approval-response";
  requestId: string;
  answer: Answer;
  bypass?: boolean;
}

/**
 * The UI's "allow all" for a session: `requestIds` are the session's requests the person
 * saw. The host approves those (each for this call only) and no request the person did not
 * see.
 */
export interface ApproveAllMessage {
  toolgate: 1;
  type: "approve-all";
  sessionId: string;
  requestIds: string[];
}

/**
 * The UI's "deny all" for a session: denies every pending request of the session, with
 * `message` for the model. `requestIds` (the requests the person saw) prove the UI was
 * sent requests of this session.
 */
export interface DenyAllMessage {
  toolgate: 1;
  type: "deny-all";
  sessionId: string;
  requestIds: string[];
  message?: string;
}

/** Every message of the protocol. */
export type BridgeMessage =
  | ApprovalRequestMessage
  | ApprovalResponseMessage
  | ApproveAllMessage
  | DenyAllMessage
  | { toolgate: 1; type: "approval-settled"; requestId: string; outcome: ApprovalOutcome }
  | { toolgate: 1; type: "approval-rejected"; requestId: string; code: ErrorCode; message: string }
  | { toolgate: 1; type: "hello" };

/** Options of both ends. */
export interface BridgeOptions {
  /**
   * Where rejected and malformed messages, and errors thrown by listeners, are logged
   * (`console.warn` by default). If it throws, the error goes to `console.error`.
   */
  onError?: (error: ToolgateError) => unknown;
}

/** The bridge's logger: never throws, whatever `onError` does. */
function logger(onError: ((error: ToolgateError) => unknown) | undefined): (error: ToolgateError) => void {
  const log = onError ?? warn;
  const failed = (again: unknown) => {
    try {
      console.error("toolgate bridge: the error handler failed:", again);
    } catch {
      // nowhere left to report to
    }
  };
  return (error) => callSafely(log, error, failed);
}

function listen(channel: MessageChannelLike, handle: (data: unknown) => void): () => void {
  if (typeof channel.onDidReceiveMessage === "function") {
    const sub = channel.onDidReceiveMessage(handle);
    return () => void sub.dispose();
  }
  if (typeof channel.addEventListener === "function") {
    const listener = (event: { data: unknown }) => handle(event.data);
    channel.addEventListener("message", listener);
    channel.start?.();
    return () => channel.removeEventListener?.("message", listener);
  }
  if (typeof channel.on === "function") {
    channel.on("message", handle);
    return () => void channel.off?.("message", handle);
  }
  throw new ToolgateError("INVALID_REQUEST", "the channel cannot deliver messages", "",
    "pass a MessagePort, Worker, window or webview (addEventListener, on or onDidReceiveMessage)");
}

function invalid(message: string, path = ""): ToolgateError {
  return new ToolgateError("INVALID_MESSAGE", message, path, "send messages made by toolgate's bridge");
}

function record(data: unknown): { [key: string]: unknown } | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const r = data as { [key: string]: unknown };
  return r.toolgate === 1 ? r : undefined;
}

const warn = (error: ToolgateError) => console.warn(`toolgate bridge: ${error.message}`);

/** The host end, where the broker runs. Returns the function that detaches it. */
export function createBrokerHost(
  broker: ApprovalBroker,
  channel: MessageChannelLike,
  options: BridgeOptions = {},
): () => void {
  const log = logger(options.onError);
  const sent = new Map<string, PendingApproval>();
  const answered = new Set<string>();
  const post = (m: BridgeMessage) => channel.postMessage(m);
  const send = (a: PendingApproval) => {
    sent.set(a.id, a);
    post({ toolgate: 1, type: "approval-request", requestId: a.id, agent: a.agent, toolCall: a, options: a.answers });
  };
  const reject = (requestId: string, error: ToolgateError) => {
    log(error);
    post({ toolgate: 1, type: "approval-rejected", requestId, code: error.code, message: error.message });
  };
  const offRequest = broker.onRequest(send);
  const offTransition = broker.audit.onTransition((t) => {
    if (t.outcome !== undefined && sent.has(t.id)) {
      answered.add(t.id);
      post({ toolgate: 1, type: "approval-settled", requestId: t.id, outcome: t.outcome });
    }
  });
  // approve-all and deny-all: every named request was sent by this host, in this session.
  const answerAll = (m: { [key: string]: unknown }) => {
    const type = String(m.type);
    const { sessionId, requestIds: ids, message } = m;
    if (typeof sessionId !== "string" || sessionId === "") {
      return log(invalid(`\`${type}\` without a \`sessionId\``, "sessionId"));
    }
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id): id is string => typeof id === "string")) {
      return log(invalid(`\`${type}\` without \`requestIds\`, the ids of the requests the person saw`, "requestIds"));
    }
    if (message !== undefined && (type !== "deny-all" || typeof message !== "string")) {
      return log(invalid(`\`message\` must be a string, and only \`deny-all\` takes one`, "message"));
    }
    for (const [i, id] of ids.entries()) {
      const card = sent.get(id);
      if (card === undefined) {
        return reject(id, new ToolgateError("UNKNOWN_APPROVAL", `\`${type}\` names \`${id}\`, which this host never sent`,
          `requestIds[${i}]`, "name only requests this host sent"));
      }
      if (card.sessionId !== sessionId) {
        return reject(id, invalid(`\`${type}\` for session \`${sessionId}\` names \`${id}\` of session \`${card.sessionId}\``,
          `requestIds[${i}]`));
      }
    }
    const open = ids.filter((id) => !answered.has(id));
    if (open.length === 0) {
      for (const id of ids) {
        reject(id, new ToolgateError("ALREADY_SETTLED", `\`${type}\` names \`${id}\`, which is settled`, "requestIds",
          "each request is answered once"));
      }
      return;
    }
    try {
      if (type === "deny-all") {
        for (const id of broker.denyAll(sessionId, message as string | undefined)) answered.add(id);
        return;
      }
      const seen = new Set(open);
      const unseen = broker.pending().filter((a) => a.sessionId === sessionId && !seen.has(a.id));
      if (unseen.length === 0) {
        for (const id of broker.approveAll(sessionId)) answered.add(id);
        return;
      }
      // A request the person has not seen yet stays pending: approve the named ones only.
      for (const id of open) {
        try {
          broker.respond(id, { kind: "allow", scope: "once" });
          answered.add(id);
        } catch (err) {
          reject(id, toToolgateError(err));
        }
      }
    } catch (err) {
      for (const id of open) reject(id, toToolgateError(err));
    }
  };
  const handle = (data: unknown) => {
    const m = record(data);
    if (m === undefined) return log(invalid("a message that is not a toolgate message was ignored"));
    if (m.type === "hello") {
      for (const a of broker.pending()) send(a);
      return;
    }
    if (m.type === "approve-all" || m.type === "deny-all") return answerAll(m);
    if (m.type !== "approval-response") return log(invalid(`unexpected message type \`${String(m.type)}\``, "type"));
    const id = m.requestId;
    if (typeof id !== "string") return log(invalid("a response without a string `requestId`", "requestId"));
    const card = sent.get(id);
    if (card === undefined) {
      return reject(id, new ToolgateError("UNKNOWN_APPROVAL", `a response for \`${id}\`, which this host never sent`,
        "requestId", "answer only requests this host sent"));
    }
    if (answered.has(id)) {
      return reject(id, new ToolgateError("ALREADY_SETTLED", `a second response for \`${id}\``, "requestId",
        "each request is answered once"));
    }
    const answer = m.answer;
    if (record({ toolgate: 1, ...(answer as object) }) === undefined || typeof (answer as { kind?: unknown }).kind !== "string") {
      return reject(id, invalid("a response without an `answer` object", "answer"));
    }
    if (m.bypass !== undefined && typeof m.bypass !== "boolean") {
      return reject(id, invalid("`bypass` must be a boolean", "bypass"));
    }
    const allows = (answer as Answer).kind === "allow" || (answer as Answer).kind === "allowToolForSession";
    if (m.bypass === true && !allows) {
      return reject(id, invalid("`bypass` goes with an allow answer only", "bypass"));
    }
    let outcome: ApprovalOutcome;
    try {
      outcome = broker.respond(id, answer as Answer);
      answered.add(id);
    } catch (err) {
      return reject(id, toToolgateError(err));
    }
    // Bypass turns on only with an answer the broker accepted and that approved the call.
    if (m.bypass === true && card.agent !== null && outcome.status === "approved") {
      broker.trust.setAgentBypass(card.agent, true);
    }
  };
  // Whatever goes wrong while handling one message (a channel whose postMessage throws) is
  // logged; it never escapes into the channel's event dispatch.
  const offChannel = listen(channel, (data) => {
    try {
      handle(data);
    } catch (err) {
      log(toToolgateError(err));
    }
  });
  for (const a of broker.pending()) send(a);
  return () => {
    offRequest();
    offTransition();
    offChannel();
  };
}

/** The UI end: receives requests, sends answers. */
export interface ApprovalClient {
  /** Calls `listener` with every request (and every pending one on connect). */
  onRequest(listener: (approval: PendingApproval) => unknown): () => void;
  /** Calls `listener` when a request settles (answered here, elsewhere, or expired). */
  onSettled(listener: (requestId: string, outcome: ApprovalOutcome) => unknown): () => void;
  /** Calls `listener` when the host rejects a response. */
  onRejected(listener: (requestId: string, error: ToolgateError) => unknown): () => void;
  /** The requests waiting for an answer. */
  pending(): PendingApproval[];
  /** Answers a request; throws a `ToolgateError` for an id the host did not send, or answered. */
  respond(requestId: string, answer: Answer, options?: { bypass?: boolean }): void;
  /**
   * Allows every waiting request of the session, each for this call only ("allow all").
   * The host approves only these; a request that reaches the host's broker meanwhile stays
   * pending. Returns the ids sent (none when the session has no waiting request).
   */
  approveAll(sessionId: string): string[];
  /**
   * Denies every pending request of the session ("deny all"), with `message` for the model.
   * Returns the ids of the waiting requests it names (none when there are none: then it
   * sends nothing).
   */
  denyAll(sessionId: string, message?: string): string[];
  /** Detaches from the channel. */
  close(): void;
}

/** The UI end of the bridge, over `channel`. */
export function createApprovalClient(channel: MessageChannelLike, options: BridgeOptions = {}): ApprovalClient {
  const log = logger(options.onError);
  const reportListener = (err: unknown) => log(toToolgateError(err));
  const waiting = new Map<string, PendingApproval>();
  const answered = new Set<string>();
  const requestListeners = new Set<(a: PendingApproval) => unknown>();
  const settledListeners = new Set<(id: string, o: ApprovalOutcome) => unknown>();
  const rejectedListeners = new Set<(id: string, e: ToolgateError) => unknown>();
  const off = listen(channel, (data) => {
    const m = record(data);
    if (m === undefined || typeof m.requestId !== "string") {
      return log(invalid("a message that is not a toolgate message was ignored"));
    }
    const id = m.requestId;
    if (m.type === "approval-request" && typeof m.toolCall === "object" && m.toolCall !== null) {
      if (waiting.has(id) || answered.has(id)) return;
      const approval = m.toolCall as PendingApproval;
      waiting.set(id, approval);
      for (const l of [...requestListeners]) callSafely(l, approval, reportListener);
    } else if (m.type === "approval-settled") {
      waiting.delete(id);
      answered.add(id);
      for (const l of [...settledListeners]) callSafely((o: ApprovalOutcome) => l(id, o), m.outcome as ApprovalOutcome, reportListener);
    } else if (m.type === "approval-rejected") {
      const error = new ToolgateError(m.code as ErrorCode, String(m.message), "requestId");
      for (const l of [...rejectedListeners]) callSafely((e: ToolgateError) => l(id, e), error, reportListener);
    } else {
      log(invalid(`unexpected message type \`${String(m.type)}\``, "type"));
    }
  });
  channel.postMessage({ toolgate: 1, type: "hello" } satisfies BridgeMessage);
  const add = <T>(set: Set<T>, l: T) => {
    set.add(l);
    return () => void set.delete(l);
  };
  const answerAll = (sessionId: string, message: BridgeMessage) => {
    if (typeof sessionId !== "string" || sessionId === "") {
      throw new ToolgateError("INVALID_REQUEST", "a session id must be a non-empty string", "sessionId",
        "pass the `sessionId` of the requests from onRequest");
    }
    const ids = [...waiting.values()].filter((a) => a.sessionId === sessionId).map((a) => a.id);
    if (ids.length === 0) return ids;
    for (const id of ids) {
      waiting.delete(id);
      answered.add(id);
    }
    channel.postMessage({ ...message, requestIds: ids });
    return ids;
  };
  return {
    onRequest: (l) => add(requestListeners, l),
    onSettled: (l) => add(settledListeners, l),
    onRejected: (l) => add(rejectedListeners, l),
    pending: () => [...waiting.values()],
    respond(requestId, answer, opts = {}) {
      if (!waiting.has(requestId)) {
        throw new ToolgateError(answered.has(requestId) ? "ALREADY_SETTLED" : "UNKNOWN_APPROVAL",
          `no waiting request has id \`${requestId}\``, "requestId", "answer a request from onRequest, once");
      }
      waiting.delete(requestId);
      answered.add(requestId);
      const message: BridgeMessage = { toolgate: 1, type: "approval-response", requestId, answer };
      if (opts.bypass !== undefined) message.bypass = opts.bypass;
      channel.postMessage(message);
    },
    approveAll: (sessionId) =>
      answerAll(sessionId, { toolgate: 1, type: "approve-all", sessionId, requestIds: [] }),
    denyAll(sessionId, message) {
      const m: DenyAllMessage = { toolgate: 1, type: "deny-all", sessionId, requestIds: [] };
      if (message !== undefined) m.message = message;
      return answerAll(sessionId, m);
    },
    close: off,
  };
}
