// What every framework adapter shares: one tool call through the broker (policy, trust, a
// person when the policy asks), then the host's tool run under the broker's lifecycle, and the
// text the model reads when the call does not run. Adapters only translate shapes.

import type { ApprovalBroker } from "../broker.js";
export { callDirectory } from "../call-directory.js";
import type { ApprovalOutcome, JsonValue, ModelFeedback, PendingApproval, ToolRequest } from "../types.js";

/** Options every adapter takes. */
export interface GateOptions {
  /** The broker that decides (policy, trust, asking a person). */
  broker: ApprovalBroker;
  /** The session (conversation) the calls belong to, or a function that names it per call. */
  sessionId: string | (() => string);
  /** The agent's name, for agent-bound rules and grants. */
  agent?: string;
  /**
   * The working directory of relative paths: the project. A call that names the directory it
   * runs in is judged there, and this directory stays its `root`, where `./` rules are anchored.
   */
  cwd?: string;
  /** The project directory (`root` of the requests) when it is not `cwd`. */
  root?: string;
  /** The toolgate tool a framework tool name stands for (default: the same name). */
  toolName?: (name: string) => string;
  /** How long a person has to answer (the broker's default when absent). */
  timeoutMs?: number;
}

/** One call's verdict: run it with `input`, or tell the model `feedback`. */
export type Verdict =
  | { run: true; input: JsonValue; outcome: ApprovalOutcome }
  | { run: false; feedback: ModelFeedback; outcome?: ApprovalOutcome };

/** The toolgate request for one framework call. */
export function toolRequest(options: GateOptions, name: string, input: JsonValue): ToolRequest {
  return {
    tool: options.toolName?.(name) ?? name,
    input,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.root !== undefined && options.root !== options.cwd ? { root: options.root } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
  };
}

function session(options: GateOptions): string {
  return typeof options.sessionId === "function" ? options.sessionId() : options.sessionId;
}

/**
 * Asks the broker about one call. Approved: the input that may run (a person may have edited
 * it; the broker checked the edit against the schema and the policy again). Otherwise the
 * model's feedback. A call the broker refuses to take (a duplicate pending call id, a shut-down
 * broker) is not run.
 */
export async function decide(options: GateOptions, name: string, input: JsonValue, callId?: string): Promise<Verdict> {
  let outcome: ApprovalOutcome;
  try {
    outcome = await options.broker.requestApproval({
      sessionId: session(options),
      request: toolRequest(options, name, input),
      ...(callId !== undefined ? { callId } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { run: false, feedback: {
      code: "INVALID_PARAMS", message: `\`${name}\` was refused: ${why}`,
      aiMessage: `The call to ${name} was refused (${why}). Do not retry the same call.`, recoverable: true,
    } };
  }
  return verdictOf(name, outcome);
}

/** The verdict an outcome gives: approved runs its input; anything else tells the model why. */
export function verdictOf(name: string, outcome: ApprovalOutcome): Verdict {
  if (outcome.status === "approved") return { run: true, input: outcome.input, outcome };
  return { run: false, outcome, feedback: outcome.feedback ?? {
    code: "PERMISSION_DENIED", message: `\`${name}\` did not run (${outcome.status})`,
    aiMessage: `The call to ${name} did not run (${outcome.status}). Do not retry the same call.`, recoverable: true,
  } };
}

/**
 * Runs an approved call under the broker's lifecycle (running, then complete or failed) and
 * returns what the tool returned; rethrows the tool's error after recording it.
 */
export async function runApproved<T>(broker: ApprovalBroker, outcome: ApprovalOutcome, run: (input: JsonValue) => T | PromiseLike<T>): Promise<T> {
  broker.runs.start(outcome.id);
  try {
    const result = await run(outcome.input);
    broker.runs.complete(outcome.id);
    return result;
  } catch (err) {
    broker.runs.fail(outcome.id, err instanceof Error ? err.message : String(err));
    throw err;
  }
}

/** The parts of an `AbortSignal` the adapters use. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * The verdict for a call whose request was stopped (its abort signal fired): it does not run,
 * and the model, if it still reads anything, is told why.
 *
 * ```ts
 * abortedVerdict("Bash").run; // false
 * ```
 */
export function abortedVerdict(name: string): Verdict {
  return { run: false, feedback: {
    code: "PERMISSION_DENIED", message: `\`${name}\` did not run: the request was stopped`,
    aiMessage: `The call to ${name} did not run: the user stopped the request. Do not retry the same call.`, recoverable: true,
  } };
}

/**
 * Cancels the pending approval of `callId` in the session when `signal` aborts, so an answer
 * given later (the card still showing) approves nothing. Returns the function that stops
 * watching the signal.
 */
export function cancelOnAbort(options: GateOptions, callId: string | undefined, signal: AbortSignalLike | undefined): () => void {
  if (signal === undefined || callId === undefined) return () => {};
  const onAbort = () => {
    const id = pendingId(options, callId);
    if (id !== undefined) options.broker.cancel(id);
  };
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/**
 * The verdict `verdict` gives, under the request's abort `signal`. A stopped request's call
 * never runs: aborted before it was decided, it is not asked about; aborted while its approval
 * waits, the approval is cancelled; aborted after the answer, the approval is cancelled and
 * the call is not run. Check the verdict's `run` and run the call with no `await` in between.
 *
 * ```ts
 * const v = await unlessAborted(options, "Bash", callId, signal, () => decide(options, "Bash", input, callId));
 * if (v.run) return runApproved(options.broker, v.outcome, run);
 * ```
 */
export async function unlessAborted(
  options: GateOptions,
  name: string,
  callId: string | undefined,
  signal: AbortSignalLike | undefined,
  verdict: () => Promise<Verdict>,
): Promise<Verdict> {
  if (aborted(signal)) {
    cancelPending(options, callId);
    return abortedVerdict(name);
  }
  const stop = cancelOnAbort(options, callId, signal);
  try {
    const v = await verdict();
    if (!aborted(signal)) return v;
    if (v.run) cancelApproved(options, v.outcome.id);
    return abortedVerdict(name);
  } finally {
    stop();
  }
}

/** Whether the request of `signal` was stopped (read afresh each time: it changes while awaiting). */
function aborted(signal: AbortSignalLike | undefined): boolean {
  return signal?.aborted === true;
}

/** Cancels the pending approval of `callId` in the session, if there is one. */
function cancelPending(options: GateOptions, callId: string | undefined): void {
  const id = callId !== undefined ? pendingId(options, callId) : undefined;
  if (id !== undefined) options.broker.cancel(id);
}

/** Cancels an approved call that will not run (its lifecycle ends `cancelled`, not `running`). */
function cancelApproved(options: GateOptions, id: string): void {
  try {
    options.broker.cancel(id);
  } catch {
    // Already settled past cancelling (a grant's approval that needs no lifecycle): it does not run anyway.
  }
}

/** The pending approval's id for `callId` of the session, if any. */
export function pendingId(options: GateOptions, callId: string): string | undefined {
  const id = session(options);
  return options.broker.pending().find((p) => p.sessionId === id && p.callId === callId)?.id;
}

/**
 * Whether two tool inputs are the same JSON value (object keys in any order).
 *
 * ```ts
 * sameInput({ a: 1, b: [2] }, { b: [2], a: 1 }); // true
 * sameInput({ command: "npm publish" }, { command: "npm run lint" }); // false
 * ```
 */
export function sameInput(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameInput(item, b[i] as JsonValue));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameInput(a[key] as JsonValue, b[key] as JsonValue));
}

/**
 * The pending approval of `callId` in the session when it is about the same tool and input.
 * A pending approval of that id about another tool or input is stale (its call was abandoned
 * and the id reused): it is cancelled, its promise settles as `cancelled`, and none is returned.
 */
export function matchingPending(options: GateOptions, name: string, input: JsonValue, callId: string): PendingApproval | undefined {
  const id = session(options);
  const tool = options.toolName?.(name) ?? name;
  const card = options.broker.pending().find((p) => p.sessionId === id && p.callId === callId);
  if (card === undefined) return undefined;
  if (card.tool === tool && sameInput(card.input, input)) return card;
  options.broker.cancel(card.id);
  return undefined;
}

/** Whether the approval `id` still waits for an answer. */
export function isPending(options: GateOptions, id: string | undefined): boolean {
  return id !== undefined && options.broker.pending().some((p) => p.id === id);
}

/** One call an adapter decided before it runs: what the broker was asked about, and its verdict. */
export interface DecidedCall {
  /** The framework's tool name. */
  name: string;
  /** The input the broker was asked about. */
  input: JsonValue;
  /** The broker's verdict on exactly that tool and input. */
  verdict: Promise<Verdict>;
  /** The approval that waited for a person when the call was decided, if any. */
  approvalId?: string;
  /** Whether the framework's own approval flow asked a person about this call. */
  askedByFramework?: boolean;
}

/**
 * The calls an adapter decided before they run, by call id. A verdict belongs to one tool and
 * one input: asked about the same id with another tool or input (a call abandoned and its id
 * reused by the model, or two calls sharing an id), the old call's pending approval is
 * cancelled (its promise settles as not allowed) and the call is decided afresh, so what runs
 * is always exactly what was approved.
 *
 * ```ts
 * const calls = new DecidedCalls(options);
 * const asked = calls.decide("Bash", { command: "npm run lint" }, "call_0"); // before running
 * const call = calls.take("Bash", { command: "npm run lint" }, "call_0"); // when it runs
 * ```
 */
export class DecidedCalls {
  readonly #options: GateOptions;
  readonly #calls = new Map<string, DecidedCall>();

  constructor(options: GateOptions) {
    this.#options = options;
  }

  /** The call decided for `callId` when it is the same tool and input; otherwise decided afresh. */
  decide(name: string, input: JsonValue, callId: string): DecidedCall {
    const known = this.#calls.get(callId);
    if (known !== undefined && known.name === name && sameInput(known.input, input)) return known;
    this.#drop(callId);
    // A pending approval of the id from elsewhere (another gate of the session) is stale too.
    matchingPending(this.#options, name, input, callId);
    const verdict = decide(this.#options, name, input, callId);
    const approvalId = pendingId(this.#options, callId);
    const call: DecidedCall = { name, input, verdict, ...(approvalId !== undefined ? { approvalId } : {}) };
    this.#calls.set(callId, call);
    return call;
  }

  /**
   * Removes and returns the call decided for `callId` when it is the same tool and input; a
   * call of that id about anything else is cancelled and forgotten.
   */
  take(name: string, input: JsonValue, callId: string): DecidedCall | undefined {
    const known = this.#calls.get(callId);
    if (known !== undefined && known.name === name && sameInput(known.input, input)) {
      this.#calls.delete(callId);
      return known;
    }
    this.#drop(callId);
    return undefined;
  }

  /** The call decided for `callId`, whatever its tool and input. */
  get(callId: string): DecidedCall | undefined {
    return this.#calls.get(callId);
  }

  /** Forgets the call of `callId` without cancelling it. */
  forget(callId: string): void {
    this.#calls.delete(callId);
  }

  /** Whether the call's approval still waits for a person. */
  pending(call: DecidedCall): boolean {
    return isPending(this.#options, call.approvalId);
  }

  #drop(callId: string): void {
    const stale = this.#calls.get(callId);
    if (stale === undefined) return;
    this.#calls.delete(callId);
    if (isPending(this.#options, stale.approvalId) && stale.approvalId !== undefined) this.#options.broker.cancel(stale.approvalId);
  }
}
