// The Vercel AI SDK adapter (`toolgate/ai-sdk`): wraps a tool set so that every call goes
// through the broker. Allowed calls run (with the input a person may have edited, checked by
// the policy again); denied ones never run and the model reads the reason as an
// `execution-denied` tool result; asks go to the broker's own UI, or through the SDK's
// approval flow (`needsApproval`, tool-approval-request/-response parts) when the host wants
// its `useChat` UI to ask.

import { DecidedCalls, decide, matchingPending, runApproved, unlessAborted, type AbortSignalLike, type GateOptions } from "./gate.js";
import type { JsonValue, ModelFeedback } from "../types.js";

/** What the SDK passes to `execute` and `needsApproval` (the fields the adapter reads). */
export interface AiSdkCallOptions {
  toolCallId: string;
  /** The request's signal (`generateText({ abortSignal })`): once it aborts, the call never runs. */
  abortSignal?: AbortSignalLike;
}

/** The tool result output for a denied call (`ToolResultOutput` of `@ai-sdk/provider-utils`). */
export interface AiSdkDeniedOutput {
  type: "execution-denied";
  reason?: string;
}

/** The parts of an AI SDK `Tool` the adapter wraps; every other field is kept as it is. */
export interface AiSdkToolLike {
  // Method syntax: the SDK's tools declare narrower inputs; the adapter passes them through.
  execute?(input: never, options: never): unknown;
  needsApproval?: boolean | ((input: never, options: never) => boolean | PromiseLike<boolean>);
  toModelOutput?(options: never): unknown;
}

/** What a wrapped tool returns for a call that did not run; the model reads `reason`. */
export interface AiSdkDenial {
  denied: true;
  code: ModelFeedback["code"];
  reason: string;
}

/** Options of `gateTools`. */
export interface AiSdkGateOptions extends GateOptions {
  /**
   * Who asks a person: `"broker"` (default) waits for the broker's answer (its UI, an approval
   * card); `"sdk"` sets `needsApproval` so the SDK's own approval flow asks, and the broker
   * still decides allow and deny, trust, and records the answer.
   */
  approval?: "broker" | "sdk";
}

type Execute = (input: JsonValue, options: AiSdkCallOptions) => unknown;
type ToModelOutput = (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;

/**
 * Wraps every tool of `tools` so that the broker decides each call. When the request's
 * `abortSignal` aborts, a call's pending approval is cancelled and the call never runs.
 * A tool without `execute` (a provider-executed tool, or one the client runs) is returned
 * unchanged and never judged: whoever runs it must gate it.
 *
 * ```ts
 * import { ApprovalBroker } from "toolgate";
 * import { gateTools } from "toolgate/ai-sdk";
 * const broker = new ApprovalBroker({ policy, registry: { tools: [...] } });
 * const result = await generateText({ model, tools: gateTools(tools, { broker, sessionId: chatId }) });
 * ```
 */
export function gateTools<T extends Record<string, AiSdkToolLike>>(tools: T, options: AiSdkGateOptions): T {
  const wrapped: Record<string, AiSdkToolLike> = {};
  for (const [name, tool] of Object.entries(tools)) wrapped[name] = gateTool(name, tool, options);
  return wrapped as T;
}

/** Wraps one tool (see `gateTools`). */
export function gateTool<T extends AiSdkToolLike>(name: string, tool: T, options: AiSdkGateOptions): T {
  const execute = tool.execute as Execute | undefined;
  // A tool without `execute` (provider-executed, or client-side) never runs here: the provider
  // or the host runs it, and must gate it itself. It is passed on unjudged.
  if (execute === undefined) return tool;
  const denials = new WeakSet<object>();
  const calls = new DecidedCalls(options);
  const deny = (feedback: ModelFeedback): AiSdkDenial => {
    const denial: AiSdkDenial = { denied: true, code: feedback.code, reason: feedback.aiMessage };
    denials.add(denial);
    return denial;
  };
  const original = tool.toModelOutput as ToModelOutput | undefined;
  const gated: AiSdkToolLike & { needsApproval?: unknown } = {
    ...tool,
    async execute(input: JsonValue, callOptions: AiSdkCallOptions) {
      const callId = callOptions.toolCallId;
      // Only the call asked about with this very tool and input: a stale one of the id is
      // cancelled and this call decided afresh.
      const call = calls.take(name, input, callId);
      if (call?.askedByFramework === true && call.approvalId !== undefined && calls.pending(call)) {
        // The SDK only runs a call it asked about once its approval said yes.
        options.broker.respond(call.approvalId, { kind: "allow", scope: "once" });
      }
      if (call === undefined) matchingPending(options, name, input, callId);
      // A stopped request (the user pressed Stop) cancels the approval and never runs the call.
      const v = await unlessAborted(options, name, callId, callOptions.abortSignal,
        () => call?.verdict ?? decide(options, name, input, callId));
      if (!v.run) return deny(v.feedback);
      return runApproved(options.broker, v.outcome, (approved) => execute(approved, callOptions));
    },
    toModelOutput(out: { toolCallId: string; input: unknown; output: unknown }) {
      const output = out.output;
      if (typeof output === "object" && output !== null && denials.has(output)) {
        return { type: "execution-denied", reason: (output as AiSdkDenial).reason } satisfies AiSdkDeniedOutput;
      }
      if (original !== undefined) return original(out);
      return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output ?? null };
    },
  };
  if (options.approval === "sdk") {
    gated.needsApproval = (input: JsonValue, callOptions: AiSdkCallOptions): boolean => {
      const callId = callOptions.toolCallId;
      // Asked again for the same call (the SDK resuming it): the broker's first decision holds.
      const call = calls.decide(name, input, callId);
      const ask = calls.pending(call);
      if (ask) call.askedByFramework = true;
      return ask;
    };
  }
  return gated as unknown as T;
}
