// toolgate/claude-agent-sdk: the canUseTool callback and the PreToolUse hook, in the shapes
// the Claude Agent SDK calls them with.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PKG } from "../corpus.mjs";

const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));
const claude = await import(new URL("web/adapters/claude-agent-sdk.js", PKG));
const { createCanUseTool, createPreToolUseHook } = claude;

const POLICY = { permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)", "Read(./.env)"] } };

describe("toolgate/claude-agent-sdk", () => {
  test("canUseTool: allow with the input, deny with the model's feedback", async () => {
    const canUseTool = createCanUseTool({ broker: new ApprovalBroker({ policy: POLICY }), sessionId: "s", cwd: "/p" });
    const signal = new AbortController().signal;
    assert.deepEqual(await canUseTool("Bash", { command: "npm test" }, { signal, toolUseID: "t1" }),
      { behavior: "allow", updatedInput: { command: "npm test" } });
    const denied = await canUseTool("Read", { file_path: "/p/.env" }, { signal, toolUseID: "t2" });
    assert.equal(denied.behavior, "deny");
    assert.match(denied.message, /Permission denied/);
  });

  test("canUseTool: a person's edit is checked again; an abort cancels the approval", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    broker.onRequest((a) => {
      if (a.callId === "t1") broker.respond(a.id, { kind: "allow", scope: "once", editedInput: { command: "curl x" } });
    });
    const canUseTool = createCanUseTool({ broker, sessionId: "s", cwd: "/p" });
    const edited = await canUseTool("Bash", { command: "make" }, { signal: new AbortController().signal, toolUseID: "t1" });
    assert.equal(edited.behavior, "deny");
    const abort = new AbortController();
    const pending = canUseTool("Bash", { command: "make" }, { signal: abort.signal, toolUseID: "t2" });
    abort.abort();
    assert.equal((await pending).behavior, "deny");
    assert.equal(broker.pending().length, 0);
  });

  test("canUseTool: a session answer does not ask twice; nobody answering in time denies", async () => {
    let clock = 1_000_000;
    const broker = new ApprovalBroker({ policy: POLICY, now: () => clock });
    let asked = 0;
    broker.onRequest((a) => {
      asked += 1;
      if (a.input.command === "npm run lint") broker.respond(a.id, { kind: "allow", scope: "session" });
      else setTimeout(() => { clock += 10 * 60 * 1000; broker.deadlines.tick(); }, 5);
    });
    const canUseTool = createCanUseTool({ broker, sessionId: "s", cwd: "/p" });
    const signal = new AbortController().signal;
    assert.equal((await canUseTool("Bash", { command: "npm run lint" }, { signal, toolUseID: "t1" })).behavior, "allow");
    assert.equal((await canUseTool("Bash", { command: "npm run lint" }, { signal, toolUseID: "t2" })).behavior, "allow");
    const late = await canUseTool("Bash", { command: "make" }, { signal, toolUseID: "t3" });
    assert.equal(late.behavior, "deny");
    assert.match(late.message, /not approved in time/);
    assert.equal(asked, 2);
  });

  test("PreToolUse hook: allow or deny, never ask", async () => {
    const hook = createPreToolUseHook({ broker: new ApprovalBroker({ policy: POLICY }), sessionId: "s" });
    const allow = await hook({ hook_event_name: "PreToolUse", cwd: "/p", tool_name: "Bash", tool_input: { command: "npm test" } }, "t1", {});
    assert.equal(allow.hookSpecificOutput.permissionDecision, "allow");
    const deny = await hook({ hook_event_name: "PreToolUse", cwd: "/p", tool_name: "Bash", tool_input: { command: "curl x" } }, "t2", {});
    assert.equal(deny.hookSpecificOutput.permissionDecision, "deny");
    assert.match(deny.hookSpecificOutput.permissionDecisionReason, /Permission denied/);
    assert.deepEqual(await hook({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: {} }, "t3", {}), {});
  });

  // Claude Code runs a call whose hook timed out (no decision): the hook must answer first.
  test("PreToolUse hook: nobody answering before the matcher's timeout denies, and cancels the card", async () => {
    const broker = new ApprovalBroker({ policy: {} }); // reading `.env` asks
    const cards = [];
    broker.onRequest((a) => cards.push(a));
    const hook = createPreToolUseHook({ broker, sessionId: "s", cwd: "/p", timeoutMs: 60_000 }, { timeoutSeconds: 4 });
    const started = Date.now();
    const answer = hook({ hook_event_name: "PreToolUse", cwd: "/p", tool_name: "Bash", tool_input: { command: "cat .env" } }, "t1", {});
    const out = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve("no answer"), 6_000))]);
    assert.notEqual(out, "no answer", "the hook outlived its matcher's timeout: Claude Code would run the call");
    assert.ok(Date.now() - started < 4_000, "the hook answered after its matcher's timeout");
    assert.equal(out.hookSpecificOutput.permissionDecision, "deny");
    assert.match(out.hookSpecificOutput.permissionDecisionReason, /not approved in time/);
    assert.equal(cards.length, 1);
    assert.equal(broker.pending().length, 0, "the card was left for a later answer");
    assert.throws(() => broker.respond(cards[0].id, { kind: "allow", scope: "once" }));
    broker.shutdown();
  });

  test("PreToolUse matcher: its timeout outlasts the approval deadline", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const matcher = claude.createPreToolUseHookMatcher({ broker, sessionId: "s", timeoutMs: 5 * 60_000 });
    assert.equal(matcher.timeout, 310);
    assert.equal(matcher.hooks.length, 1);
    assert.equal(claude.createPreToolUseHookMatcher({ broker, sessionId: "s" }).timeout, claude.CLAUDE_HOOK_TIMEOUT_SECONDS);
    // The person has the whole deadline: a late answer within it still allows.
    broker.onRequest((a) => setTimeout(() => broker.respond(a.id, { kind: "allow", scope: "once" }), 50));
    const out = await matcher.hooks[0]({ hook_event_name: "PreToolUse", cwd: "/p", tool_name: "Bash", tool_input: { command: "make" } }, "t1", {});
    assert.equal(out.hookSpecificOutput.permissionDecision, "allow");
    broker.shutdown();
  });
});
