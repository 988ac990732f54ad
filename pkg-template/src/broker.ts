// ApprovalBroker: the core broker with host timers, promises and listeners. Every operation
// crosses into the core once and gets back one batch: its result, the transitions and audit
// events it caused, the next deadline, and the trust document to save when the core says so.
// Delivering a batch resolves the promises of settled approvals, then runs listeners (which
// may call back into the broker: their operations' batches are delivered after this one),
// then saves, then sets one timer for the earliest deadline.

import { bindings, type RawBroker } from "./bindings.js";
import { callSafely, reporter } from "./callbacks.js";
import { guard, jsonText, toToolgateError } from "./errors.js";
import { Policy, toPolicy, rawPolicy } from "./policy.js";
import type { TrustStorage } from "./storage.js";
import { adoptTrustStore, TrustStore, type TrustBackend } from "./trust.js";
import type {
  Admitted, Answer, ApprovalOutcome, ApprovalRequest, AuditEvent, AuditQuery, Batch, Grant,
  McpTool, ModelFeedback, PendingApproval, PolicyDocument, SavedApproval, ToolDefinition,
  Transition, TrustDocument,
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
  policy: Policy | PolicyDocument | string;
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

/** The audit trail: query and export it, watch it, add to it. */
export interface BrokerAudit {
  /** The retained audit events that match `query`. */
  query(query?: AuditQuery): AuditEvent[];
  /** The retained audit events that match `query`, as JSON Lines. */
  toJsonLines(query?: AuditQuery): string;
  /** Calls `listener` with every audit event as it is recorded; returns the unsubscribe. */
  onEvent(listener: (event: AuditEvent) => unknown): () => void;
  /** Calls `listener` with every step of every approval; returns the unsubscribe. */
  onTransition(listener: (transition: Transition) => unknown): () => void;
  /**
   * Records that an adapter answered approval `id` with a substitute (e.g. ACP's
   * `reject_always` when no `reject_once` was offered); `detail` says what was needed and
   * what was sent. Returns the audit event's `seq`. Throws `UNKNOWN_APPROVAL` for an id the
   * broker never had (or whose events were evicted), `INVALID_PARAMS` for an empty or
   * overlong detail.
   */
  recordFallback(id: string, detail: string): number;
}

/** The tool registry: what calls may name, and the JSON Schema of their arguments. */
export interface BrokerTools {
  /** Registers a tool (replacing one of the same name). */
  register(definition: ToolDefinition): void;
  /**
   * Registers the tools of an MCP server's `tools/list` result; the names calls use
   * (`mcp__server__tool`). Only a `trusted` server's annotations may loosen anything.
   */
  registerMcp(server: string, trusted: boolean, tools: McpTool[] | { tools: McpTool[] }): string[];
  /** Removes a registered tool; whether there was one. */
  unregister(name: string): boolean;
  /** The registered tools' names. */
  names(): string[];
}

/** Approved calls as they run. */
export interface BrokerRuns {
  /** The host started running an approved call. */
  start(id: string): void;
  /** A running call finished. */
  complete(id: string): void;
  /** A running call failed; the feedback for the model. */
  fail(id: string, error: string): ModelFeedback;
}

/** Whole sessions (conversations). */
export interface BrokerSessions {
  /** Cancels every pending and approved-not-running call of the session; their ids. */
  cancel(sessionId: string): string[];
  /** Cancels the session's calls and forgets its session grants; the cancelled ids. */
  end(sessionId: string): string[];
}

/** Pending approvals saved to survive a restart. */
export interface SavedApprovals {
  /** Saves a pending approval to resume after a restart. */
  save(id: string): SavedApproval;
  /** Resumes a saved approval for the exact call it was saved for. */
  resume(saved: SavedApproval, call: ApprovalRequest): Promise<ApprovalOutcome>;
}

/** Deadlines: the broker's own timer expires approvals; tests with a fake clock tick it. */
export interface BrokerDeadlines {
  /** Expires every approval past its deadline now; their ids. */
  tick(): string[];
  /** The earliest deadline of a pending approval (Unix ms), if any. */
  next(): number | undefined;
}

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
  /** The audit trail. */
  readonly audit: BrokerAudit;
  /** The tool registry. */
  readonly tools: BrokerTools;
  /** Approved calls as they run. */
  readonly runs: BrokerRuns;
  /** Whole sessions. */
  readonly sessions: BrokerSessions;
  /** Pending approvals saved to survive a restart. */
  readonly saved: SavedApprovals;
  /** The deadlines. */
  readonly deadlines: BrokerDeadlines;

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
  #nextDeadline: number | undefined;
  #queue: Batch<unknown>[] = [];
  #delivering = false;
  #saving: Promise<void> = Promise.resolve();

  constructor(options: ApprovalBrokerOptions) {
    const engine = toPolicy(options.policy);
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
    const raw = this.#raw;
    const now = () => this.#now();
    this.audit = {
      query: (query = {}) => guard(() => raw.audit(jsonText(query, "audit query")) as AuditEvent[]),
      toJsonLines: (query = {}) => guard(() => raw.exportAudit(jsonText(query, "audit query"))),
      onEvent: (listener) => subscribe(this.#eventListeners, listener),
      onTransition: (listener) => subscribe(this.#transitionListeners, listener),
      recordFallback: (id, detail) => this.#op<number>(() => raw.recordFallback(id, detail, now())),
    };
    this.tools = {
      register: (definition) => guard(() => raw.registerTool(jsonText(definition, "tool definition"))),
      registerMcp: (server, trusted, tools) => {
        const list = Array.isArray(tools) ? tools : tools.tools;
        return list.map((tool) => guard(() => raw.registerMcpTool(server, trusted, jsonText(tool, "MCP tool"))));
      },
      unregister: (name) => raw.unregisterTool(name),
      names: () => raw.toolNames(),
    };
    this.runs = {
      start: (id) => {
        this.#op<null>(() => raw.startExecution(id, now()));
      },
      complete: (id) => {
        this.#op<null>(() => raw.complete(id, now()));
      },
      fail: (id, error) => this.#op<ModelFeedback>(() => raw.fail(id, error, now())),
    };
    this.sessions = {
      cancel: (sessionId) => this.#op<string[]>(() => raw.cancelSession(sessionId, now())),
      end: (sessionId) => this.#op<string[]>(() => raw.endSession(sessionId, now())),
    };
    this.saved = {
      save: (id) => guard(() => raw.savePending(id) as SavedApproval),
      resume: (saved, call) => this.#admitOne(() =>
        raw.resume(jsonText(saved, "saved approval"), jsonText(call, "approval request"), now())),
    };
    this.deadlines = {
      tick: () => this.#op<string[]>(() => raw.tick(now())),
      next: () => this.#nextDeadline,
    };
    const trust: TrustBackend = {
      grant: (grant) => this.#op<Grant>(() => raw.grant(jsonText(grant, "grant"), now())),
      revoke: (id) => this.#op<boolean>(() => raw.revoke(id, now())),
      list: () => guard(() => raw.list(now()) as Grant[]),
      clearSession: (sessionId) => this.#op<number>(() => raw.clearSession(sessionId, now())),
      setAgentBypass: (agent, on) => {
        this.#op<null>(() => raw.setAgentBypass(agent, on, now()));
      },
      bypassAgents: () => raw.bypassAgents(),
      exportText: () => raw.exportText(now()),
      importText: (text) => this.#op<number>(() => raw.importText(text, now())),
      ready: () => this.ready,
      flush: () => this.#saving,
    };
    this.trust = adoptTrustStore(trust);
    for (const tool of options.registry?.tools ?? []) this.tools.register(tool);
    for (const server of options.registry?.mcpServers ?? []) {
      this.tools.registerMcp(server.server, server.trusted ?? false, server.tools);
    }
    if (options.trust !== undefined) this.trust.import(options.trust);
    // From here until the stored document arrives, changes are recorded by the core and
    // replayed over it, so a revoke or bypass-off issued now is not undone by the load; the
    // core hands out the document to save once the load has finished, never before.
    if (this.#storage !== undefined) raw.beginLoad();
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
    return this.#admitOne(() => this.#raw.requestApproval(jsonText(call, "approval request"), this.#now()));
  }

  /**
   * Asks for approval of several calls; one promise each, in order. Every call is checked
   * first: a bad call throws a `ToolgateError` (path `[i]...`) and creates none.
   */
  requestApprovals(calls: ApprovalRequest[]): Promise<ApprovalOutcome>[] {
    return this.#run<Admitted[], Promise<ApprovalOutcome>[]>(
      () => this.#raw.requestApprovals(jsonText(calls, "approval requests"), this.#now()),
      (admitted) => admitted.map((a) => this.#promiseFor(a)),
    );
  }

  /**
   * Answers a pending approval; the outcome it settled with (an allow whose edited call the
   * policy denies settles `denied`). Throws a `ToolgateError`: `UNKNOWN_APPROVAL`,
   * `ALREADY_SETTLED`, `ANSWER_NOT_OFFERED`, `GRANT_REFUSED`, `INVALID_PARAMS`, ...
   */
  respond(id: string, answer: Answer): ApprovalOutcome {
    return this.#op<ApprovalOutcome>(() => this.#raw.respond(id, jsonText(answer, "answer"), this.#now()));
  }

  /** Approves every pending call of the session (each once); their ids. */
  approveAll(sessionId: string): string[] {
    return this.#op<string[]>(() => this.#raw.approveAll(sessionId, this.#now()));
  }

  /** Denies every pending call of the session; their ids. */
  denyAll(sessionId: string, message?: string): string[] {
    return this.#op<string[]>(() => this.#raw.denyAll(sessionId, message, this.#now()));
  }

  /** Cancels one approval (pending, or approved and not yet running). */
  cancel(id: string): void {
    this.#op<null>(() => this.#raw.cancel(id, this.#now()));
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

  /** Replaces the policy (rules edited live); pending approvals keep their decisions. */
  setPolicy(policy: Policy | PolicyDocument | string): void {
    const engine = toPolicy(policy);
    this.#raw.setPolicy(rawPolicy(engine));
  }

  /** Settles everything not running as `cancelled`; later calls are `SHUT_DOWN`. */
  shutdown(): void {
    this.#op<null>(() => this.#raw.shutdown(this.#now()));
    this.#clearTimer();
  }

  // ---- internals ----

  /** Runs one core operation and delivers its batch; its result. */
  #op<T>(call: () => unknown): T {
    return this.#run<T, T>(call, (result) => result);
  }

  /**
   * Runs one core operation (one crossing), hands its result to `take` (which registers the
   * promises of approvals that wait), then delivers the batch. When the operation throws,
   * whatever it had queued is delivered before the error is rethrown.
   */
  #run<T, R>(call: () => unknown, take: (result: T) => R): R {
    let batch: Batch<T>;
    try {
      batch = guard(() => call() as Batch<T>);
    } catch (err) {
      this.#deliver(guard(() => this.#raw.takeQueued(this.#now()) as Batch<null>));
      throw err;
    }
    const out = take(batch.result);
    this.#deliver(batch);
    return out;
  }

  /** One call's promise: settled already when the core settled it within the operation. */
  #admitOne(call: () => unknown): Promise<ApprovalOutcome> {
    try {
      return this.#run<Admitted, Promise<ApprovalOutcome>>(call, (a) => this.#promiseFor(a));
    } catch (err) {
      return Promise.reject(toToolgateError(err));
    }
  }

  #promiseFor(admitted: Admitted): Promise<ApprovalOutcome> {
    if (admitted.outcome !== null) return Promise.resolve(admitted.outcome);
    return new Promise<ApprovalOutcome>((resolve) => this.#waiting.set(admitted.id, resolve));
  }

  /**
   * Delivers a batch: promises first, then listeners, then the save, then the timer. A batch
   * made by a listener's own call waits until the one being delivered is done, so every
   * listener sees the steps in the order they happened.
   */
  #deliver(batch: Batch<unknown>): void {
    this.#queue.push(batch);
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) {
        for (const t of next.transitions) {
          if (t.outcome === undefined) continue;
          const resolve = this.#waiting.get(t.id);
          if (resolve === undefined) continue;
          this.#waiting.delete(t.id);
          resolve(t.outcome);
        }
        for (const t of next.transitions) {
          if (t.approval !== undefined) this.#emit(this.#requestListeners, t.approval);
          this.#emit(this.#transitionListeners, t);
        }
        for (const e of next.events) this.#emit(this.#eventListeners, e);
        if (next.trust !== null) this.#save(next.trust);
        this.#nextDeadline = next.nextDeadline ?? undefined;
      }
    } finally {
      this.#delivering = false;
    }
    this.#schedule();
  }

  #emit<T>(listeners: Set<Listener<T>>, value: T): void {
    for (const listener of [...listeners]) callSafely(listener, value, this.#onError);
  }

  #schedule(): void {
    const deadline = this.#nextDeadline;
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
        this.deadlines.tick();
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

  async #load(storage: TrustStorage): Promise<void> {
    let text: string | null;
    try {
      text = await storage.load();
    } catch (err) {
      // Unreadable: the changes made meanwhile stay, and nothing is saved over it.
      this.#op<null>(() => this.#raw.abandonLoad(this.#now()));
      throw err;
    }
    // Imports the stored document and replays what changed meanwhile; a bad document
    // throws here, and the store keeps what the changes made (and never saves over it).
    this.#op<number>(() => this.#raw.finishLoad(text ?? undefined, this.#now()));
  }

  /** Saves the trust document the core handed out, after the saves before it. */
  #save(text: string): void {
    const storage = this.#storage;
    if (storage === undefined) return;
    this.#saving = this.#saving
      .then(() => storage.save(text))
      .catch((err: unknown) => this.#onError(err));
  }
}

function subscribe<T>(listeners: Set<Listener<T>>, listener: Listener<T>): () => void {
  const wrapped: Listener<T> = (value) => listener(value);
  listeners.add(wrapped);
  return () => {
    listeners.delete(wrapped);
  };
}
