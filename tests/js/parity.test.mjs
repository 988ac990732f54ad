// Fixture parity in Node: the package's decisions equal the native ones, file by file,
// through the Node entry and through the web entry (initSync).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { PKG, ROOT } from "./corpus.mjs";
import { compareDecisions } from "./parity.mjs";

// Written by `cargo test --test native_decisions` (the cargo-test suite runs first).
const dump = JSON.parse(readFileSync(new URL("target/native-decisions.json", ROOT), "utf8"));

test("Node entry: every fixture case equals the native decision", async () => {
  const api = await import(new URL("node/index.mjs", PKG));
  const { cases, files, mismatches } = compareDecisions(api, dump);
  assert.ok(files >= 10 && cases >= 100, `${files} files, ${cases} cases`);
  assert.deepEqual(mismatches, []);
});

test("web entry with initSync: every fixture case equals the native decision", async () => {
  const web = await import(new URL("web/toolgate.js", PKG));
  web.initSync(readFileSync(new URL("web/toolgate_bg.wasm", PKG)));
  assert.deepEqual(compareDecisions(web, dump).mismatches, []);
});
