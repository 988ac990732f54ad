// The Claude Agent SDK adapter (`toolgate/claude-agent-sdk`): a `canUseTool` callback and a
// PreToolUse hook callback whose answers come from the broker. Claude Code's tool names
// (`Bash`, `Read`, `Write`, `Edit`, `WebFetch`, `mcp__server__tool`) are toolgate's own.

import { decide, pendingId, type GateOptions } from "./gate.js";
import type { JsonObject } from "../types.js";

/** What the SDK passes to `canUseTool` besides the tool and its input (the fields read). */
export interface ClaudeCanUseToolOptions {
  signal?: AbortSignal;
  toolUseID?: string;
}

/** The SDK's `PermissionResult`. */
export type ClaudePermissionResult =
  | { behavior: "allow"; updatedInput: Record<string, unknown> }
  | { behavior: "deny"; message: string; interrupt?: boolean };

/** The SDK's `CanUseTool`. */
export type ClaudeCanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: ClaudeCanUseToolOptions,
) => Promise<ClaudePermissionResult>;

/** A hook input (the SDK's `HookInput`; the fields read). Other events get no decision. */
export interface ClaudeHookInput {
  hook_event_name: string;
  session_id?: string;
  cwd?: string;
  tool_name?: string;
  tool_input?: unknown;
}

/** The PreToolUse hook output (an empty object for other events). */
export interface ClaudePreToolUseOutput {
  hookSpecificOutput?: {
    hookEventName: "PreToolUse";
    permissionDecision: "allow" | "deny";
    permissionDecisionReason: string;
    updatedInput?: Record<string, unknown>;
  };
}

/** The SDK's `HookCallback` for PreToolUse. */
export type ClaudePreToolUseHook = (
  input: ClaudeHookInput,
  toolUseID: string | undefined,
  options: { signal?: AbortSignal },
) => Promise<ClaudePreToolUseOutput>;

function cancelOnAbort(options: GateOptions, callId: string | undefined, signal: AbortSignal | undefined): () => void {
  if (signal === undefined || callId === undefined) return () => {};
  const onAbort = () => {
    const id = pendingId(options, callId);
    if (id !== undefined) options.broker.cancel(id);
  };
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/**
 * A `canUseTool` over the broker: allowed calls run with the input the broker approved (a
 * person's edit, checked again), others are denied with the model's feedback.
 *
 * Claude Code calls `canUseTool` only for calls it would itself ask about: reads inside the
 * project (`cat .env`, `Read`) run without it. Install {@link createPreToolUseHook} too, which
 * sees every call; `canUseTool` then only backs it up.
 *
 * ```ts
 * import { createCanUseTool } from "toolgate/claude-agent-sdk";
 * for await (const m of query({ prompt, options: { canUseTool: createCanUseTool({ broker, sessionId }) } })) {}
 * ```
 */
export function createCanUseTool(options: GateOptions): ClaudeCanUseTool {
  return async (toolName, input, { signal, toolUseID } = {}) => {
    if (signal?.aborted) return { behavior: "deny", message: "The call was cancelled.", interrupt: true };
    const stop = cancelOnAbort(options, toolUseID, signal);
    try {
      const v = await decide(options, toolName, input as JsonObject, toolUseID);
      if (!v.run) return { behavior: "deny", message: v.feedback.aiMessage };
      const updated = typeof v.input === "object" && v.input !== null && !Array.isArray(v.input) ? v.input : input;
      return { behavior: "allow", updatedInput: updated };
    } finally {
      stop();
    }
  };
}

/**
 * A PreToolUse hook callback over the broker (`hooks: { PreToolUse: [{ hooks: [hook] }] }`):
 * allow with the approved input (Claude Code runs a person's edit as `updatedInput`), or deny
 * with the model's feedback; never `ask`, since the broker already asked. Claude Code runs it
 * before every call, including the ones it would allow by itself.
 *
 * ```ts
 * import { createCanUseTool, createPreToolUseHook } from "toolgate/claude-agent-sdk";
 * const gate = { broker, sessionId, cwd };
 * query({ prompt, options: { hooks: { PreToolUse: [{ hooks: [createPreToolUseHook(gate)] }] }, canUseTool: createCanUseTool(gate) } });
 * ```
 */
export function createPreToolUseHook(options: GateOptions): ClaudePreToolUseHook {
  return async (input, toolUseID, { signal } = {}) => {
    if (input.hook_event_name !== "PreToolUse" || input.tool_name === undefined) return {};
    const stop = cancelOnAbort(options, toolUseID, signal);
    try {
      const v = await decide({ ...options, ...(input.cwd !== undefined && options.cwd === undefined ? { cwd: input.cwd } : {}) },
        input.tool_name, (input.tool_input ?? {}) as JsonObject, toolUseID);
      if (!v.run) {
        return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: v.feedback.aiMessage } };
      }
      const updated = typeof v.input === "object" && v.input !== null && !Array.isArray(v.input) ? v.input : undefined;
      return { hookSpecificOutput: {
        hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: `approved by ${v.outcome.by}`,
        ...(updated !== undefined ? { updatedInput: updated } : {}),
      } };
    } finally {
      stop();
    }
  };
}
