// toolgate/ai-sdk with the real AI SDK: a scripted model (MockLanguageModelV3) calls tools
// through generateText; the broker decides every call.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { generateText, isStepCount, jsonSchema, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";

import { PKG } from "../corpus.mjs";

const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));
const { gateTools } = await import(new URL("web/adapters/ai-sdk.js", PKG));

const POLICY = { permissions: { allow: ["Bash(npm test *)", "Bash(npm test)"], deny: ["Bash(curl *)"] } };
const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A model that calls `Bash` with each command in turn, then stops; it records what it read. */
function scripted(commands) {
  const seen = [];
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      seen.push(options.prompt);
      const command = commands[step];
      step += 1;
      if (command === undefined) {
        return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage: USAGE, warnings: [] };
      }
      return {
        content: [{ type: "tool-call", toolCallId: `call-${step}`, toolName: "Bash", input: JSON.stringify({ command }) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: USAGE, warnings: [],
      };
    },
  });
  return { model, seen };
}

function bashTool(ran) {
  return tool({
    description: "Runs a shell command",
    inputSchema: jsonSchema({ type: "object", properties: { command: { type: "string" } }, required: ["command"] }),
    execute: async ({ command }) => { ran.push(command); return `ran ${command}`; },
  });
}

async function run(commands, broker, options = {}) {
  const ran = [];
  const { model, seen } = scripted(commands);
  const tools = gateTools({ Bash: bashTool(ran) }, { broker, sessionId: "chat-1", cwd: "/p", ...options });
  const result = await generateText({ model, tools, prompt: "go", stopWhen: isStepCount(commands.length + 1) });
  const toolResults = result.steps.flatMap((s) => s.content.filter((c) => c.type === "tool-result" || c.type === "tool-error"));
  return { ran, seen: JSON.stringify(seen), result, toolResults };
}

describe("toolgate/ai-sdk", () => {
  test("an allowed call runs; a denied call never runs and the model reads why", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, seen, toolResults } = await run(["npm test", "curl https://example.com"], broker);
    assert.deepEqual(ran, ["npm test"]);
    assert.equal(toolResults.length, 2);
    assert.match(seen, /execution-denied/);
    assert.match(seen, /Permission denied/);
    broker.shutdown();
  });

  test("an edited call is checked by the policy again", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    broker.onRequest((a) => broker.respond(a.id, a.input.command === "npm run lint"
      ? { kind: "allow", scope: "once", editedInput: { command: "curl https://evil.example" } }
      : { kind: "allow", scope: "once", editedInput: { command: "npm test -- --watch=false" } }));
    const { ran, seen } = await run(["npm run lint", "npm run build"], broker);
    assert.deepEqual(ran, ["npm test -- --watch=false"]);
    assert.match(seen, /execution-denied/);
    broker.shutdown();
  });

  test("an answer for the session does not ask twice", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    let asked = 0;
    broker.onRequest((a) => { asked += 1; broker.respond(a.id, { kind: "allow", scope: "session" }); });
    const { ran } = await run(["npm run lint", "npm run lint"], broker);
    assert.deepEqual(ran, ["npm run lint", "npm run lint"]);
    assert.equal(asked, 1);
    broker.shutdown();
  });

  test("nobody answering in time denies", async () => {
    let clock = 1_000_000;
    const broker = new ApprovalBroker({ policy: POLICY, now: () => clock });
    // Nobody answers: the clock passes the deadline and the broker expires the approval.
    broker.onRequest(() => { setTimeout(() => { clock += 2000; broker.deadlines.tick(); }, 5); });
    const { ran, seen } = await run(["npm run lint"], broker, { timeoutMs: 1000 });
    assert.deepEqual(ran, []);
    assert.match(seen, /not approved in time/);
    broker.shutdown();
  });

  test("the SDK's own approval flow asks when the policy asks, and only then", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, result } = await run(["npm test", "npm run lint"], broker, { approval: "sdk" });
    assert.deepEqual(ran, ["npm test"]);
    const requests = result.steps.flatMap((s) => s.content.filter((c) => c.type === "tool-approval-request"));
    assert.equal(requests.length, 1);
    assert.equal(requests[0].toolCall.input.command, "npm run lint");
    broker.shutdown();
  });

  test("the SDK's approval response runs the call, recorded as the person's answer", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const ran = [];
    const { model } = scripted(["npm run lint"]);
    const tools = gateTools({ Bash: bashTool(ran) }, { broker, sessionId: "chat-1", cwd: "/p", approval: "sdk" });
    const first = await generateText({ model, tools, prompt: "go", stopWhen: isStepCount(3) });
    const [request] = first.steps.flatMap((s) => s.content.filter((c) => c.type === "tool-approval-request"));
    assert.deepEqual(ran, []);
    const messages = [
      { role: "user", content: "go" },
      ...first.response.messages,
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }] },
    ];
    await generateText({ model, tools, messages, stopWhen: isStepCount(3) });
    assert.deepEqual(ran, ["npm run lint"]);
    const answered = broker.audit.query().filter((e) => e.kind === "transition" && e.source === "person" && e.to === "approved");
    assert.equal(answered.length, 1, JSON.stringify(broker.audit.query()));
    broker.shutdown();
  });

  test("a reused call id gets its own verdict: what runs is what the person approved", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const ran = [];
    const tools = gateTools({ Bash: bashTool(ran) }, { broker, sessionId: "chat-1", cwd: "/p", approval: "sdk" });
    const fixedId = (command) => new MockLanguageModelV3({ doGenerate: async ({ prompt }) => (prompt.some((m) => m.role === "tool")
      ? { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage: USAGE, warnings: [] }
      : { content: [{ type: "tool-call", toolCallId: "call_0", toolName: "Bash", input: JSON.stringify({ command }) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: USAGE, warnings: [] }) });
    // The first request's approval is never answered (the chat is abandoned).
    await generateText({ model: fixedId("npm publish"), tools, prompt: "go", stopWhen: isStepCount(3) });
    const model = fixedId("npm run lint");
    const second = await generateText({ model, tools, prompt: "lint", stopWhen: isStepCount(3) });
    const [request] = second.steps.flatMap((s) => s.content.filter((c) => c.type === "tool-approval-request"));
    assert.equal(request?.toolCall.input.command, "npm run lint");
    await generateText({ model, tools, stopWhen: isStepCount(3), messages: [{ role: "user", content: "lint" }, ...second.response.messages,
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }] }] });
    assert.deepEqual(ran, ["npm run lint"]);
    const settled = broker.audit.query().filter((e) => e.kind === "transition" && ["approved", "cancelled"].includes(e.to));
    assert.deepEqual(settled.map((e) => e.to).sort(), ["approved", "cancelled"], "the stale approval was cancelled");
    assert.equal(broker.pending().length, 0);
    broker.shutdown();
  });

  test("a stopped request cancels the pending approval: answering the card later runs nothing", async () => {
    const broker = new ApprovalBroker({ policy: {} }); // a recursive delete asks
    const stop = new AbortController();
    const cards = [];
    broker.onRequest((a) => { cards.push(a); setTimeout(() => stop.abort(), 5); }); // the user presses Stop
    const ran = [];
    const { model } = scripted(["rm -rf victim"]);
    const tools = gateTools({ Bash: bashTool(ran) }, { broker, sessionId: "chat-1", cwd: "/p" });
    await assert.rejects(generateText({ model, tools, prompt: "go", abortSignal: stop.signal, stopWhen: isStepCount(2) }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(cards.length, 1);
    assert.equal(broker.pending().length, 0, "the stopped call's card still waits for an answer");
    assert.throws(() => broker.respond(cards[0].id, { kind: "allow", scope: "once" }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(ran, []);
    broker.shutdown();
  });

  test("a call whose request was stopped never runs, even when the policy allows it", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const ran = [];
    const { Bash } = gateTools({ Bash: bashTool(ran) }, { broker, sessionId: "chat-1", cwd: "/p" });
    const stopped = AbortSignal.abort();
    const out = await Bash.execute({ command: "npm test" }, { toolCallId: "c1", messages: [], abortSignal: stopped });
    assert.equal(out.denied, true);
    assert.match(out.reason, /stopped the request/);
    // Stopped while the (allowed) decision was on its way: still not run.
    const late = new AbortController();
    const pending = Bash.execute({ command: "npm test" }, { toolCallId: "c2", messages: [], abortSignal: late.signal });
    late.abort();
    assert.equal((await pending).denied, true);
    assert.deepEqual(ran, []);
    broker.shutdown();
  });
});
