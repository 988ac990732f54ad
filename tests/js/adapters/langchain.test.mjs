// toolgate/langchain with the real LangChain v1 createAgent and its fake tool-calling model.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Command, MemorySaver } from "@langchain/langgraph";
import { FakeToolCallingModel, createAgent, humanInTheLoopMiddleware, tool } from "langchain";
import { z } from "zod";

import { PKG } from "../corpus.mjs";

const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));
const { createLangChainGate } = await import(new URL("web/adapters/langchain.js", PKG));

const POLICY = { permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)"] } };

function setup(commands, broker, { hitl = false } = {}) {
  const ran = [];
  const bash = tool(async ({ command }) => { ran.push(command); return `ran ${command}`; },
    { name: "Bash", description: "Runs a shell command", schema: z.object({ command: z.string() }) });
  const model = new FakeToolCallingModel({
    toolCalls: [...commands.map((command, i) => [{ name: "Bash", args: { command }, id: `call-${i + 1}` }]), []],
  });
  const gate = createLangChainGate({ broker, sessionId: "thread-1", cwd: "/p" });
  const middleware = hitl
    ? [humanInTheLoopMiddleware({ interruptOn: gate.interruptOn(["Bash"]) }), gate.middleware]
    : [gate.middleware];
  const agent = createAgent({ model, tools: [bash], middleware, checkpointer: new MemorySaver() });
  return { ran, agent, config: { configurable: { thread_id: "thread-1" } } };
}

const toolTexts = (result) => result.messages.filter((m) => m.type === "tool" || m._getType?.() === "tool").map((m) => String(m.content));

describe("toolgate/langchain", () => {
  test("allowed calls run; denied ones never do and the model reads why", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, agent, config } = setup(["npm test", "curl https://example.com"], broker);
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, config);
    assert.deepEqual(ran, ["npm test"]);
    assert.match(toolTexts(result).join("\n"), /Permission denied/);
  });

  test("humanInTheLoopMiddleware interrupts when the policy asks; an edit is checked again", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, agent, config } = setup(["npm test", "npm run lint"], broker, { hitl: true });
    let result = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, config);
    assert.deepEqual(ran, ["npm test"], "the allowed call ran without an interrupt");
    assert.equal(result.__interrupt__?.length, 1);
    result = await agent.invoke(new Command({ resume: { decisions: [
      { type: "edit", editedAction: { name: "Bash", args: { command: "curl https://evil.example" } } },
    ] } }), config);
    assert.deepEqual(ran, ["npm test"]);
    assert.match(toolTexts(result).join("\n"), /Permission denied/);
  });

  test("an approve decision runs the call once", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, agent, config } = setup(["npm run lint"], broker, { hitl: true });
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, config);
    await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
    assert.deepEqual(ran, ["npm run lint"]);
    assert.equal(broker.pending().length, 0);
  });

  test("an answer for the session does not ask twice", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    let asked = 0;
    broker.onRequest((a) => { asked += 1; broker.respond(a.id, { kind: "allow", scope: "session" }); });
    const { ran, agent, config } = setup(["npm run lint", "npm run lint"], broker);
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, config);
    assert.deepEqual(ran, ["npm run lint", "npm run lint"]);
    assert.equal(asked, 1);
  });

  test("nobody answering in time denies", async () => {
    let clock = 1_000_000;
    const broker = new ApprovalBroker({ policy: POLICY, now: () => clock });
    broker.onRequest(() => { setTimeout(() => { clock += 10 * 60 * 1000; broker.deadlines.tick(); }, 5); });
    const { ran, agent, config } = setup(["npm run lint"], broker);
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, config);
    assert.deepEqual(ran, []);
    assert.match(toolTexts(result).join("\n"), /not approved in time/);
  });

  test("a call never answers another call's approval that shares its id", async () => {
    let clock = 1_000_000;
    const broker = new ApprovalBroker({ policy: POLICY, now: () => clock });
    // Nobody answers: the clock passes the deadline and the broker expires the approval.
    broker.onRequest(() => { setTimeout(() => { clock += 10 * 60 * 1000; broker.deadlines.tick(); }, 5); });
    const ran = [];
    const bash = tool(async ({ command }) => { ran.push(command); return `ran ${command}`; },
      { name: "Bash", description: "Runs a shell command", schema: z.object({ command: z.string() }) });
    const model = new FakeToolCallingModel({ toolCalls: [[
      { name: "Bash", args: { command: "npm run lint" }, id: "call_1" },
      { name: "Bash", args: { command: "npm publish" }, id: "call_1" },
    ], []] });
    const gate = createLangChainGate({ broker, sessionId: "thread-1", cwd: "/p" });
    const agent = createAgent({ model, tools: [bash], middleware: [gate.middleware], checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, { configurable: { thread_id: "t" } });
    assert.deepEqual(ran, []);
    const approved = broker.audit.query().filter((e) => e.kind === "transition" && e.to === "approved");
    assert.deepEqual(approved, [], "nobody answered, so nothing is approved by a person");
    broker.shutdown();
  });

  test("a stopped run cancels the pending approval; answering it later runs nothing", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const stop = new AbortController();
    const cards = [];
    broker.onRequest((a) => { cards.push(a); setTimeout(() => stop.abort(), 5); });
    const { ran, agent, config } = setup(["make"], broker);
    await assert.rejects(agent.invoke({ messages: [{ role: "user", content: "go" }] }, { ...config, signal: stop.signal }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(cards.length, 1);
    assert.equal(broker.pending().length, 0, "the stopped call's card still waits for an answer");
    assert.deepEqual(ran, []);
    broker.shutdown();
  });
});
