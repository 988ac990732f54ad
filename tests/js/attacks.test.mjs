// The JS broker, trust store and bridge against an attacker who picks the tool inputs, the
// UI's messages and what storage holds, and against host callbacks that misbehave. Each
// class has several cases; the core's side is in tests/attacks_broker.rs.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { MessageChannel } from "node:worker_threads";

import { PKG } from "./corpus.mjs";

const api = await import(new URL("node/index.mjs", PKG));
const { ApprovalBroker, TrustStore, createApprovalClient, createBrokerHost } = api;

const CWD = "/home/ada/proj";
const bash = (command, extra = {}) =>
  ({ sessionId: "s1", ...extra, request: { tool: "Bash", input: { command }, cwd: CWD, agent: "claude" } });
const write = (file_path, extra = {}) =>
  ({ sessionId: "s1", ...extra, request: { tool: "Write", input: { file_path, content: "x" }, cwd: CWD, agent: "claude" } });
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
const sha256 = (text) => createHash("sha256").update(text).digest("hex");
const quiet = () => {};

/** Collects unhandled rejections while `body` runs (they would crash a Node host). */
async function noUnhandledRejections(body) {
  const seen = [];
  const onRejection = (reason) => seen.push(reason);
  process.on("unhandledRejection", onRejection);
  try {
    await body();
    await tick(50);
  } finally {
    process.off("unhandledRejection", onRejection);
  }
  assert.deepEqual(seen, [], "no unhandled rejection");
}

// ---- grants for programs that run code ----

test("grants for programs that run code are refused", () => {
  const store = new TrustStore();
  for (const rule of ["Bash(busybox *)", "Bash(awk *)", "Bash(gdb -batch *)", "Bash(ssh host *)",
    "Bash(tmux *)", "Bash(vim *)", "Bash(docker run *)", "Bash(sed *)", "Bash(node *)", "Bash(find . *)"]) {
    assert.throws(() => store.grant({ rule, scope: "always" }), { code: "GRANT_REFUSED" }, rule);
  }
  assert.deepEqual(store.list(), []);
});

test("an answer naming a code runner is refused and leaves the call pending", async () => {
  const broker = new ApprovalBroker({ policy: {} });
  const outcome = broker.requestApproval(bash("cargo build"));
  const [card] = broker.pending();
  for (const rule of ["Bash(awk *)", "Bash(make *)", "Bash(busybox sh)", "Bash(Python3 *)"]) {
    assert.throws(() => broker.respond(card.id, { kind: "allow", scope: "session", rules: [rule] }),
      { code: "GRANT_REFUSED" }, rule);
  }
  assert.deepEqual(broker.trust.list(), []);
  broker.respond(card.id, { kind: "deny" });
  assert.equal((await outcome).status, "denied");
});

// ---- session write grants stay inside the project ----

test("allow Write for the session approves writes inside the project only", async () => {
  const broker = new ApprovalBroker({ policy: {} });
  const first = broker.requestApproval(write("src/a.ts"));
  broker.respond(broker.pending()[0].id, { kind: "allowToolForSession" });
  assert.equal((await first).status, "approved");
  assert.equal((await broker.requestApproval(write("src/b.ts"))).by, "trust");
  for (const path of ["~/.local/bin/git", "/home/ada/.config/autostart/x.desktop", "/etc/cron.d/job",
    "../other/run.sh", "/home/ada/.bashrc", ".git/hooks/pre-commit"]) {
    const p = broker.requestApproval(write(path));
    const card = broker.pending().find((a) => a.input.file_path === path);
    assert.ok(card, `${path} asks`);
    assert.equal(card.trustable, false, path);
    assert.ok(!card.answers.includes("allowToolForSession"), path);
    broker.cancel(card.id);
    assert.equal((await p).status, "cancelled");
  }
});

test("a write grant added by hand does not reach outside the project either", async () => {
  const broker = new ApprovalBroker({ policy: {} });
  broker.trust.grant({ rule: "Write", scope: "always" });
  broker.trust.grant({ rule: "Write(/etc/**)", scope: "session", sessionId: "s1" });
  for (const path of ["/etc/cron.d/job", "/etc/profile.d/x.sh", "~/.local/bin/ls", "/tmp/x"]) {
    const p = broker.requestApproval(write(path));
    assert.equal(broker.pending().length, 1, path);
    broker.cancel(broker.pending()[0].id);
    assert.equal((await p).by, "cancel");
  }
});

// ---- the bridge turns bypass on only with an accepted answer ----

async function bridged(body) {
  const { port1, port2 } = new MessageChannel();
  const broker = new ApprovalBroker({ policy: {} });
  const detach = createBrokerHost(broker, port1, { onError: quiet });
  const client = createApprovalClient(port2, { onError: quiet });
  try {
    await body({ broker, client, port2 });
  } finally {
    detach();
    client.close();
    port1.close();
  }
}

const respondMessage = (requestId, answer, bypass = true) =>
  ({ toolgate: 1, type: "approval-response", requestId, answer, bypass });

test("bypass stays off when the answer that carried it is rejected", async () => {
  await bridged(async ({ broker, port2 }) => {
    const p = broker.requestApproval(bash("git push"));
    const id = broker.pending()[0].id;
    await tick();
    port2.postMessage(respondMessage(id, { kind: "sometimes" }));
    port2.postMessage(respondMessage(id, { kind: "allow", scope: "always", rules: ["Bash(sh *)"] }));
    port2.postMessage(respondMessage(id, { kind: "allow", scope: "once", rules: ["Bash(git push)"] }));
    port2.postMessage(respondMessage("forged-id", { kind: "allow", scope: "once" }));
    await tick();
    assert.deepEqual(broker.trust.bypassAgents(), []);
    assert.equal(broker.pending().length, 1, "still pending");
    broker.cancel(id);
    await p;
  });
});

test("bypass goes with an allow answer only, and not with a replayed one", async () => {
  await bridged(async ({ broker, port2 }) => {
    const p = broker.requestApproval(bash("git push"));
    const id = broker.pending()[0].id;
    await tick();
    port2.postMessage(respondMessage(id, { kind: "deny", message: "no" }));
    await tick();
    assert.deepEqual(broker.trust.bypassAgents(), [], "a deny never turns bypass on");
    assert.equal(broker.pending().length, 1, "the deny carrying bypass was rejected whole");
    port2.postMessage(respondMessage(id, { kind: "deny" }, false));
    assert.equal((await p).status, "denied");
    port2.postMessage(respondMessage(id, { kind: "allow", scope: "once" }));
    await tick();
    assert.deepEqual(broker.trust.bypassAgents(), [], "a replay never turns bypass on");
  });
});

test("bypass stays off when the accepted answer did not approve the call", async () => {
  await bridged(async ({ broker, port2 }) => {
    broker.setPolicy({ permissions: { deny: ["Bash(rm *)"] } });
    const p = broker.requestApproval(bash("git push"));
    const id = broker.pending()[0].id;
    await tick();
    // The edited call is denied by the policy: the answer is accepted, the call denied.
    port2.postMessage(respondMessage(id, { kind: "allow", scope: "once", editedInput: { command: "rm -rf /" } }));
    const outcome = await p;
    assert.equal(outcome.status, "denied");
    await tick();
    assert.deepEqual(broker.trust.bypassAgents(), []);
  });
});

test("an accepted allow with bypass turns bypass on", async () => {
  await bridged(async ({ broker, port2 }) => {
    const p = broker.requestApproval(bash("git push"));
    const id = broker.pending()[0].id;
    await tick();
    port2.postMessage(respondMessage(id, { kind: "allow", scope: "once" }));
    assert.equal((await p).status, "approved");
    await tick();
    assert.deepEqual(broker.trust.bypassAgents(), ["claude"]);
  });
});

test("the bridge client offers approveAll and denyAll", async () => {
  await bridged(async ({ broker, client }) => {
    const a = broker.requestApproval(bash("git push"));
    const b = broker.requestApproval(bash("git fetch"));
    await tick();
    assert.equal(client.approveAll("s1").length, 2);
    assert.deepEqual([(await a).status, (await b).status], ["approved", "approved"]);
    const c = broker.requestApproval(bash("git pull"));
    await tick();
    assert.equal(client.denyAll("s1", "not now").length, 1);
    assert.equal((await c).status, "denied");
  });
});

// ---- trust documents verify a checksum, every version ----

function v0(allow, bypassAgents) {
  const content = JSON.stringify({ version: 0, allow, bypassAgents });
  return JSON.stringify({ version: 0, allow, bypassAgents, checksum: `sha256:${sha256(content)}` });
}

test("a version 0 document without a valid checksum is rejected", () => {
  const store = new TrustStore();
  for (const doc of [
    JSON.stringify({ version: 0, allow: ["Write"], bypassAgents: ["claude"] }),
    JSON.stringify({ version: 0, bypassAgents: ["claude"] }),
    JSON.stringify({ version: 0, allow: ["Write"], bypassAgents: [], checksum: "sha256:00" }),
    v0(["Write"], []).replace('"bypassAgents":[]', '"bypassAgents":["claude"]'),
  ]) {
    assert.throws(() => store.import(doc), { code: "TAMPERED", path: "checksum" }, doc);
  }
  assert.deepEqual(store.bypassAgents(), []);
  assert.equal(store.import(v0(["Write"], ["claude"])), 1, "a checksummed version 0 migrates");
});

test("a stored version 0 document without its checksum is refused at load", async () => {
  const saved = [];
  const storage = {
    load: async () => JSON.stringify({ version: 0, allow: ["Write"], bypassAgents: ["claude"] }),
    save: async (text) => void saved.push(text),
  };
  const errors = [];
  const broker = new ApprovalBroker({ policy: {}, storage, onError: (e) => errors.push(e.code) });
  await assert.rejects(broker.ready, { code: "TAMPERED" });
  assert.deepEqual(broker.trust.bypassAgents(), []);
  broker.trust.grant({ rule: "Read", scope: "always" });
  await broker.trust.flushStorage();
  assert.deepEqual(saved, [], "a refused document is never saved over");
});

// ---- changes made before the stored document loads ----

function slowStorage(text) {
  let release;
  const gate = new Promise((r) => (release = r));
  const saved = [];
  return {
    storage: { load: async () => { await gate; return text; }, save: async (t) => void saved.push(t) },
    release,
    saved,
  };
}

function storedDocument() {
  const store = new TrustStore();
  const write = store.grant({ rule: "Write", scope: "always" });
  store.grant({ rule: "Bash(npm test)", scope: "always" });
  store.setAgentBypass("claude", true);
  return { text: store.exportText(), writeId: write.id };
}

test("a revoke issued before storage loads is not undone by the load", async () => {
  const { text, writeId } = storedDocument();
  const slow = slowStorage(text);
  const broker = new ApprovalBroker({ policy: {}, storage: slow.storage });
  broker.trust.revoke(writeId);
  slow.release();
  await broker.ready;
  assert.deepEqual(broker.trust.list().map((g) => g.rule), ["Bash(npm test)"]);
  await broker.trust.flushStorage();
  assert.ok(!slow.saved.at(-1).includes('"Write"'), "the revoke is saved too");
});

test("bypass turned off before storage loads stays off", async () => {
  const { text } = storedDocument();
  const slow = slowStorage(text);
  const broker = new ApprovalBroker({ policy: {}, storage: slow.storage });
  broker.trust.setAgentBypass("claude", false);
  slow.release();
  await broker.ready;
  assert.deepEqual(broker.trust.bypassAgents(), []);
  const p = broker.requestApproval(bash("git push"));
  assert.equal(broker.pending().length, 1, "no bypass: the call asks");
  broker.cancel(broker.pending()[0].id);
  await p;
});

test("a stand-alone store applies early changes after the load, in order", async () => {
  const { text, writeId } = storedDocument();
  const slow = slowStorage(text);
  const store = new TrustStore({ storage: slow.storage });
  store.revoke(writeId);
  store.grant({ rule: "Write", scope: "always" });
  store.setAgentBypass("copilot", true);
  store.setAgentBypass("claude", false);
  slow.release();
  await store.ready;
  assert.deepEqual(store.list().map((g) => g.rule).sort(), ["Bash(npm test)", "Write"]);
  assert.deepEqual(store.bypassAgents(), ["copilot"]);
  await store.flushStorage();
  assert.equal(slow.saved.length, 1, "saved once, after the load");
});

test("an always answer given before storage loads survives the load", async () => {
  const { text } = storedDocument();
  const slow = slowStorage(text);
  const broker = new ApprovalBroker({ policy: {}, storage: slow.storage });
  const p = broker.requestApproval(bash("cargo test"));
  broker.respond(broker.pending()[0].id, { kind: "allow", scope: "always" });
  await p;
  slow.release();
  await broker.ready;
  assert.deepEqual(broker.trust.list().map((g) => g.rule).sort(), ["Bash(cargo test)", "Bash(npm test)", "Write"]);
});

// ---- host callbacks that throw or reject ----

test("a throwing error handler and throwing listeners leave no batch approval unsettled", async () => {
  const broker = new ApprovalBroker({ policy: {}, onError: () => { throw new Error("handler broke"); } });
  const original = console.error;
  console.error = quiet;
  try {
    broker.onRequest(() => { throw new Error("listener broke"); });
    broker.audit.onTransition(() => { throw new Error("listener broke"); });
    const promises = broker.requestApprovals([bash("git push"), bash("git fetch"), bash("cargo build")]);
    assert.equal(promises.length, 3);
    broker.shutdown();
    const outcomes = await Promise.all(promises);
    assert.deepEqual(outcomes.map((o) => o.status), ["cancelled", "cancelled", "cancelled"]);
  } finally {
    console.error = original;
  }
});

test("an async onRequest listener that rejects is reported, not a crash", async () => {
  await noUnhandledRejections(async () => {
    const errors = [];
    const broker = new ApprovalBroker({ policy: {}, onError: (e) => errors.push(e.message) });
    broker.onRequest(async () => { throw new Error("async listener broke"); });
    broker.audit.onEvent(async () => { throw new Error("async event listener broke"); });
    const p = broker.requestApproval(bash("git push"));
    await tick();
    assert.ok(errors.includes("async listener broke"), String(errors));
    assert.ok(errors.includes("async event listener broke"), String(errors));
    broker.respond(broker.pending()[0].id, { kind: "allow", scope: "once" });
    assert.equal((await p).status, "approved");
  });
});

test("an error handler that throws or rejects while reporting goes to console.error", async () => {
  await noUnhandledRejections(async () => {
    const logged = [];
    const original = console.error;
    console.error = (...parts) => logged.push(parts.map(String).join(" "));
    try {
      const throwing = new ApprovalBroker({ policy: {}, onError: () => { throw new Error("sync handler"); } });
      throwing.onRequest(async () => { throw new Error("first"); });
      const a = throwing.requestApproval(bash("git push"));
      const rejecting = new ApprovalBroker({ policy: {}, onError: async () => { throw new Error("async handler"); } });
      rejecting.onRequest(() => { throw new Error("second"); });
      const b = rejecting.requestApproval(bash("git push"));
      await tick();
      assert.ok(logged.some((l) => l.includes("sync handler") && l.includes("first")), logged.join("\n"));
      assert.ok(logged.some((l) => l.includes("async handler") && l.includes("second")), logged.join("\n"));
      throwing.shutdown();
      rejecting.shutdown();
      assert.equal((await a).status, "cancelled");
      assert.equal((await b).status, "cancelled");
    } finally {
      console.error = original;
    }
  });
});

test("a failing save with a throwing error handler is not an unhandled rejection", async () => {
  await noUnhandledRejections(async () => {
    const original = console.error;
    console.error = () => { throw new Error("console broke too"); };
    try {
      const storage = { load: async () => null, save: async () => { throw new Error("disk full"); } };
      const broker = new ApprovalBroker({ policy: {}, storage, onError: () => { throw new Error("handler"); } });
      await broker.ready;
      broker.trust.grant({ rule: "Read", scope: "always" });
      await broker.trust.flushStorage();
      const store = new TrustStore({ storage: { load: async () => "{", save: async () => {} }, onError: () => { throw new Error("x"); } });
      await assert.rejects(store.ready, { code: "INVALID_TRUST_DOCUMENT" });
    } finally {
      console.error = original;
    }
  });
});

test("bridge listeners and loggers that throw or reject do not stop the bridge", async () => {
  await noUnhandledRejections(async () => {
    const { port1, port2 } = new MessageChannel();
    const broker = new ApprovalBroker({ policy: {} });
    const detach = createBrokerHost(broker, port1, { onError: () => { throw new Error("host log broke"); } });
    const clientErrors = [];
    const client = createApprovalClient(port2, { onError: (e) => clientErrors.push(e.message) });
    const original = console.error;
    console.error = quiet;
    try {
      const seen = [];
      client.onRequest(() => { throw new Error("sync listener"); });
      client.onRequest(async () => { throw new Error("async listener"); });
      client.onRequest((a) => seen.push(a.id));
      const p = broker.requestApproval(bash("git push"));
      await tick();
      assert.equal(seen.length, 1, "the later listener still ran");
      for (const what of ["sync listener", "async listener"]) {
        assert.ok(clientErrors.some((m) => m.includes(what)), String(clientErrors));
      }
      port2.postMessage(respondMessage("forged", { kind: "allow", scope: "once" }, false)); // host log throws
      await tick();
      client.respond(seen[0], { kind: "allow", scope: "once" });
      assert.equal((await p).status, "approved");
    } finally {
      console.error = original;
      detach();
      client.close();
      port1.close();
    }
  });
});

// ---- saved approvals: integrity and deadlines ----

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const resigned = (saved) => ({
  ...saved,
  checksum: `sha256:${sha256(canonical({ version: saved.version, approval: saved.approval, binding: saved.binding }))}`,
});

function savedCall() {
  const call = bash("npm publish", { callId: "c1" });
  const broker = new ApprovalBroker({ policy: {} });
  broker.requestApproval(call);
  const saved = broker.saved.save(broker.pending()[0].id);
  broker.shutdown();
  return { call, saved };
}

test("resume rejects an edited saved approval", async () => {
  const { call, saved } = savedCall();
  const year = 365 * 86_400_000;
  for (const edit of [
    (s) => { s.approval.deadline += year; },
    (s) => { s.approval.createdAt += 1; },
    (s) => { s.approval.answers = [...s.approval.answers, "allowAlways"]; },
    (s) => { s.checksum = "sha256:00"; },
  ]) {
    const bad = structuredClone(saved);
    edit(bad);
    await assert.rejects(new ApprovalBroker({ policy: {} }).saved.resume(bad, call), { code: "TAMPERED" });
  }
  const { checksum, ...without } = saved;
  assert.ok(checksum.startsWith("sha256:"));
  await assert.rejects(new ApprovalBroker({ policy: {} }).saved.resume(without, call), { name: "ToolgateError" });
});

test("resume caps a year-long deadline at the broker's maximum timeout", async () => {
  const { call, saved } = savedCall();
  const long = structuredClone(saved);
  long.approval.deadline = long.approval.createdAt + 365 * 86_400_000;
  const broker = new ApprovalBroker({ policy: {}, maxTimeoutMs: 60_000, defaultTimeoutMs: 60_000 });
  const p = broker.saved.resume(resigned(long), call);
  const card = broker.pending()[0];
  assert.equal(card.deadline, saved.approval.createdAt + 60_000);
  broker.shutdown();
  await p;
});

test("resume never takes a creation time from the future", async () => {
  const { call, saved } = savedCall();
  const later = structuredClone(saved);
  later.approval.createdAt = Date.now() + 86_400_000;
  later.approval.deadline = later.approval.createdAt + 60_000;
  const broker = new ApprovalBroker({ policy: {}, maxTimeoutMs: 60_000, defaultTimeoutMs: 60_000 });
  const before = Date.now();
  const p = broker.saved.resume(resigned(later), call);
  const card = broker.pending()[0];
  assert.ok(card.createdAt <= Date.now() && card.createdAt >= before);
  assert.ok(card.deadline <= Date.now() + 60_000);
  broker.shutdown();
  await p;
});

test("an untouched saved approval resumes with its own deadline", async () => {
  const { call, saved } = savedCall();
  const broker = new ApprovalBroker({ policy: {} });
  const p = broker.saved.resume(JSON.parse(JSON.stringify(saved)), call);
  assert.equal(broker.pending()[0].deadline, saved.approval.deadline);
  broker.respond(saved.approval.id, { kind: "allow", scope: "once" });
  assert.equal((await p).status, "approved");
});
