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
const { ApprovalBroker, ToolgateError, jsonFileTrustStorage, localStorageTrustStorage } = api;

const bash = (command, sessionId = "s1") => ({ sessionId, request: { tool: "Bash", input: { command }, cwd: "/p" } });

async function approveAlways(broker, command) {
  const p = broker.requestApproval(bash(command));
  broker.respond(broker.pending()[0].id, { kind: "allow", scope: "always" });
  await p;
  await broker.flushStorage();
}

test("a JSON file keeps always grants across brokers, written atomically", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-trust-"));
  const file = join(dir, "trust.json");
  const first = new ApprovalBroker({ policy: {}, storage: jsonFileTrustStorage(file) });
  await first.ready;
  await approveAlways(first, "npm run lint");
  first.trust.setAgentBypass("copilot", true);
  await first.flushStorage();
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
    await b.flushStorage();
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
