// importPolicy / exportPolicy in the built package (pkg/) in Node, from `toolgate/import` on
// the second wasm: an agent's files become a policy document that Policy accepts, bad
// input is a ToolgateError at file:line, and an export reports what the agent cannot express.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

import { PKG } from "./corpus.mjs";

const main = await import(new URL("node/index.mjs", PKG));
const { Policy, ToolgateError } = main;
const { exportPolicy, importPolicy } = await import(new URL("node/import.mjs", PKG));

const CODEX = `prefix_rule(
    pattern = ["git", ["push", "fetch"]],
    decision = "prompt",
)
prefix_rule(pattern = ["git", "reset", "--hard"], decision = "forbidden")
prefix_rule(pattern = ["ls"])
`;

const call = (command) => ({ tool: "Bash", input: { command }, cwd: "/home/ada/proj" });

test("codex rules import into a policy that decides like Codex", () => {
  const { document, warnings } = importPolicy("codex", [{ name: "default.rules", text: CODEX }]);
  assert.deepEqual(warnings, []);
  const engine = new Policy(document);
  assert.equal(engine.evaluate(call("git push origin main")).effect, "ask");
  assert.equal(engine.evaluate(call("git reset --hard")).effect, "deny");
  assert.equal(engine.evaluate(call("ls -la")).effect, "allow");
  const hit = engine.explain(call("git reset --hard")).rules.find((r) => r.matched);
  assert.equal(hit.provenance.file, "default.rules");
  assert.equal(hit.provenance.line, 5);
});

test("approximations are warnings, and errors with strict", () => {
  const files = [{
    name: "settings.json",
    text: JSON.stringify({ agent: { tool_permissions: { tools: { terminal: {
      always_allow: [{ pattern: "cargo" }],
    } } } } }),
  }];
  const { warnings } = importPolicy("zed", files);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].code, "IMPORT_APPROXIMATED");
  assert.throws(() => importPolicy("zed", files, { strict: true }), (e) =>
    e instanceof ToolgateError && e.code === "INVALID_POLICY" && e.path === "settings.json:1");
});

test("bad input names the file and line", () => {
  assert.throws(
    () => importPolicy("codex", [{ name: "a.rules", text: "prefix_rule(pattern = [\"ls\"])\nx = 1\n" }]),
    (e) => e instanceof ToolgateError && e.code === "INVALID_POLICY" && e.path === "a.rules:2",
  );
  assert.throws(() => importPolicy("cursor", []), (e) => e.code === "INVALID_REQUEST");
});

test("export writes the agent's format and reports what it cannot express", () => {
  const policy = { permissions: { allow: ["Bash(git status *)", "Read(src/**)"], deny: ["Bash(rm -rf *)"] } };
  const { text, warnings } = exportPolicy("codex", policy);
  assert.match(text, /pattern = \["git", "status"\], decision = "allow"/);
  assert.match(text, /pattern = \["rm", "-rf"\], decision = "forbidden"/);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].path, "permissions.allow[1]");
  const again = importPolicy("codex", [{ name: "x.rules", text }]);
  assert.equal(new Policy(again.document).evaluate(call("rm -rf build")).effect, "deny");
});

test("import and export live in the second wasm, not in the main entry", () => {
  assert.equal(main.importPolicy, undefined);
  assert.equal(main.exportPolicy, undefined);
  const core = readFileSync(new URL("web/toolgate_bindgen.js", PKG), "utf8");
  assert.doesNotMatch(core, /importPolicy|exportPolicy|runHook/);
});

test("CommonJS require of toolgate/import", () => {
  const cjs = createRequire(import.meta.url)(new URL("node/import-node.cjs", PKG).pathname);
  const { document } = cjs.importPolicy("codex", [{ name: "a.rules", text: CODEX }]);
  assert.equal(new Policy(document).evaluate(call("ls")).effect, "allow");
});

test("the web build of toolgate/import initialises its own wasm", async () => {
  const web = await import(new URL("web/import-web.js", PKG));
  assert.throws(() => web.importPolicy("codex", []), (e) => e.code === "NOT_INITIALIZED");
  web.initSync(readFileSync(new URL("web/toolgate_tools_bg.wasm", PKG)));
  const { document } = web.importPolicy("codex", [{ name: "a.rules", text: CODEX }]);
  assert.equal(new Policy(document).evaluate(call("git reset --hard")).effect, "deny");
});
