// The OpenAI Agents SDK adapter (`toolgate/openai-agents`): a function tool's `needsApproval`
// comes from the broker (policy and trust), its `invoke` never runs a call the broker did not
// approve, and the run's interruptions are answered from the broker (a person, through its
// UI) or by the host with `approve`/`reject`, which tell the broker too.

import { DecidedCalls, decide, matchingPending, runApproved, unlessAborted, type AbortSignalLike, type GateOptions } from "./gate.js";
import type { JsonValue } from "../types.js";

/** The parts of a `FunctionTool` the adapter wraps; every other field is kept as it is. */
export interface AgentsFunctionToolLike {
  type: "function";
  name: string;
  invoke(runContext: unknown, input: string, details?: { toolCall?: { callId?: string }; signal?: AbortSignalLike }): Promise<unknown>;
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
  const calls = new DecidedCalls(options);
  // The pending approval of the item's call when it is about the same tool and arguments.
  const pendingOf = (item: AgentsApprovalItemLike): string | undefined => {
    const { callId, name, arguments: args } = item.rawItem;
    if (callId === undefined || name === undefined) return undefined;
    return matchingPending(options, name, parse(args ?? ""), callId)?.id;
  };
  return {
    tool<T extends AgentsFunctionToolLike>(tool: T): T {
      const invoke = tool.invoke.bind(tool);
      const gated: AgentsFunctionToolLike = {
        ...tool,
        async needsApproval(_runContext: unknown, input: never, callId?: string): Promise<boolean> {
          const id = callId ?? `${tool.name}-${Date.now()}`;
          // Asked again for the same call: the broker's first decision holds.
          return calls.pending(calls.decide(tool.name, input as JsonValue, id));
        },
        async invoke(runContext, input, details) {
          const callId = details?.toolCall?.callId;
          const args = parse(input);
          // Only the call decided with this very tool and input; a stale one of the id is
          // cancelled and this call decided afresh.
          const call = callId !== undefined ? calls.take(tool.name, args, callId) : undefined;
          // The SDK invokes a call whose `needsApproval` said yes only once the run state holds
          // its approval (`state.approve`, also from a serialised RunState in a new process):
          // that approval is the person's answer, for the call it was asked about.
          let verdict = call?.verdict;
          if (verdict === undefined && callId !== undefined) matchingPending(options, tool.name, args, callId);
          verdict ??= decide(options, tool.name, args, callId);
          const id = callId !== undefined ? matchingPending(options, tool.name, args, callId)?.id : undefined;
          if (id !== undefined) options.broker.respond(id, { kind: "allow", scope: "once" });
          // A stopped run (its signal aborted) cancels the approval and never runs the call.
          const decided = verdict;
          const v = await unlessAborted(options, tool.name, callId, details?.signal, () => decided);
          if (!v.run) return v.feedback.aiMessage;
          return runApproved(options.broker, v.outcome, (approved) => invoke(runContext, JSON.stringify(approved), details));
        },
      };
      return gated as T;
    },
    async resolveInterruptions(state) {
      for (const item of state.getInterruptions()) {
        const { callId, name, arguments: args } = item.rawItem;
        const known = callId !== undefined ? calls.get(callId) : undefined;
        if (callId === undefined || name === undefined || known === undefined) {
          state.reject(item, { message: "Permission denied: the call was not decided by the policy. Do not retry the same call." });
          continue;
        }
        // The verdict on exactly the item's tool and arguments (a stale one is decided afresh).
        const v = await calls.decide(name, parse(args ?? ""), callId).verdict;
        if (v.run) state.approve(item);
        else state.reject(item, { message: v.feedback.aiMessage });
      }
    },
    approve(state, item, { alwaysApprove = false } = {}) {
      const id = pendingOf(item);
      if (id !== undefined) options.broker.respond(id, { kind: "allow", scope: alwaysApprove ? "session" : "once" });
      // Never the SDK's own alwaysApprove: it would approve the tool with any arguments.
      state.approve(item);
    },
    reject(state, item, { message } = {}) {
      const id = pendingOf(item);
      const outcome = id !== undefined
        ? options.broker.respond(id, { kind: "deny", ...(message !== undefined ? { message } : {}) })
        : undefined;
      state.reject(item, { message: outcome?.feedback?.aiMessage ?? message ?? "The user denied the call. Do not retry the same call." });
    },
  };
}
