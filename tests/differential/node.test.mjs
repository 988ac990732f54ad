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
