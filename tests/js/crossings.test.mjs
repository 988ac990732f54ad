// One crossing per operation: every broker operation calls into the wasm core once and gets
// back one batch (result, transitions, audit events, next deadline, trust document to save).
// The raw handle's methods are wrapped and counted, so a change that adds a crossing to the
// approval round trip fails here.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { after, beforeEach, describe, test } from "node:test";

import { PKG } from "./corpus.mjs";

const require = createRequire(import.meta.url);
const api = await import(new URL("node/index.mjs", PKG));
const { ApprovalBroker } = api;
const raw = require(fileURLToPath(new URL("node/toolgate_bindgen.cjs", PKG))).RawBroker.prototype;

/** Calls into the raw broker since the last reset, by method name. */
let calls = [];
const originals = new Map();
for (const name of Object.getOwnPropertyNames(raw)) {
  const original = Object.getOwnPropertyDescriptor(raw, name)?.value;
  if (name === "constructor" || name === "free" || typeof original !== "function") continue;
  originals.set(name, original);
  raw[name] = function counted(...args) {
    calls.push(name);
    return original.apply(this, args);
  };
}
after(() => {
  for (const [name, original] of originals) raw[name] = original;
});
beforeEach(() => {
  calls = [];
});

// `git push` asks by default; an ask rule on it would leave nothing to remember (a grant
// never beats an ask rule), so no "remember" answer would be offered.
const POLICY = { permissions: { allow: ["Read"], deny: ["Bash(rm *)"] } };
const push = (i = 0) => ({ sessionId: "s", callId: `c${i}`, request: { tool: "Bash", input: { command: `git push origin b${i}` }, cwd: "/p" } });

describe("crossings per operation", () => {
  test("a call the policy settles at once crosses once", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    calls = [];
    const read = await broker.requestApproval({ sessionId: "s", request: { tool: "Read", input: { file_path: "/p/a.txt" }, cwd: "/p" } });
    const denied = await broker.requestApproval({ sessionId: "s", request: { tool: "Bash", input: { command: "rm -rf x" }, cwd: "/p" } });
    assert.equal(read.status, "approved");
    assert.equal(denied.status, "denied");
    assert.deepEqual(calls, ["requestApproval", "requestApproval"]);
    broker.shutdown();
  });

  test("an approval round trip (request, a listener answers) crosses twice", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    broker.onRequest((p) => broker.respond(p.id, { kind: "allow", scope: "once" }));
    calls = [];
    const outcome = await broker.requestApproval(push());
    assert.equal(outcome.status, "approved");
    assert.deepEqual(calls, ["requestApproval", "respond"]);
    broker.shutdown();
  });

  test("an answer remembered always is saved without another crossing", async () => {
    const saved = [];
    const storage = { load: async () => null, save: async (text) => void saved.push(text) };
    const broker = new ApprovalBroker({ policy: POLICY, storage });
    await broker.ready;
    const p = broker.requestApproval(push());
    calls = [];
    const outcome = broker.respond(broker.pending()[0].id, { kind: "allow", scope: "always" });
    assert.deepEqual(calls, ["pending", "respond"]);
    assert.equal(outcome.remembered, true);
    assert.equal((await p).status, "approved");
    await broker.trust.flushStorage();
    assert.equal(saved.length, 1);
    assert.match(saved[0], /git push origin b0/);
    // A session answer is not persisted: nothing more is saved.
    const q = broker.requestApproval(push(1));
    broker.respond(broker.pending()[0].id, { kind: "allow", scope: "session" });
    await q;
    await broker.trust.flushStorage();
    assert.equal(saved.length, 1);
    broker.shutdown();
  });

  test("trust changes through broker.trust cross once and are saved as the core says", async () => {
    const saved = [];
    const storage = { load: async () => null, save: async (text) => void saved.push(text) };
    const broker = new ApprovalBroker({ policy: POLICY, storage });
    await broker.ready;
    calls = [];
    broker.trust.grant({ rule: "Bash(npm test)", scope: "always" });
    broker.trust.grant({ rule: "Bash(npm run lint)", scope: "session", sessionId: "s" });
    broker.trust.setAgentBypass("copilot", true);
    assert.deepEqual(calls, ["grant", "grant", "setAgentBypass"]);
    await broker.trust.flushStorage();
    assert.equal(saved.length, 2, "the session grant is not persisted");
    broker.shutdown();
  });

  test("a failed operation delivers what it queued: an answer after the deadline expires the call", async () => {
    let clock = 1_000;
    const broker = new ApprovalBroker({ policy: POLICY, now: () => clock, defaultTimeoutMs: 1_000 });
    const p = broker.requestApproval(push());
    const id = broker.pending()[0].id;
    clock += 5_000;
    calls = [];
    assert.throws(() => broker.respond(id, { kind: "allow", scope: "once" }), { code: "ALREADY_SETTLED" });
    assert.deepEqual(calls, ["respond", "takeQueued"]);
    assert.equal((await p).status, "expired");
    broker.shutdown();
  });
});

describe("delivery", () => {
  test("a listener's own call is delivered after the batch being delivered, in order", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const seen = [];
    broker.onRequest((p) => {
      seen.push(`request ${p.callId}`);
      broker.respond(p.id, { kind: "allow", scope: "once" });
      seen.push(`answered ${p.callId}`);
    });
    broker.audit.onTransition((t) => seen.push(`${t.callId} ${t.from}->${t.to}`));
    const outcome = await broker.requestApproval(push());
    assert.equal(outcome.status, "approved");
    assert.deepEqual(seen, ["request c0", "answered c0", "c0 null->pendingApproval", "c0 pendingApproval->approved"]);
    broker.shutdown();
  });

  test("cards carry what the approval card shows, worked out by the core", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    void broker.requestApproval(push());
    const [card] = broker.pending();
    assert.equal(card.description, "Execute command: git push origin b0");
    assert.equal(card.subject, "git push origin b0");
    assert.equal(card.label, "Bash(git push origin b0)");
    assert.ok(card.answers.includes("allowAlways"));
    assert.deepEqual(card.rules, ["Bash(git push origin b0)"]);
    broker.shutdown();
    const asking = new ApprovalBroker({ policy: { permissions: { ask: ["Bash(git push *)"] } } });
    void asking.requestApproval(push());
    const [asked] = asking.pending();
    assert.deepEqual([asked.rules, asked.answers.includes("allowAlways")], [[], false]);
    asking.shutdown();
  });
});
