// The OpenAI Agents SDK adapter (`toolgate/openai-agents`): a function tool's `needsApproval`
// comes from the broker (policy and trust), its `invoke` never runs a call the broker did not
// approve, and the run's interruptions are answered from the broker (a person, through its
// UI) or by the host with `approve`/`reject`, which tell the broker too.

import { decide, pendingId, runApproved, type GateOptions, type Verdict } from "./gate.js";
import type { JsonValue } from "../types.js";

/** The parts of a `FunctionTool` the adapter wraps; every other field is kept as it is. */
export interface AgentsFunctionToolLike {
  type: "function";
  name: string;
  invoke(runContext: unknown, input: string, details?: { toolCall?: { callId?: string } }): Promise<unknown>;
  needsApproval(runContext: unknown, input: never, callId?: string): Promise<boolean>;
}

/** The parts of a `RunToolApprovalItem` the adapter reads. */
export interface AgentsApprovalItemLike {
  rawItem: { type?: string; name?: string; callId?: string; arguments?: string };
}

/** The parts of a `RunState` (or a run result's `state`) the adapter uses. */
export interface AgentsRunStateLike<Item extends AgentsApprovalItemLike = AgentsApprovalItemLike> {
  getInterruptions(): Item[];
  approve(item: Item, options?: { alwaysApprove?: boolean }): void;
  reject(item: Item, options?: { alwaysReject?: boolean; message?: string }): void;
}

/** A gated set of tools and the answers to its interruptions. */
export interface AgentsGate {
  /** The tool with `needsApproval` and `invoke` over the broker. */
  tool<T extends AgentsFunctionToolLike>(tool: T): T;
  /**
   * Waits for the broker's answer (a person, in the broker's UI) to every interruption of
   * the run and records it in `state`; run the agent again with the state afterwards.
   */
  resolveInterruptions<Item extends AgentsApprovalItemLike>(state: AgentsRunStateLike<Item>): Promise<void>;
  /**
   * The host's own approval UI said yes: approves the call in the broker (with
   * `alwaysApprove`, remembered for the session as the broker's grant, so later calls the
   * grant does not cover still ask) and in `state`.
   */
  approve<Item extends AgentsApprovalItemLike>(state: AgentsRunStateLike<Item>, item: Item, options?: { alwaysApprove?: boolean }): void;
  /** The host's own approval UI said no: denies the call in the broker and in `state`. */
  reject<Item extends AgentsApprovalItemLike>(state: AgentsRunStateLike<Item>, item: Item, options?: { message?: string }): void;
}

function parse(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/**
 * The gate for an agent's function tools.
 *
 * ```ts
 * import { createAgentsGate } from "toolgate/openai-agents";
 * const gate = createAgentsGate({ broker, sessionId: "run-1" });
 * const agent = new Agent({ name: "a", tools: [gate.tool(shell)] });
 * let result = await run(agent, "go");
 * while (result.interruptions.length > 0) {
 *   await gate.resolveInterruptions(result.state);
 *   result = await run(agent, result.state);
 * }
 * ```
 */
export function createAgentsGate(options: GateOptions): AgentsGate {
  const verdicts = new Map<string, Promise<Verdict>>();
  const callIdOf = (item: AgentsApprovalItemLike): string | undefined => item.rawItem.callId;
  return {
    tool<T extends AgentsFunctionToolLike>(tool: T): T {
      const invoke = tool.invoke.bind(tool);
      const gated: AgentsFunctionToolLike = {
        ...tool,
        async needsApproval(_runContext: unknown, input: never, callId?: string): Promise<boolean> {
          const id = callId ?? `${tool.name}-${Date.now()}`;
          if (verdicts.has(id)) return pendingId(options, id) !== undefined;
          verdicts.set(id, decide(options, tool.name, input as JsonValue, id));
          return pendingId(options, id) !== undefined;
        },
        async invoke(runContext, input, details) {
          const callId = details?.toolCall?.callId;
          let verdict = callId !== undefined ? verdicts.get(callId) : undefined;
          if (callId !== undefined) verdicts.delete(callId);
          verdict ??= decide(options, tool.name, parse(input), callId);
          // The SDK invokes a call whose `needsApproval` said yes only once the run state holds
          // its approval (`state.approve`, also from a serialised RunState in a new process):
          // that approval is the person's answer.
          const id = callId !== undefined ? pendingId(options, callId) : undefined;
          if (id !== undefined) options.broker.respond(id, { kind: "allow", scope: "once" });
          const v = await verdict;
          if (!v.run) return v.feedback.aiMessage;
          return runApproved(options.broker, v.outcome, (approved) => invoke(runContext, JSON.stringify(approved), details));
        },
      };
      return gated as T;
    },
    async resolveInterruptions(state) {
      for (const item of state.getInterruptions()) {
        const callId = callIdOf(item);
        const verdict = callId !== undefined ? verdicts.get(callId) : undefined;
        if (verdict === undefined) {
          state.reject(item, { message: "Permission denied: the call was not decided by the policy. Do not retry the same call." });
          continue;
        }
        const v = await verdict;
        if (v.run) state.approve(item);
        else state.reject(item, { message: v.feedback.aiMessage });
      }
    },
    approve(state, item, { alwaysApprove = false } = {}) {
      const callId = callIdOf(item);
      const id = callId !== undefined ? pendingId(options, callId) : undefined;
      if (id !== undefined) options.broker.respond(id, { kind: "allow", scope: alwaysApprove ? "session" : "once" });
      // Never the SDK's own alwaysApprove: it would approve the tool with any arguments.
      state.approve(item);
    },
    reject(state, item, { message } = {}) {
      const callId = callIdOf(item);
      const id = callId !== undefined ? pendingId(options, callId) : undefined;
      const outcome = id !== undefined
        ? options.broker.respond(id, { kind: "deny", ...(message !== undefined ? { message } : {}) })
        : undefined;
      state.reject(item, { message: outcome?.feedback?.aiMessage ?? message ?? "The user denied the call. Do not retry the same call." });
    },
  };
}
