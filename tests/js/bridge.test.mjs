// The approval bridge over real channels: a worker_threads MessageChannel (the UI in the
// same thread, the way a renderer's port is used) and a real Worker running the client.
import assert from "node:assert/strict";
import { once } from "node:events";
import { test } from "node:test";
import { MessageChannel, Worker } from "node:worker_threads";

import { PKG } from "./corpus.mjs";

const api = await import(new URL("node/index.mjs", PKG));
const { ApprovalBroker, createApprovalClient, createBrokerHost } = api;

const bash = (command, extra = {}) => ({ sessionId: "s1", ...extra, request: { tool: "Bash", input: { command }, cwd: "/p", agent: "claude" } });
const next = (subscribe) => new Promise((resolve) => {
  const off = subscribe((...args) => {
    off();
    resolve(args);
  });
});

test("requests reach the UI, answers settle the promise, replays and forgeries are rejected and logged", async () => {
  const { port1, port2 } = new MessageChannel();
  const broker = new ApprovalBroker({ policy: {} });
  const hostErrors = [];
  const detach = createBrokerHost(broker, port1, { onError: (e) => hostErrors.push(e.code) });
  const client = createApprovalClient(port2);
  try {
    const seen = next(client.onRequest);
    const outcome = broker.requestApproval(bash("git push"));
    const [approval] = await seen;
    assert.equal(approval.description, "Execute command: git push");
    assert.deepEqual(client.pending().map((a) => a.id), [approval.id]);
    const settled = next(client.onSettled);
    client.respond(approval.id, { kind: "allow", scope: "once" });
    assert.equal((await outcome).status, "approved");
    assert.equal((await settled)[0], approval.id);
    assert.throws(() => client.respond(approval.id, { kind: "deny" }), { code: "ALREADY_SETTLED" });

    // A forged id and a replayed answer, posted straight onto the channel.
    const rejected = [];
    client.onRejected((id, err) => rejected.push(`${id}:${err.code}`));
    port2.postMessage({ toolgate: 1, type: "approval-response", requestId: "forged", answer: { kind: "allow", scope: "once" } });
    port2.postMessage({ toolgate: 1, type: "approval-response", requestId: approval.id, answer: { kind: "allow", scope: "once" } });
    port2.postMessage({ hello: "not toolgate" });
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(rejected, ["forged:UNKNOWN_APPROVAL", `${approval.id}:ALREADY_SETTLED`]);
    assert.deepEqual(hostErrors, ["UNKNOWN_APPROVAL", "ALREADY_SETTLED", "INVALID_MESSAGE"]);
  } finally {
    detach();
    client.close();
    port1.close();
  }
});

test("a bad answer is rejected by the core and the request stays answerable; bypass sets the agent's flag", async () => {
  const { port1, port2 } = new MessageChannel();
  const broker = new ApprovalBroker({ policy: {} });
  const detach = createBrokerHost(broker, port1, { onError: () => {} });
  const client = createApprovalClient(port2);
  try {
    const seen = next(client.onRequest);
    const outcome = broker.requestApproval(bash("git push"));
    const [approval] = await seen;
    const rejected = next(client.onRejected);
    port2.postMessage({ toolgate: 1, type: "approval-response", requestId: approval.id, answer: { kind: "sometimes" } });
    assert.equal((await rejected)[1].code, "INVALID_JSON");
    port2.postMessage({ toolgate: 1, type: "approval-response", requestId: approval.id, answer: { kind: "allow", scope: "once" }, bypass: true });
    assert.equal((await outcome).status, "approved");
    assert.deepEqual(broker.trust.bypassAgents(), ["claude"]);
  } finally {
    detach();
    client.close();
    port1.close();
  }
});

test("a client connecting late gets the pending requests; an expiry reaches it as settled", async () => {
  const { port1, port2 } = new MessageChannel();
  const broker = new ApprovalBroker({ policy: {} });
  const outcome = broker.requestApproval(bash("git push", { timeoutMs: 200 }));
  const detach = createBrokerHost(broker, port1);
  const client = createApprovalClient(port2);
  try {
    const [approval] = await next(client.onRequest);
    const [id, settled] = await next(client.onSettled);
    assert.equal(id, approval.id);
    assert.equal(settled.status, "expired");
    assert.equal((await outcome).status, "expired");
  } finally {
    detach();
    client.close();
    port1.close();
  }
});

test("the UI in a real Worker answers over the worker's port", async () => {
  const worker = new Worker(
    `const { parentPort } = require("node:worker_threads");
     const { createApprovalClient } = require(${JSON.stringify(new URL("node/toolgate.cjs", PKG).pathname)});
     const client = createApprovalClient(parentPort);
     client.onRequest((a) => client.respond(a.id, { kind: "deny", message: "from the worker" }));`,
    { eval: true },
  );
  const broker = new ApprovalBroker({ policy: {} });
  const detach = createBrokerHost(broker, worker);
  try {
    const outcome = await broker.requestApproval(bash("git push"));
    assert.equal(outcome.status, "denied");
    assert.equal(outcome.message, "from the worker");
  } finally {
    detach();
    await worker.terminate();
  }
});
