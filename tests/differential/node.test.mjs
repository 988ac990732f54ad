// The wasm engine in Node decides every case of the corpus and of the generated corpus
// exactly as the native engine did, and every corpus case meets its expectations: through
// the Node entry, and through the web entry given its bytes (initSync).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ROOT, loadCorpus, loadGenerated } from "./load.mjs";
import { replayCorpus, replayGenerated } from "./replay.mjs";

const nodeEntry = () => import(new URL("pkg/node/index.mjs", ROOT));

test("Node entry: every corpus case is decided as natively and meets its expectations", async (t) => {
  const corpus = loadCorpus();
  const result = replayCorpus(await nodeEntry(), corpus);
  t.diagnostic(`node: ${result.cases} cases in ${result.files} files decided in ${result.ms.toFixed(1)} ms`);
  assert.deepEqual(result.mismatches, []);
  assert.deepEqual(result.failures, []);
  assert.equal(result.cases, corpus.cases);
  assert.ok(result.files >= 20 && result.cases >= 1000, `${result.files} files, ${result.cases} cases`);
});

test("web entry with initSync: every corpus case is decided as natively", async () => {
  const web = await import(new URL("pkg/web/toolgate.js", ROOT));
  web.initSync(readFileSync(new URL("pkg/web/toolgate_bg.wasm", ROOT)));
  const result = replayCorpus(web, loadCorpus());
  assert.deepEqual(result.mismatches, []);
  assert.deepEqual(result.failures, []);
});

test("the corpus replay reports a decision that differs and an expectation that fails", async () => {
  const corpus = loadCorpus();
  const path = "benign.json";
  const one = { files: { [path]: structuredClone(corpus.files[path]) }, native: { [path]: structuredClone(corpus.native[path]) } };
  one.files[path].cases = one.files[path].cases.slice(0, 2);
  one.native[path] = one.native[path].slice(0, 2);
  one.native[path][0].effect = "deny";
  one.files[path].cases[1].expect = "deny";
  one.files[path].cases[1].danger = "publish";
  const { cases, mismatches, failures } = replayCorpus(await nodeEntry(), one);
  assert.equal(cases, 2);
  assert.equal(mismatches.length, 1);
  assert.match(mismatches[0], /^benign\.json: git status: got /);
  assert.deepEqual(failures.map((f) => f.replace(/ got .*/, "")), [
    "benign.json: git status -s: expected deny,",
    "benign.json: git status -s: expected the danger publish,",
  ]);
});

test("wasm in Node agrees with native on every generated decision", async () => {
  const generated = loadGenerated();
  const { Policy } = await nodeEntry();
  const { compared, mismatches } = replayGenerated(Policy, generated);
  assert.deepEqual(mismatches, []);
  const expected = generated.cases.reduce((n, c) => n + c.requests.length, 0);
  assert.equal(compared, expected);
  assert.ok(compared >= 1000, `only ${compared} decisions compared`);
});

test("the generated replay reports a decision that differs, and a policy that should not load", async () => {
  const generated = loadGenerated();
  const { Policy } = await nodeEntry();
  const c = generated.cases.find((x) => x.requests.length > 0 && x.error === undefined);
  const changed = structuredClone(c);
  changed.decisions[0].effect = changed.decisions[0].effect === "deny" ? "allow" : "deny";
  const broken = { policy: { permissions: { deny: ["Bash(rm"] } }, requests: [], error: "NOPE" };
  const { mismatches } = replayGenerated(Policy, { cases: [changed, broken] });
  assert.equal(mismatches.length, 2);
  assert.equal(mismatches[0].request, 0);
  assert.match(mismatches[1].got, /^INVALID_RULE/);
});
