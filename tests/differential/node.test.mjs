// The wasm engine in Node decides the differential corpus exactly as the native engine did.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ROOT, loadCorpus, replay } from "./corpus.mjs";

test("wasm in Node agrees with native on every generated decision", async () => {
  const corpus = loadCorpus();
  const { PolicyEngine } = await import(new URL("pkg/node/index.mjs", ROOT));
  const { compared, mismatches } = replay(PolicyEngine, corpus);
  assert.deepEqual(mismatches, []);
  const expected = corpus.cases.reduce((n, c) => n + c.requests.length, 0);
  assert.equal(compared, expected);
  assert.ok(compared >= 1000, `only ${compared} decisions compared`);
});

test("the replay reports a decision that differs, and a policy that should not load", async () => {
  const corpus = loadCorpus();
  const { PolicyEngine } = await import(new URL("pkg/node/index.mjs", ROOT));
  const c = corpus.cases.find((x) => x.requests.length > 0 && x.error === undefined);
  const changed = structuredClone(c);
  changed.decisions[0].effect = changed.decisions[0].effect === "deny" ? "allow" : "deny";
  const broken = { policy: { permissions: { deny: ["Bash(rm"] } }, requests: [], error: "NOPE" };
  const { mismatches } = replay(PolicyEngine, { cases: [changed, broken] });
  assert.equal(mismatches.length, 2);
  assert.equal(mismatches[0].request, 0);
  assert.match(mismatches[1].got, /^INVALID_RULE/);
});
