// The packed tarball installed into a scratch project and used from Node ESM and CommonJS.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";

import { corpus, crateVersion } from "../corpus.mjs";
import { runNode, scratchProject } from "./scratch.mjs";

let dir;
let packed;
before(() => {
  ({ dir, packed } = scratchProject());
});

// The same probe in both module systems: every smoke export, printed as JSON.
const probe = (load) => `${load}
const out = { version: api.version(), defaults: {}, errors: {} };
for (const name of ${JSON.stringify(corpus.toolDefaults.map((c) => c.name))}) {
  try { out.defaults[name] = api.toolDefaults(name); }
  catch (err) { out.errors[name] = { isError: err instanceof Error, code: err.code }; }
}
console.log(JSON.stringify(out));
`;

const ADAPTERS = ["ai-sdk", "claude-agent-sdk", "copilot", "langchain", "mcp", "openai-agents"];

function expected() {
  const out = { version: crateVersion, defaults: {}, errors: {} };
  for (const c of corpus.toolDefaults) {
    if (c.defaults) out.defaults[c.name] = c.defaults;
    else out.errors[c.name] = { isError: true, code: c.error };
  }
  return out;
}

test("the tarball holds the package and nothing else", () => {
  // The approval card ships as written: every file of pkg-template/ui/.
  const uiFiles = readdirSync(new URL("../../../pkg-template/ui/", import.meta.url)).map((f) => `ui/${f}`);
  const files = packed.files.map((f) => f.path).sort();
  // The JS layer: one module per part, as ES modules in web/ and CommonJS in node/; `wire`
  // holds the wire types generated from the Rust types.
  const layer = [
    "acp", "bindings", "bridge", "broker", "call-directory", "callbacks", "errors", "import", "index", "json-file-storage", "policy", "storage",
    "tools-bindings", "trust", "types", "wasm-module",
    "wire",
  ];
  assert.deepEqual(files, [
    "README.md",
    "bin/inbox-cli.mjs",
    "bin/inbox-protocol.mjs",
    "bin/inbox-server.mjs",
    "bin/toolgate.mjs",
    "node/index.d.mts",
    "node/index.mjs",
    "node/toolgate.cjs",
    "node/toolgate.d.cts",
    "node/toolgate_bindgen.cjs",
    "package.json",
    "web/toolgate.d.ts",
    "web/toolgate.js",
    "web/toolgate_bindgen.js",
    // Each wasm ships once, in web/; Node's glue reads it from there.
    "web/toolgate_bg.wasm",
    // `toolgate/import` and the bin: the second wasm, its glue and its entries.
    "node/import.d.mts",
    "node/import.mjs",
    "node/import-node.cjs",
    "node/import-node.d.cts",
    "node/toolgate_tools_bindgen.cjs",
    "web/import-web.d.ts",
    "web/import-web.js",
    "web/toolgate_tools_bindgen.js",
    "web/toolgate_tools_bg.wasm",
    ...layer.flatMap((m) => [`web/${m}.js`, `web/${m}.d.ts`, `node/${m}.cjs`, `node/${m}.d.cts`]),
    // The framework adapters: ES modules only, shared by every entry.
    ...ADAPTERS.concat("gate").flatMap((m) => [`web/adapters/${m}.js`, `web/adapters/${m}.d.ts`]),
    ...uiFiles,
  ].sort());
});

test("the installed toolgate bin answers a hook on the wasm engine", () => {
  writeFileSync(join(dir, "policy.json"), JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }));
  const payload = JSON.stringify({
    session_id: "s",
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf build" },
  });
  const stdout = execFileSync(join(dir, "node_modules", ".bin", "toolgate"), ["hook", "--agent", "claude", "--policy", "policy.json"], {
    cwd: dir,
    input: payload,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      TOOLGATE_MANAGED_POLICY: join(dir, "no-managed-policy.json"),
      TOOLGATE_AUDIT_LOG: join(dir, "audit.jsonl"),
    },
  });
  const answer = JSON.parse(stdout).hookSpecificOutput;
  assert.equal(answer.permissionDecision, "deny");
  assert.match(answer.permissionDecisionReason, /rm \*/);
});

test("toolgate/import from ES modules and CommonJS", () => {
  const files = JSON.stringify([{ name: "a.rules", text: 'prefix_rule(pattern = ["ls"])\n' }]);
  writeFileSync(join(dir, "import.mjs"), `import { importPolicy } from "toolgate/import";
console.log(JSON.stringify(importPolicy("codex", ${files}).document));`);
  writeFileSync(join(dir, "import.cjs"), `const { importPolicy } = require("toolgate/import");
console.log(JSON.stringify(importPolicy("codex", ${files}).document));`);
  const esm = JSON.parse(runNode(dir, "import.mjs"));
  assert.deepEqual(JSON.parse(runNode(dir, "import.cjs")), esm);
  assert.ok(JSON.stringify(esm).includes("Bash(ls"));
});

test("every adapter subpath imports without its framework installed", () => {
  writeFileSync(join(dir, "adapters.mjs"), `const names = {};
for (const name of ${JSON.stringify(ADAPTERS)}) names[name] = Object.keys(await import(\`toolgate/\${name}\`)).sort();
console.log(JSON.stringify(names));`);
  assert.deepEqual(JSON.parse(runNode(dir, "adapters.mjs")), {
    "ai-sdk": ["gateTool", "gateTools"],
    "claude-agent-sdk": ["CLAUDE_HOOK_TIMEOUT_SECONDS", "createCanUseTool", "createPreToolUseHook", "createPreToolUseHookMatcher"],
    copilot: ["copilotCliArgs", "copilotDenials", "copilotToolRequest", "createCopilotPermissionHandler"],
    langchain: ["createLangChainGate"],
    mcp: ["createMcpGate"],
    "openai-agents": ["createAgentsGate"],
  });
});

test("import from an ES module", () => {
  writeFileSync(join(dir, "esm.mjs"), probe('import * as api from "toolgate";'));
  assert.deepEqual(JSON.parse(runNode(dir, "esm.mjs")), expected());
});

test("require from CommonJS", () => {
  writeFileSync(join(dir, "cjs.cjs"), probe('const api = require("toolgate");'));
  assert.deepEqual(JSON.parse(runNode(dir, "cjs.cjs")), expected());
});

test("the browser build from the ./web subpath with initSync", () => {
  writeFileSync(
    join(dir, "web.mjs"),
    probe(`import * as api from "toolgate/web";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const wasm = createRequire(import.meta.url).resolve("toolgate/toolgate_bg.wasm");
api.initSync({ module: readFileSync(wasm) });`),
  );
  assert.deepEqual(JSON.parse(runNode(dir, "web.mjs")), expected());
});
