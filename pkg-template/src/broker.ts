// ApprovalBroker: the core broker with host timers, promises and listeners. Every operation
// calls the core, then drains the transitions and audit events the core queued: settling
// transitions resolve promises, then listeners run (so they may call back into the broker),
// then one timer is scheduled for the earliest deadline.

import { bindings, type RawBroker } from "./bindings.js";
import { callSafely, reporter } from "./callbacks.js";
import { guard, jsonText, toToolgateError } from "./errors.js";
import { PolicyEngine, policyEngine, rawPolicy } from "./policy.js";
import type { TrustStorage } from "./storage.js";
import { adoptTrustStore, TrustStore } from "./trust.js";
import type {
  Answer, ApprovalOutcome, ApprovalRequest, AuditEvent, AuditQuery, McpTool, ModelFeedback,
  PendingApproval, PolicyDocument, SavedApproval, ToolDefinition, Transition, TrustDocument,
} from "./types.js";

/** Tools to register when the broker is made. */
export interface RegistryOptions {
  /** Tool definitions (name, JSON Schema of the arguments, kind, ...). */
  tools?: ToolDefinition[];
  /** MCP servers' `tools/list` results; only `trusted` servers' annotations may loosen. */
  mcpServers?: { server: string; trusted?: boolean; tools: McpTool[] }[];
}

/** Options of an `ApprovalBroker`. */
export interface ApprovalBrokerOptions {
  /** The policy: an engine (shared), a document, or JSON text. */
  policy: PolicyEngine | PolicyDocument | string;
  /** How long a person has to answer when a call names no `timeoutMs` (default 5 minutes). */
  defaultTimeoutMs?: number;
  /** The longest `timeoutMs` a call may ask for (default 24 hours). */
  maxTimeoutMs?: number;
  /** Deny calls of unregistered tools with `UNKNOWN_TOOL` (default `true`). */
  rejectUnknownTools?: boolean;
  /** How many settled ids answer `ALREADY_SETTLED` rather than `UNKNOWN_APPROVAL` (10,000). */
  rememberedSettled?: number;
  /** How many audit events are kept (10,000). */
  auditCapacity?: number;
  /** Tools whose arguments the audit trail records as they are (default: none, redacted). */
  recordArgumentsOf?: string[];
  /** Tools to register. */
  registry?: RegistryOptions;
  /** A persisted trust document to start from. */
  trust?: TrustDocument | string;
  /** Where the trust document is loaded from and saved to after every change. */
  storage?: TrustStorage;
  /** The clock (Unix ms); `Date.now` by default. */
  now?: () => number;
  /**
   * Called with errors the broker cannot throw: listeners that threw or whose promise
   * rejected, failed saves, a bad stored document. If it throws itself, both errors go to
   * `console.error`; nothing a host callback does leaves an approval unsettled.
   */
  onError?: (error: unknown) => void;
}

type Listener<T> = (value: T) => unknown;

/** The longest delay `setTimeout` takes (about 24.8 days). */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Asks people to approve the tool calls the policy asks about, remembers their answers as
 * far as they chose, and puts every step on the audit trail. `requestApproval` returns a
 * promise that settles exactly once: by the policy or a grant at once, by an answer, or when
 * the approval expires, is cancelled, or the broker shuts down.
 */
export class ApprovalBroker {
  /** The broker's own trust store (grants from answers land here). */
  readonly trust: TrustStore;
  /** Resolves when the stored trust document is loaded (at once without `storage`). */
  readonly ready: Promise<void>;

  #raw: RawBroker;
  #now: () => number;
  #onError: (error: unknown) => void;
  #storage: TrustStorage | undefined;
  #waiting = new Map<string, (outcome: ApprovalOutcome) => void>();
  #requestListeners = new Set<Listener<PendingApproval>>();
  #eventListeners = new Set<Listener<AuditEvent>>();
  #transitionListeners = new Set<Listener<Transition>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt: number | undefined;
  #flushing = false;
  #saving: Promise<void> = Promise.resolve();

  constructor(options: ApprovalBrokerOptions) {
    const engine = policyEngine(options.policy);
    const rawOptions = {
      defaultTimeoutMs: options.defaultTimeoutMs,
      maxTimeoutMs: options.maxTimeoutMs,
      rejectUnknownTools: options.rejectUnknownTools,
      rememberedSettled: options.rememberedSettled,
      auditCapacity: options.auditCapacity,
      recordArgumentsOf: options.recordArgumentsOf,
    };
    this.#raw = guard(
      () => new (bindings().RawBroker)(rawPolicy(engine), jsonText(rawOptions, "broker options")),
    );
    this.#now = options.now ?? Date.now;
    this.#onError = reporter(options.onError);
    this.#storage = options.storage;
    this.trust = adoptTrustStore(this.#raw, this.#now, () => this.#persist(), () => this.ready,
      () => this.flushStorage());
    for (const tool of options.registry?.tools ?? []) this.registerTool(tool);
    for (const server of options.registry?.mcpServers ?? []) {
      this.registerMcpTools(server.server, server.trusted ?? false, server.tools);
    }
    if (options.trust !== undefined) this.trust.import(options.trust);
    // From here until the stored document arrives, changes are recorded by the core and
    // replayed over it, so a revoke or bypass-off issued now is not undone by the load.
    this.#unsaved = false;
    if (this.#storage !== undefined) this.#raw.beginLoad();
    this.ready = this.#storage === undefined ? Promise.resolve() : this.#load(this.#storage);
    // A bad stored document is reported here too, so an unawaited `ready` never crashes Node.
    this.ready.catch((err: unknown) => this.#onError(err));
  }

  /**
   * Asks for approval of one call. The promise resolves with the outcome (never rejects
   * for a decision); it rejects with a `ToolgateError` only for a bad call (an empty
   * `sessionId`, a timeout out of range, a `callId` already pending, a shut-down broker).
   */
  requestApproval(call: ApprovalRequest): Promise<ApprovalOutcome> {
    try {
      const id = this.#op(() =>
        this.#raw.requestApproval(jsonText(call, "approval request"), this.#now()),
      );
      return this.#promiseFor(id);
    } catch (err) {
      return Promise.reject(toToolgateError(err));
    }
  }

  /**
   * Asks for approval of several calls; one promise each, in order. Every call is checked
   * first: a bad call throws a `ToolgateError` (path `[i]...`) and creates none.
   */
  requestApprovals(calls: ApprovalRequest[]): Promise<ApprovalOutcome>[] {
    let promises: Promise<ApprovalOutcome>[] = [];
    this.#op(() => {
      const ids = this.#raw.requestApprovals(jsonText(calls, "approval requests"), this.#now());
      promises = ids.map((id) => this.#register(id));
    });
    return promises;
  }

  /**
   * Answers a pending approval; the outcome it settled with (an allow whose edited call the
   * policy denies settles `denied`). Throws a `ToolgateError`: `UNKNOWN_APPROVAL`,
   * `ALREADY_SETTLED`, `ANSWER_NOT_OFFERED`, `GRANT_REFUSED`, `INVALID_PARAMS`, ...
   */
  respond(id: string, answer: Answer): ApprovalOutcome {
    return this.#op(() => this.#raw.respond(id, jsonText(answer, "answer"), this.#now()) as ApprovalOutcome);
  }

  /** Approves every pending call of the session (each once); their ids. */
  approveAll(sessionId: string): string[] {
    return this.#op(() => this.#raw.approveAll(sessionId, this.#now()));
  }

  /** Denies every pending call of the session; their ids. */
  denyAll(sessionId: string, message?: string): string[] {
    return this.#op(() => this.#raw.denyAll(sessionId, message, this.#now()));
  }

  /** Cancels one approval (pending, or approved and not yet running). */
  cancel(id: string): void {
    this.#op(() => this.#raw.cancel(id, this.#now()));
  }

  /**
   * Records in the audit trail that an adapter answered approval `id` with a substitute
   * (e.g. ACP's `reject_always` when no `reject_once` was offered); `detail` says what was
   * needed and what was sent. Returns the audit event's `seq`. Throws `UNKNOWN_APPROVAL` for
   * an id the broker never had (or whose events were evicted), `INVALID_PARAMS` for an empty
   * or overlong detail.
   */
  recordFallback(id: string, detail: string): number {
    return this.#op(() => this.#raw.recordFallback(id, detail, this.#now()));
  }

  /** Cancels every pending and approved-not-running call of the session; their ids. */
  cancelSession(sessionId: string): string[] {
    return this.#op(() => this.#raw.cancelSession(sessionId, this.#now()));
  }

  /** Cancels the session's calls and forgets its session grants; the cancelled ids. */
  endSession(sessionId: string): string[] {
    return this.#op(() => this.#raw.endSession(sessionId, this.#now()));
  }

  /** Expires every approval past its deadline now; their ids. The broker's timer does this. */
  tick(): string[] {
    return this.#op(() => this.#raw.tick(this.#now()));
  }

  /** Every pending approval, oldest first. */
  pending(): PendingApproval[] {
    return guard(() => this.#raw.pending() as PendingApproval[]);
  }

  /**
   * Calls `listener` with every new pending approval; returns the unsubscribe function. A
   * listener that throws, or returns a promise that rejects, is reported to `onError`.
   */
  onRequest(listener: (approval: PendingApproval) => unknown): () => void {
    return subscribe(this.#requestListeners, listener);
  }

  /** Calls `listener` with every audit event as it is recorded; returns the unsubscribe. */
  onEvent(listener: (event: AuditEvent) => unknown): () => void {
    return subscribe(this.#eventListeners, listener);
  }

  /** Calls `listener` with every step of every approval; returns the unsubscribe. */
  onTransition(listener: (transition: Transition) => unknown): () => void {
    return subscribe(this.#transitionListeners, listener);
  }

  /** Replaces the policy (rules edited live); pending approvals keep their decisions. */
  setPolicy(policy: PolicyEngine | PolicyDocument | string): void {
    const engine = policyEngine(policy);
    this.#raw.setPolicy(rawPolicy(engine));
  }

  /** The retained audit events that match `query`. */
  audit(query: AuditQuery = {}): AuditEvent[] {
    return guard(() => this.#raw.audit(jsonText(query, "audit query")) as AuditEvent[]);
  }

  /** The retained audit events that match `query`, as JSON Lines. */
  exportAudit(query: AuditQuery = {}): string {
    return guard(() => this.#raw.exportAudit(jsonText(query, "audit query")));
  }

  /** The host started running an approved call. */
  startExecution(id: string): void {
    this.#op(() => this.#raw.startExecution(id, this.#now()));
  }

  /** A running call finished. */
  complete(id: string): void {
    this.#op(() => this.#raw.complete(id, this.#now()));
  }

  /** A running call failed; the feedback for the model. */
  fail(id: string, error: string): ModelFeedback {
    return this.#op(() => this.#raw.fail(id, error, this.#now()) as ModelFeedback);
  }

  /** Saves a pending approval to resume after a restart. */
  savePending(id: string): SavedApproval {
    return guard(() => this.#raw.savePending(id) as SavedApproval);
  }

  /** Resumes a saved approval for the exact call it was saved for. */
  resume(saved: SavedApproval, call: ApprovalRequest): Promise<ApprovalOutcome> {
    try {
      const id = this.#op(() =>
        this.#raw.resume(jsonText(saved, "saved approval"), jsonText(call, "approval request"), this.#now()),
      );
      return this.#promiseFor(id);
    } catch (err) {
      return Promise.reject(toToolgateError(err));
    }
  }

  /** Registers a tool (replacing one of the same name). */
  registerTool(definition: ToolDefinition): void {
    guard(() => this.#raw.registerTool(jsonText(definition, "tool definition")));
  }

  /**
   * Registers the tools of an MCP server's `tools/list` result; the names calls use
   * (`mcp__server__tool`). Only a `trusted` server's annotations may loosen anything.
   */
  registerMcpTools(server: string, trusted: boolean, tools: McpTool[] | { tools: McpTool[] }): string[] {
    const list = Array.isArray(tools) ? tools : tools.tools;
    return list.map((tool) =>
      guard(() => this.#raw.registerMcpTool(server, trusted, jsonText(tool, "MCP tool"))),
    );
  }

  /** Removes a registered tool; whether there was one. */
  unregisterTool(name: string): boolean {
    return this.#raw.unregisterTool(name);
  }

  /** The registered tools' names. */
  toolNames(): string[] {
    return this.#raw.toolNames();
  }

  /** Settles everything not running as `cancelled`; later calls are `SHUT_DOWN`. */
  shutdown(): void {
    this.#op(() => this.#raw.shutdown(this.#now()));
    this.#clearTimer();
  }

  // ---- internals ----

  /** Runs a core operation, then delivers what it queued, whether it threw or not. */
  #op<T>(f: () => T): T {
    try {
      return guard(f);
    } finally {
      this.#flush();
    }
  }

  #register(id: string): Promise<ApprovalOutcome> {
    return new Promise<ApprovalOutcome>((resolve) => this.#waiting.set(id, resolve));
  }

  /** The promise for an id created by the last operation (whose transitions are delivered). */
  #promiseFor(id: string): Promise<ApprovalOutcome> {
    const settled = this.#settledEarly.get(id);
    if (settled !== undefined) {
      this.#settledEarly.delete(id);
      return Promise.resolve(settled);
    }
    return this.#register(id);
  }

  #settledEarly = new Map<string, ApprovalOutcome>();

  #flush(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      for (;;) {
        const transitions = guard(() => this.#raw.drainTransitions() as Transition[]);
        const events = guard(() => this.#raw.drainEvents() as AuditEvent[]);
        if (transitions.length === 0 && events.length === 0) break;
        for (const t of transitions) this.#deliver(t);
        for (const e of events) this.#emit(this.#eventListeners, e);
      }
    } finally {
      this.#flushing = false;
    }
    this.#schedule();
  }

  #deliver(t: Transition): void {
    if (t.outcome !== undefined) {
      const resolve = this.#waiting.get(t.id);
      if (resolve !== undefined) {
        this.#waiting.delete(t.id);
        resolve(t.outcome);
      } else if (t.from === null || t.from === "pendingApproval") {
        // Settled within the operation that created it: the promise is made right after.
        this.#settledEarly.set(t.id, t.outcome);
      }
      if (t.outcome.scope === "always" && (t.outcome.grants?.length ?? 0) > 0) this.#persist();
    }
    if (t.approval !== undefined) this.#emit(this.#requestListeners, t.approval);
    this.#emit(this.#transitionListeners, t);
  }

  #emit<T>(listeners: Set<Listener<T>>, value: T): void {
    for (const listener of [...listeners]) callSafely(listener, value, this.#onError);
  }

  #schedule(): void {
    const deadline = this.#raw.nextDeadline();
    if (deadline === undefined) {
      this.#clearTimer();
      return;
    }
    if (this.#timer !== undefined && this.#timerAt === deadline) return;
    this.#clearTimer();
    const delay = Math.min(MAX_DELAY, Math.max(0, deadline - this.#now()));
    this.#timerAt = deadline;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = undefined;
      try {
        this.tick();
      } catch (err) {
        this.#onError(err);
      }
    }, delay);
    const handle = this.#timer as { unref?: () => void };
    if (typeof handle.unref === "function") handle.unref();
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = undefined;
  }

  /** False until the stored document loaded; a bad one is never overwritten. */
  #loaded = false;

  async #load(storage: TrustStorage): Promise<void> {
    let text: string | null;
    try {
      text = await storage.load();
    } catch (err) {
      guard(() => this.#raw.finishLoad(undefined));
      throw err;
    }
    // Imports the stored document and replays what changed meanwhile; a bad document
    // throws here, and the store keeps what the changes made (and never saves over it).
    guard(() => this.#raw.finishLoad(text ?? undefined));
    this.#loaded = true;
    if (this.#unsaved) this.#persist();
  }

  /** A change to the persisted part was made before the stored document loaded. */
  #unsaved = false;

  #persist(): void {
    const storage = this.#storage;
    if (storage === undefined) return;
    if (!this.#loaded) {
      this.#unsaved = true;
      return;
    }
    const text = this.#raw.exportText(this.#now());
    this.#saving = this.#saving
      .then(() => storage.save(text))
      .catch((err: unknown) => this.#onError(err));
  }

  /** Resolves when every save started so far has finished. */
  flushStorage(): Promise<void> {
    return this.#saving;
  }
}

function subscribe<T>(listeners: Set<Listener<T>>, listener: Listener<T>): () => void {
  const wrapped: Listener<T> = (value) => listener(value);
  listeners.add(wrapped);
  return () => {
    listeners.delete(wrapped);
  };
}
