// Trust storage in Node: the JSON file storage (atomic replace, corrupt and tampered files
// refused with the last good state kept and the file left alone), and the localStorage
// storage over a Storage-like object. IndexedDB and the real localStorage run in Chromium
// (tests/browser/package.test.mjs).
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { PKG } from "./corpus.mjs";

const api = await import(new URL("node/index.mjs", PKG));
const { ApprovalBroker, ToolgateError, TrustStore, jsonFileTrustStorage, localStorageTrustStorage } = api;

const bash = (command, sessionId = "s1") => ({ sessionId, request: { tool: "Bash", input: { command }, cwd: "/p" } });

async function approveAlways(broker, command) {
  const p = broker.requestApproval(bash(command));
  broker.respond(broker.pending()[0].id, { kind: "allow", scope: "always" });
  await p;
  await broker.trust.flushStorage();
}

test("a JSON file keeps always grants across brokers, written atomically", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-trust-"));
  const file = join(dir, "trust.json");
  const first = new ApprovalBroker({ policy: {}, storage: jsonFileTrustStorage(file) });
  await first.ready;
  await approveAlways(first, "npm run lint");
  first.trust.setAgentBypass("copilot", true);
  await first.trust.flushStorage();
  assert.deepEqual(readdirSync(dir), ["trust.json"], "no temp file is left");
  const doc = JSON.parse(readFileSync(file, "utf8"));
  assert.equal(doc.grants[0].rule, "Bash(npm run lint)");

  const second = new ApprovalBroker({ policy: {}, storage: jsonFileTrustStorage(file) });
  await second.ready;
  assert.equal((await second.requestApproval(bash("npm run lint", "s2"))).by, "trust");
  assert.deepEqual(second.trust.bypassAgents(), ["copilot"]);
});

test("a tampered or corrupt file is refused, the store stays as it was, the file is not overwritten", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-trust-"));
  const file = join(dir, "trust.json");
  const good = new ApprovalBroker({ policy: {}, storage: jsonFileTrustStorage(file) });
  await good.ready;
  await approveAlways(good, "npm run lint");
  const doc = JSON.parse(readFileSync(file, "utf8"));
  doc.grants[0].rule = "Bash(npm run build)"; // a hand edit: the checksum no longer fits
  writeFileSync(file, JSON.stringify(doc));
  const tampered = readFileSync(file, "utf8");

  for (const [text, code] of [[tampered, "TAMPERED"], ['{"version": 1, "grants": [', "INVALID_TRUST_DOCUMENT"]]) {
    writeFileSync(file, text);
    const errors = [];
    const b = new ApprovalBroker({ policy: {}, storage: jsonFileTrustStorage(file), onError: (e) => errors.push(e) });
    await assert.rejects(b.ready, (err) => err instanceof ToolgateError && err.code === code);
    assert.equal(b.trust.list().length, 0, "nothing was imported");
    const p = b.requestApproval(bash("npm run build"));
    assert.equal(b.pending().length, 1, "the tampered grant does not allow: it asks");
    b.respond(b.pending()[0].id, { kind: "allow", scope: "always" });
    await p;
    await b.trust.flushStorage();
    assert.equal(readFileSync(file, "utf8"), text, "the bad file is left for inspection");
    assert.equal(errors.length, 1);
    b.shutdown();
  }
});

test("a missing directory is a STORAGE error reported through onError", async () => {
  const errors = [];
  const b = new ApprovalBroker({
    policy: {},
    storage: jsonFileTrustStorage(join(tmpdir(), "no-such-dir-toolgate", "t.json")),
    onError: (e) => errors.push(e),
  });
  await b.ready;
  await approveAlways(b, "npm run lint");
  assert.equal(errors[0].code, "STORAGE");
});

test("localStorage storage over a Storage-like object", async () => {
  const items = new Map();
  const fake = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v) };
  const b = new ApprovalBroker({ policy: {}, storage: localStorageTrustStorage("t", fake) });
  await b.ready;
  await approveAlways(b, "npm run lint");
  assert.match(items.get("t"), /npm run lint/);
  const again = new ApprovalBroker({ policy: {}, storage: localStorageTrustStorage("t", fake) });
  await again.ready;
  assert.equal(again.trust.list().length, 1);
  assert.throws(() => localStorageTrustStorage("t", undefined), { code: "STORAGE" });
});

test("a stand-alone TrustStore loads from its storage and saves after every change", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-trust-"));
  const file = join(dir, "trust.json");
  const first = new TrustStore({ storage: jsonFileTrustStorage(file), now: () => 1000 });
  await first.ready;
  const lint = first.grant({ rule: "Bash(npm run lint)", scope: "always" });
  first.grant({ rule: "Bash(npm test)", scope: "always", agent: "claude" });
  first.grant({ rule: "Write", scope: "session", sessionId: "s1" });
  first.setAgentBypass("copilot", true);
  await first.flushStorage();
  assert.deepEqual(readdirSync(dir), ["trust.json"], "no temp file is left");
  const saved = JSON.parse(readFileSync(file, "utf8"));
  assert.deepEqual(saved.grants.map((g) => g.rule), ["Bash(npm run lint)", "Bash(npm test)"], "session grants stay in memory");
  assert.deepEqual(saved.agents, { copilot: { bypass: true } });

  const second = new TrustStore({ storage: jsonFileTrustStorage(file), now: () => 2000 });
  await second.ready;
  assert.deepEqual(second.list().map((g) => g.rule).sort(), ["Bash(npm run lint)", "Bash(npm test)"]);
  assert.deepEqual(second.bypassAgents(), ["copilot"]);
  assert.equal(second.revoke(lint.id), true);
  second.setAgentBypass("copilot", false);
  await second.flushStorage();
  const after = JSON.parse(readFileSync(file, "utf8"));
  assert.deepEqual(after.grants.map((g) => g.rule), ["Bash(npm test)"]);
  assert.deepEqual(after.agents, {});

  // The document given as `trust` is replaced by the stored one once it loads.
  const third = new TrustStore({ storage: jsonFileTrustStorage(file), trust: first.export() });
  await third.ready;
  assert.deepEqual(third.list().map((g) => g.rule), ["Bash(npm test)"]);
});

test("a stand-alone TrustStore refuses a tampered or corrupt stored document and keeps its last good state", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-trust-"));
  const file = join(dir, "trust.json");
  const good = new TrustStore({ storage: jsonFileTrustStorage(file) });
  await good.ready;
  good.grant({ rule: "Bash(npm run lint)", scope: "always" });
  await good.flushStorage();
  const lastGood = good.export();
  const doc = JSON.parse(readFileSync(file, "utf8"));
  doc.grants[0].rule = "Bash(rm -rf *)"; // a hand edit: the checksum no longer fits
  const tampered = JSON.stringify(doc);

  for (const [text, code] of [[tampered, "TAMPERED"], ['{"version": 1, "grants": [', "INVALID_TRUST_DOCUMENT"], ['{"version": 7}', "UNSUPPORTED_VERSION"]]) {
    writeFileSync(file, text);
    const errors = [];
    const store = new TrustStore({ storage: jsonFileTrustStorage(file), trust: lastGood, onError: (e) => errors.push(e) });
    await assert.rejects(store.ready, (err) => err instanceof ToolgateError && err.code === code);
    assert.deepEqual(store.list().map((g) => g.rule), ["Bash(npm run lint)"], "the last good state stays");
    store.grant({ rule: "Bash(npm test)", scope: "always" });
    await store.flushStorage();
    assert.equal(readFileSync(file, "utf8"), text, "the bad document is left for inspection");
    assert.deepEqual(errors.map((e) => e.code), [code]);
  }
});

test("a stand-alone TrustStore reports failed loads and saves as STORAGE errors", async () => {
  const errors = [];
  const failing = {
    load: async () => null,
    save: async () => {
      throw new ToolgateError("STORAGE", "the disk is full", "", "free some space");
    },
  };
  const store = new TrustStore({ storage: failing, onError: (e) => errors.push(e.code) });
  await store.ready;
  store.grant({ rule: "Bash(npm run lint)", scope: "always" });
  await store.flushStorage();
  assert.deepEqual(errors, ["STORAGE"]);
  assert.equal(store.list().length, 1, "the grant holds in memory");

  const unreadable = { load: () => Promise.reject(new ToolgateError("STORAGE", "no disk", "", "mount it")), save: async () => assert.fail("never saves") };
  const loadErrors = [];
  const blind = new TrustStore({ storage: unreadable, onError: (e) => loadErrors.push(e.code) });
  await assert.rejects(blind.ready, { code: "STORAGE" });
  blind.grant({ rule: "Bash(npm test)", scope: "always" });
  await blind.flushStorage();
  assert.deepEqual(loadErrors, ["STORAGE"]);
});

test("a broker's trust store reports the broker's storage state", async () => {
  const items = new Map();
  const fake = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v) };
  const b = new ApprovalBroker({ policy: {}, storage: localStorageTrustStorage("t", fake) });
  await b.trust.ready;
  b.trust.grant({ rule: "Bash(npm run lint)", scope: "always" });
  await b.trust.flushStorage();
  assert.match(items.get("t"), /npm run lint/);
});
