// The LangChain adapter (`toolgate/langchain`, langchain v1 `createAgent`): a middleware whose
// `wrapToolCall` runs only what the broker approved, and an `interruptOn` configuration for
// `humanInTheLoopMiddleware` whose `when` comes from the policy, so LangChain's own interrupt
// asks exactly when the policy asks. Approve and edit decisions reach the broker, which
// checks an edit against the schema and the policy again before the tool runs.

import { DecidedCalls, decide, isPending, runApproved, sameInput, unlessAborted, verdictOf, type AbortSignalLike, type GateOptions, type Verdict } from "./gate.js";
import type { JsonObject } from "../types.js";

/** A LangChain tool call (`ToolCall` of `@langchain/core/messages`). */
export interface LangChainToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
  type?: "tool_call";
}

/** The parts of a `ToolCallRequest` the middleware reads and passes on. */
export interface LangChainToolCallRequest {
  toolCall: LangChainToolCall;
  /** The run's runtime; its `signal` aborts when the run is stopped. */
  runtime?: { signal?: AbortSignalLike };
}

/** A middleware in the shape `createAgent({ middleware })` takes (`createMiddleware`'s result). */
export interface LangChainMiddleware {
  name: string;
  /** A denied call resolves to the framework's own `ToolMessage` (status `error`), one of `Out`. */
  wrapToolCall<R extends LangChainToolCallRequest, Out>(request: R, handler: (request: R) => Out | PromiseLike<Out>): Promise<Out>;
}

/** What a denied call returns: a `ToolMessage` the model reads. */
export interface LangChainToolMessageLike {
  content: string;
  tool_call_id: string;
  name?: string;
  status?: "success" | "error";
}

/** One `interruptOn` entry of `humanInTheLoopMiddleware`. */
export interface LangChainInterruptOnConfig {
  allowedDecisions: ("approve" | "edit" | "reject")[];
  description?: string;
  when: (request: LangChainToolCallRequest) => Promise<boolean>;
}

/** The middleware and the `interruptOn` configuration that share one gate. */
export interface LangChainGate {
  /** Add last to `middleware`, after `humanInTheLoopMiddleware` when it is used. */
  middleware: LangChainMiddleware;
  /** `humanInTheLoopMiddleware({ interruptOn: gate.interruptOn(["Bash", "Write"]) })`. */
  interruptOn(toolNames: string[]): Record<string, LangChainInterruptOnConfig>;
}

type ToolMessageClass = new (fields: LangChainToolMessageLike) => LangChainToolMessageLike;

let toolMessageClass: Promise<ToolMessageClass> | undefined;
function toolMessage(fields: LangChainToolMessageLike): Promise<LangChainToolMessageLike> {
  // The framework's own class, loaded from the host's install (never bundled here).
  const specifier = "@langchain/core/messages";
  toolMessageClass ??= (import(specifier) as Promise<unknown>).then((m) => (m as { ToolMessage: ToolMessageClass }).ToolMessage);
  return toolMessageClass.then((ToolMessage) => new ToolMessage(fields));
}

/**
 * The gate for a LangChain agent's tool calls.
 *
 * ```ts
 * import { createLangChainGate } from "toolgate/langchain";
 * const gate = createLangChainGate({ broker, sessionId: threadId });
 * const agent = createAgent({ model, tools, checkpointer,
 *   middleware: [humanInTheLoopMiddleware({ interruptOn: gate.interruptOn(["Bash"]) }), gate.middleware] });
 * ```
 */
export function createLangChainGate(options: GateOptions): LangChainGate {
  // The calls `interruptOn`'s `when` decided: only their approvals are the interrupt's to answer.
  const calls = new DecidedCalls(options);
  const middleware = {
    [Symbol.for("AgentMiddleware")]: true,
    name: "ToolgateMiddleware",
    async wrapToolCall<R extends LangChainToolCallRequest, Out>(request: R, handler: (request: R) => Out | PromiseLike<Out>): Promise<Out> {
      const call = request.toolCall;
      const args = call.args as JsonObject;
      const callId = call.id;
      const asked = callId !== undefined ? calls.get(callId) : undefined;
      let verdict: Promise<Verdict> | undefined;
      if (callId !== undefined && asked !== undefined && asked.name === call.name) {
        calls.forget(callId);
        if (isPending(options, asked.approvalId) && asked.approvalId !== undefined) {
          // The interrupt asked about this call and the answer was approve or edit: the
          // person's answer, whose edit the broker checks again.
          const edited = !sameInput(asked.input, args);
          const outcome = options.broker.respond(asked.approvalId, { kind: "allow", scope: "once", ...(edited ? { editedInput: args } : {}) });
          verdict = Promise.resolve(verdictOf(call.name, outcome));
        } else if (sameInput(asked.input, args)) {
          verdict = asked.verdict;
        }
      }
      // Never another call's approval: a call the interrupt did not ask about is decided here
      // (a second call sharing a pending id is refused by the broker).
      // A stopped run (its signal aborted) cancels the approval and never runs the call.
      const signal = request.runtime?.signal;
      let v = await unlessAborted(options, call.name, callId, signal, () => verdict ?? decide(options, call.name, args, callId));
      // Run only the arguments the broker approved; anything else is decided again.
      if (v.run && !sameInput(v.input, args) && verdict === undefined) {
        v = await unlessAborted(options, call.name, undefined, signal, () => decide(options, call.name, args));
      }
      if (!v.run) {
        // An instance of the framework's own ToolMessage class: one of the handler's results.
        const denied = await toolMessage({ content: v.feedback.aiMessage, tool_call_id: callId ?? "", name: call.name, status: "error" });
        return denied as unknown as Out;
      }
      const approved = v.input as Record<string, unknown>;
      return runApproved(options.broker, v.outcome, () => handler({ ...request, toolCall: { ...call, args: approved } }));
    },
  };
  return {
    middleware,
    interruptOn(toolNames) {
      const entries = toolNames.map((name): [string, LangChainInterruptOnConfig] => [name, {
        allowedDecisions: ["approve", "edit", "reject"],
        async when(request) {
          const call = request.toolCall;
          const callId = call.id;
          if (callId === undefined) return true;
          // The same call asked again keeps its decision; a stale one of the id is decided afresh.
          return calls.pending(calls.decide(call.name, call.args as JsonObject, callId));
        },
      }]);
      return Object.fromEntries(entries);
    },
  };
}
