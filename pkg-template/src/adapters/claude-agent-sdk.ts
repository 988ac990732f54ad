// The Claude Agent SDK adapter (`toolgate/claude-agent-sdk`): a `canUseTool` callback and a
// PreToolUse hook callback whose answers come from the broker. Claude Code's tool names
// (`Bash`, `Read`, `Write`, `Edit`, `WebFetch`, `mcp__server__tool`) are toolgate's own.

import { cancelOnAbort, decide, pendingId, type GateOptions, type Verdict } from "./gate.js";
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

/**
 * A `canUseTool` over the broker: allowed calls run with the input the broker approved (a
 * person's edit, checked again), others are denied with the model's feedback.
 *
 * Claude Code calls `canUseTool` only for calls it would itself ask about: reads inside the
 * project (`cat .env`, `Read`) run without it. Install {@link createPreToolUseHookMatcher} too, which
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

/** The SDK's `HookCallbackMatcher` for PreToolUse: what goes in `hooks: { PreToolUse: [...] }`. */
export interface ClaudePreToolUseMatcher {
  /** Which tools the hooks run for (absent: every tool). */
  matcher?: string;
  /** The hook callbacks. */
  hooks: ClaudePreToolUseHook[];
  /** How long Claude Code waits for the hooks, in seconds, before it goes on without them. */
  timeout: number;
}

/** Options of {@link createPreToolUseHook}. */
export interface PreToolUseHookOptions {
  /**
   * The `timeout` of the matcher the hook is installed in, in seconds (default 60, the
   * shortest Claude Code has used for a matcher that names none). The hook denies a call
   * nobody approved before this time runs out: when a hook times out, Claude Code treats it as
   * no decision and runs the call.
   */
  timeoutSeconds?: number;
}

/**
 * Claude Code's timeout of a hook matcher that names none, as the hook assumes it (seconds):
 * the shortest it has used, so the hook answers before it in every version.
 */
export const CLAUDE_HOOK_TIMEOUT_SECONDS = 60;
/** How long before the hook's timeout runs out the hook denies a call nobody approved (ms). */
const HOOK_ANSWER_MARGIN_MS = 3_000;
/** How much longer than the approval deadline the matcher's timeout is (ms). */
const MATCHER_SLACK_MS = 10_000;

/**
 * How long the hook may wait for the broker (ms): its matcher's timeout less the margin it
 * needs to answer, at least one second.
 */
function hookBudgetMs(timeoutSeconds: number): number {
  return Math.max(1_000, timeoutSeconds * 1_000 - HOOK_ANSWER_MARGIN_MS);
}

/** The deny a call gets when nobody approved it before the hook's time ran out. */
function hookTimedOut(name: string, timeoutSeconds: number): Verdict {
  return { run: false, feedback: {
    code: "PERMISSION_DENIED",
    message: `\`${name}\` was not approved before the hook's ${timeoutSeconds} s timeout`,
    aiMessage: `The call to ${name} was not approved in time (nobody answered before the permission hook's ${timeoutSeconds}-second limit), so it did not run. Do not retry the same call unless the user asks.`,
    recoverable: true,
  } };
}

/**
 * The broker's verdict, or a deny once `budgetMs` has passed with nobody answering (the
 * approval is then cancelled, so an answer given later approves nothing).
 */
async function decideWithin(options: GateOptions, name: string, input: JsonObject, callId: string | undefined, timeoutSeconds: number): Promise<Verdict> {
  const budgetMs = hookBudgetMs(timeoutSeconds);
  // The card shows a deadline the hook can keep.
  const gate = options.timeoutMs !== undefined && options.timeoutMs > budgetMs ? { ...options, timeoutMs: budgetMs } : options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => { timer = setTimeout(() => resolve("late"), budgetMs); });
  const decided = decide(gate, name, input, callId);
  try {
    const first = await Promise.race([decided, late]);
    if (first !== "late") return first;
    const id = callId !== undefined ? pendingId(options, callId) : undefined;
    if (id !== undefined) options.broker.cancel(id);
    const settled = await decided;
    if (settled.run) options.broker.cancel(settled.outcome.id); // answered as time ran out: too late to run
    return hookTimedOut(name, timeoutSeconds);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A PreToolUse hook callback over the broker: allow with the approved input (Claude Code runs a
 * person's edit as `updatedInput`), or deny with the model's feedback; never `ask`, since the
 * broker already asked. Claude Code runs it before every call, including the ones it would
 * allow by itself. Install it with {@link createPreToolUseHookMatcher}, whose `timeout` outlasts
 * the approval deadline; a hook installed by hand denies a call nobody approved before its
 * matcher's `timeout` (`timeoutSeconds`, default {@link CLAUDE_HOOK_TIMEOUT_SECONDS}) runs
 * out, because Claude Code runs a call whose hook timed out.
 *
 * ```ts
 * import { createCanUseTool, createPreToolUseHook } from "toolgate/claude-agent-sdk";
 * const gate = { broker, sessionId, cwd, timeoutMs: 120_000 };
 * const PreToolUse = [{ hooks: [createPreToolUseHook(gate, { timeoutSeconds: 130 })], timeout: 130 }];
 * query({ prompt, options: { hooks: { PreToolUse }, canUseTool: createCanUseTool(gate) } });
 * ```
 */
export function createPreToolUseHook(options: GateOptions, { timeoutSeconds = CLAUDE_HOOK_TIMEOUT_SECONDS }: PreToolUseHookOptions = {}): ClaudePreToolUseHook {
  return async (input, toolUseID, { signal } = {}) => {
    if (input.hook_event_name !== "PreToolUse" || input.tool_name === undefined) return {};
    const stop = cancelOnAbort(options, toolUseID, signal);
    try {
      const gate = { ...options, ...(input.cwd !== undefined && options.cwd === undefined ? { cwd: input.cwd } : {}) };
      const v = await decideWithin(gate, input.tool_name, (input.tool_input ?? {}) as JsonObject, toolUseID, timeoutSeconds);
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

/**
 * The PreToolUse matcher to install: the hook of {@link createPreToolUseHook}, with a
 * `timeout` longer than the approval deadline (`timeoutMs`, or the hook's own when absent), so
 * a person has the whole deadline and the hook answers (allow, or deny when nobody did)
 * before Claude Code gives up on it.
 *
 * ```ts
 * import { createCanUseTool, createPreToolUseHookMatcher } from "toolgate/claude-agent-sdk";
 * const gate = { broker, sessionId, cwd, timeoutMs: 5 * 60_000 };
 * const options = { hooks: { PreToolUse: [createPreToolUseHookMatcher(gate)] }, canUseTool: createCanUseTool(gate) };
 * createPreToolUseHookMatcher(gate).timeout; // 310
 * ```
 */
export function createPreToolUseHookMatcher(options: GateOptions): ClaudePreToolUseMatcher {
  const timeout = options.timeoutMs === undefined
    ? CLAUDE_HOOK_TIMEOUT_SECONDS
    : Math.ceil((options.timeoutMs + MATCHER_SLACK_MS) / 1_000);
  return { hooks: [createPreToolUseHook(options, { timeoutSeconds: timeout })], timeout };
}
