// The LangChain adapter (`toolgate/langchain`, langchain v1 `createAgent`): a middleware whose
// `wrapToolCall` runs only what the broker approved, and an `interruptOn` configuration for
// `humanInTheLoopMiddleware` whose `when` comes from the policy, so LangChain's own interrupt
// asks exactly when the policy asks. Approve and edit decisions reach the broker, which
// checks an edit against the schema and the policy again before the tool runs.

import { decide, pendingId, runApproved, type GateOptions, type Verdict } from "./gate.js";
import type { JsonObject, JsonValue } from "../types.js";

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

function same(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
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
  const verdicts = new Map<string, Promise<Verdict>>();
  const middleware = {
    [Symbol.for("AgentMiddleware")]: true,
    name: "ToolgateMiddleware",
    async wrapToolCall<R extends LangChainToolCallRequest, Out>(request: R, handler: (request: R) => Out | PromiseLike<Out>): Promise<Out> {
      const call = request.toolCall;
      const args = call.args as JsonObject;
      const callId = call.id;
      let verdict = callId !== undefined ? verdicts.get(callId) : undefined;
      const id = callId !== undefined ? pendingId(options, callId) : undefined;
      if (id !== undefined) {
        // The interrupt asked and the answer was approve or edit: the person's answer, whose
        // edit the broker checks again.
        const card = options.broker.pending().find((p) => p.id === id);
        const edited = card !== undefined && !same(card.input, args);
        options.broker.respond(id, { kind: "allow", scope: "once", ...(edited ? { editedInput: args } : {}) });
      }
      verdict ??= decide(options, call.name, args, callId);
      if (callId !== undefined) verdicts.delete(callId);
      let v = await verdict;
      // Run only the arguments the broker approved; anything else is decided again.
      if (v.run && !same(v.input, args) && id === undefined) v = await decide(options, call.name, args);
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
          if (!verdicts.has(callId)) verdicts.set(callId, decide(options, call.name, call.args as JsonObject, callId));
          return pendingId(options, callId) !== undefined;
        },
      }]);
      return Object.fromEntries(entries);
    },
  };
}
