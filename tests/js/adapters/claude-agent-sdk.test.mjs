// toolgate/claude-agent-sdk: the canUseTool callback and the PreToolUse hook, in the shapes
// the Claude Agent SDK calls them with.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PKG } from "../corpus.mjs";

const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));
const { createCanUseTool, createPreToolUseHook } = await import(new URL("web/adapters/claude-agent-sdk.js", PKG));

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
});
