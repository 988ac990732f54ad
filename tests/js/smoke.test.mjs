// The smoke exports of the built package (pkg/) through each of its entry points in Node:
// the ES module entry, the CommonJS build, and the browser build instantiated with initSync.
// Each entry runs the same checks, so new exports slot into `checks` once.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, test } from "node:test";

import { PKG, corpus, crateVersion } from "./corpus.mjs";

const require = createRequire(import.meta.url);

const entries = {
  "node ESM (node/index.mjs)": async () => import(new URL("node/index.mjs", PKG)),
  "node CommonJS (node/toolgate.cjs)": async () => require(new URL("node/toolgate.cjs", PKG).pathname),
  "web build with initSync (web/toolgate.js)": async () => {
    const web = await import(new URL("web/toolgate.js", PKG));
    web.initSync({ module: readFileSync(new URL("web/toolgate_bg.wasm", PKG)) });
    return web;
  },
};

const checks = {
  "version() is the crate version": (api) => {
    assert.equal(api.version(), crateVersion);
  },
  "toolDefaults() matches the corpus": (api) => {
    for (const c of corpus.toolDefaults) {
      if (c.defaults) {
        assert.deepEqual({ ...api.toolDefaults(c.name) }, c.defaults, c.name);
      } else {
        assert.throws(() => api.toolDefaults(c.name), { code: c.error }, c.name);
      }
    }
  },
  "errors are real Errors with code, path and hint": (api) => {
    let caught;
    try {
      api.toolDefaults("Nope");
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof Error, "an Error instance");
    assert.equal(caught.name, "ToolgateError");
    assert.equal(caught.code, "UNKNOWN_TOOL");
    assert.equal(caught.path, "");
    assert.match(caught.message, /unknown tool `Nope`/);
    assert.match(caught.hint, /bash/);
  },
};

for (const [entry, load] of Object.entries(entries)) {
  describe(entry, () => {
    for (const [name, check] of Object.entries(checks)) {
      test(name, async () => check(await load()));
    }
  });
}

test("ESM and CommonJS share one instance", async () => {
  const esm = await import(new URL("node/index.mjs", PKG));
  const cjs = require(new URL("node/toolgate.cjs", PKG).pathname);
  assert.equal(esm.toolDefaults, cjs.toolDefaults);
});

test("the manifest's exports point at files that exist", () => {
  const manifest = JSON.parse(readFileSync(new URL("package.json", PKG), "utf8"));
  assert.equal(manifest.version, crateVersion);
  // Only the approval card (a custom element that registers itself) has side effects.
  assert.ok(Array.isArray(manifest.sideEffects), "sideEffects lists files");
  assert.ok(manifest.sideEffects.every((p) => p.startsWith("./ui/")), "the engine has none");
  const targets = [];
  const walk = (v) => (typeof v === "string" ? targets.push(v) : Object.values(v).forEach(walk));
  walk(manifest.exports);
  assert.ok(targets.length >= 8);
  for (const t of targets) {
    assert.doesNotThrow(() => readFileSync(new URL(t, PKG)), t);
  }
});
