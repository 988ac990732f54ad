// toolgate/openai-agents with the real OpenAI Agents SDK and a scripted Model.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Agent, RunState, Runner, Usage, tool } from "@openai/agents";

import { PKG } from "../corpus.mjs";

const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));
const { createAgentsGate } = await import(new URL("web/adapters/openai-agents.js", PKG));

const POLICY = { permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)"] } };

/** A model that calls `Bash` with each command in turn, then answers; it records its inputs. */
function scripted(commands) {
  const seen = [];
  let step = 0;
  const model = {
    async getResponse(request) {
      seen.push(request.input);
      const command = commands[step];
      step += 1;
      const output = command === undefined
        ? [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }]
        : [{ type: "function_call", callId: `call-${step}`, name: "Bash", arguments: JSON.stringify({ command }), status: "completed" }];
      return { usage: new Usage(), output, responseId: `r${step}` };
    },
    getStreamedResponse() { throw new Error("not streamed"); },
  };
  return { model, seen };
}

function setup(commands, broker) {
  const ran = [];
  const gate = createAgentsGate({ broker, sessionId: "run-1", cwd: "/p" });
  const bash = tool({
    name: "Bash", description: "Runs a shell command",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false },
    strict: true,
    execute: async ({ command }) => { ran.push(command); return `ran ${command}`; },
  });
  const { model, seen } = scripted(commands);
  const agent = new Agent({ name: "coder", model, tools: [gate.tool(bash)] });
  return { ran, gate, agent, seen, runner: new Runner({ tracingDisabled: true }) };
}

describe("toolgate/openai-agents", () => {
  test("allowed calls run, denied ones never do and the model reads why", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, agent, seen, runner } = setup(["npm test", "curl https://example.com"], broker);
    const result = await runner.run(agent, "go");
    assert.equal(result.interruptions.length, 0);
    assert.deepEqual(ran, ["npm test"]);
    assert.match(JSON.stringify(seen), /Permission denied/);
  });

  test("an ask interrupts; the broker's answer (an edit, checked again) resolves it", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, gate, agent, runner } = setup(["npm run lint"], broker);
    let result = await runner.run(agent, "go");
    assert.equal(result.interruptions.length, 1);
    const [card] = broker.pending();
    broker.respond(card.id, { kind: "allow", scope: "once", editedInput: { command: "npm test" } });
    await gate.resolveInterruptions(result.state);
    result = await runner.run(agent, result.state);
    assert.deepEqual(ran, ["npm test"]);
    assert.equal(result.finalOutput, "done");
  });

  test("approve with alwaysApprove is the session's grant: the same call does not ask twice", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, gate, agent, runner } = setup(["npm run lint", "npm run lint"], broker);
    let result = await runner.run(agent, "go");
    assert.equal(result.interruptions.length, 1);
    gate.approve(result.state, result.interruptions[0], { alwaysApprove: true });
    result = await runner.run(agent, result.state);
    assert.equal(result.interruptions.length, 0);
    assert.deepEqual(ran, ["npm run lint", "npm run lint"]);
  });

  test("reject: the call never runs and the model reads the denial", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const { ran, gate, agent, seen, runner } = setup(["npm run lint"], broker);
    let result = await runner.run(agent, "go");
    gate.reject(result.state, result.interruptions[0], { message: "use make" });
    result = await runner.run(agent, result.state);
    assert.deepEqual(ran, []);
    assert.match(JSON.stringify(seen), /use make/);
  });

  test("a serialised RunState resumes with its approvals intact", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const first = setup(["npm run lint"], broker);
    const result = await first.runner.run(first.agent, "go");
    first.gate.approve(result.state, result.interruptions[0]);
    const saved = result.state.toString();
    // A new process: a new broker and gate, the state restored from its text.
    const second = setup([undefined], new ApprovalBroker({ policy: POLICY }));
    second.agent.model = first.agent.model;
    const state = await RunState.fromString(second.agent, saved);
    const resumed = await second.runner.run(second.agent, state);
    assert.equal(resumed.interruptions.length, 0);
    assert.deepEqual(second.ran, ["npm run lint"]);
  });

  test("nobody answering in time denies", async () => {
    let clock = 1_000_000;
    const broker = new ApprovalBroker({ policy: POLICY, now: () => clock });
    const { ran, gate, agent, seen, runner } = setup(["npm run lint"], broker);
    let result = await runner.run(agent, "go");
    clock += 10 * 60 * 1000;
    broker.deadlines.tick();
    await gate.resolveInterruptions(result.state);
    result = await runner.run(agent, result.state);
    assert.deepEqual(ran, []);
    assert.match(JSON.stringify(seen), /not approved in time/);
  });

  test("a reused call id gets its own verdict: what runs is what the person approved", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const gate = createAgentsGate({ broker, sessionId: "run-1", cwd: "/p" });
    const ran = [];
    const bash = gate.tool(tool({
      name: "Bash", description: "Runs a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false },
      strict: true, execute: async ({ command }) => { ran.push(command); return `ran ${command}`; },
    }));
    const fixedId = (command) => {
      let step = 0;
      return { async getResponse() {
        step += 1;
        const output = step === 1
          ? [{ type: "function_call", callId: "call_0", name: "Bash", arguments: JSON.stringify({ command }), status: "completed" }]
          : [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }];
        return { usage: new Usage(), output, responseId: `r${step}` };
      }, getStreamedResponse() { throw new Error("not streamed"); } };
    };
    const runner = new Runner({ tracingDisabled: true });
    // The first run's interruption is never answered (the run is abandoned).
    await runner.run(new Agent({ name: "a", model: fixedId("npm publish"), tools: [bash] }), "go");
    const agent = new Agent({ name: "a", model: fixedId("npm run lint"), tools: [bash] });
    const second = await runner.run(agent, "lint");
    assert.deepEqual(second.interruptions.map((i) => JSON.parse(i.rawItem.arguments).command), ["npm run lint"]);
    for (const item of second.interruptions) gate.approve(second.state, item);
    await runner.run(agent, second.state);
    assert.deepEqual(ran, ["npm run lint"]);
    assert.equal(broker.pending().length, 0);
    broker.shutdown();
  });

  test("a stopped run's call is never invoked, and its pending approval is cancelled", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const ran = [];
    const gate = createAgentsGate({ broker, sessionId: "run-1", cwd: "/p" });
    const bash = gate.tool(tool({
      name: "Bash", description: "Runs a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false },
      strict: true,
      execute: async ({ command }) => { ran.push(command); return `ran ${command}`; },
    }));
    const call = (id, command, signal) => bash.invoke({}, JSON.stringify({ command }), { toolCall: { callId: id }, signal });
    // Asked about (an interruption) and the run stopped: the approval is cancelled, nothing runs.
    assert.equal(await bash.needsApproval({}, { command: "make" }, "c1"), true);
    assert.equal(broker.pending().length, 1);
    assert.match(await call("c1", "make", AbortSignal.abort()), /stopped the request/);
    assert.equal(broker.pending().length, 0, "the stopped call's card still waits for an answer");
    // Allowed by the policy, but the run was stopped: not run either.
    assert.match(await call("c2", "npm test", AbortSignal.abort()), /stopped the request/);
    assert.deepEqual(ran, []);
    broker.shutdown();
  });
});
