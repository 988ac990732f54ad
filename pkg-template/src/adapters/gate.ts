// What every framework adapter shares: one tool call through the broker (policy, trust, a
// person when the policy asks), then the host's tool run under the broker's lifecycle, and the
// text the model reads when the call does not run. Adapters only translate shapes.

import type { ApprovalBroker } from "../broker.js";
import type { ApprovalOutcome, JsonValue, ModelFeedback, ToolRequest } from "../types.js";

/** Options every adapter takes. */
export interface GateOptions {
  /** The broker that decides (policy, trust, asking a person). */
  broker: ApprovalBroker;
  /** The session (conversation) the calls belong to, or a function that names it per call. */
  sessionId: string | (() => string);
  /** The agent's name, for agent-bound rules and grants. */
  agent?: string;
  /** The working directory of relative paths. */
  cwd?: string;
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

/** The pending approval's id for `callId` of the session, if any. */
export function pendingId(options: GateOptions, callId: string): string | undefined {
  const id = session(options);
  return options.broker.pending().find((p) => p.sessionId === id && p.callId === callId)?.id;
}
