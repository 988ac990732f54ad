// `tsc --noEmit` over the published declarations, from a scratch project that installed the
// tarball: Node ESM (.mts) and CommonJS (.cts) resolve through the `node` conditions, a
// bundler-style project through `types`/`default`. `@ts-expect-error` lines prove that wrong
// shapes fail to compile (tsc reports an unused one as an error).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";

import { ROOT, scratchProject } from "./scratch.mjs";

const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
let dir;
before(() => {
  ({ dir } = scratchProject());
});

const usage = (load) => `${load}
const version: string = api.version();
const d: api.ToolDefaults = api.toolDefaults("Bash");
const level: "allow" | "prompt" | "deny" = d.level;
const trustable: boolean = d.trustable;
// @ts-expect-error a tool name is a string
api.toolDefaults(42);
// @ts-expect-error kinds are a closed set
const kind: "bogus" = d.kind;
// @ts-expect-error no such export
api.evaluateEverything();

const engine = new api.Policy({ permissions: { allow: ["Bash(npm test *)"] } });
const decision: api.Decision = engine.evaluate({ tool: "Bash", input: { command: "npm test" } });
const effect: "allow" | "ask" | "deny" = decision.effect;
const warnings: api.PolicyWarning[] = engine.warnings;
// @ts-expect-error permissions lists are arrays of strings
new api.Policy({ permissions: { allow: "Bash" } });
// @ts-expect-error a request names its tool
engine.evaluate({ input: {} });
const broker = new api.ApprovalBroker({ policy: engine, defaultTimeoutMs: 1000, now: () => 0 });
const outcome: Promise<api.ApprovalOutcome> = broker.requestApproval({
  sessionId: "s1",
  request: { tool: "Bash", input: { command: "git push" } },
});
const off: () => void = broker.onRequest((a: api.PendingApproval) => broker.respond(a.id, { kind: "allow", scope: "once" }));
// @ts-expect-error answers are tagged by kind
broker.respond("id", { kind: "maybe" });
// @ts-expect-error scopes are once, session or always
broker.respond("id", { kind: "allow", scope: "forever" });
// @ts-expect-error a call needs its sessionId
broker.requestApproval({ request: { tool: "Bash" } });
const grants: api.Grant[] = broker.trust.list();
const doc: api.TrustDocument = broker.trust.export();
const store = new api.TrustStore({ trust: doc });
store.grant({ rule: "Bash(npm run lint)", scope: "always" });
// @ts-expect-error grants are never once
store.grant({ rule: "Bash(npm run lint)", scope: "once" });
const stored = new api.TrustStore({ storage: { load: async () => null, save: async (_text: string) => {} }, onError: () => {} });
const loaded: Promise<void> = stored.ready;
const flushed: Promise<void> = stored.flushStorage();
// @ts-expect-error a storage saves too
new api.TrustStore({ storage: { load: async () => null } });
void loaded; void flushed;
const caught: unknown = null;
if (caught instanceof api.ToolgateError) {
  const code: api.ErrorCode = caught.code;
  // @ts-expect-error codes are a closed set
  const bogus: "NOPE" = caught.code;
  void code; void bogus;
}
// The wire types, generated from the Rust types (src/typescript.rs).
// @ts-expect-error effects are allow, ask or deny
const badEffect: api.Effect = "maybe";
// @ts-expect-error a decision needs its reason
const noReason: api.Decision = { effect: "allow", risk: "low", trustable: true };
// @ts-expect-error a rule decider names its list and layer
const halfDecider: api.Decider = { kind: "rule", rule: "Bash", index: 0 };
// @ts-expect-error modes are a closed set
new api.Policy({ defaultMode: "yolo" });
// @ts-expect-error policy documents reject unknown keys
new api.Policy({ permisions: { allow: ["Bash"] } });
// @ts-expect-error a layer names its source
new api.Policy({ layers: [{ permissions: { deny: ["Bash"] } }] });
const layered = new api.Policy({ layers: [{ source: "managed" }], mcpServers: { gh: {} } });
const request: api.ToolRequest = { tool: "Read", input: "not an object, still a request" };
const timed: api.ApprovalRequest = { sessionId: "s1", timeoutMs: 5, request };
// @ts-expect-error a timeout is a number of milliseconds
const badTimeout: api.ApprovalRequest = { sessionId: "s1", timeoutMs: "5s", request };
const onCard = (a: api.PendingApproval): void => {
  const created: number = a.createdAt;
  const callId: string | null = a.callId;
  // @ts-expect-error a pending approval's call id may be null
  const sure: string = a.callId;
  const preview: string | undefined = a.preview?.text;
  void created; void callId; void sure; void preview;
};
const onOutcome = (o: api.ApprovalOutcome): void => {
  const status: "approved" | "denied" | "expired" | "cancelled" = o.status;
  const feedback: api.ModelFeedback | null = o.feedback;
  // @ts-expect-error the scope is absent unless a person or a grant approved
  const scope: api.Scope = o.scope;
  void status; void feedback; void scope;
};
const onAudit = (e: api.AuditEvent): void => {
  const seq: number = e.seq;
  // @ts-expect-error audit kinds are decision, transition or grant
  const kind: "answer" = e.kind;
  void seq; void kind;
};
const v1: api.TrustDocument = { version: 1, grants: [{ rule: "Write", createdAt: 0 }], agents: {}, checksum: "sha256:00" };
const v0: api.TrustDocument = { version: 0, allow: ["Write"], checksum: "0".repeat(64) };
// @ts-expect-error trust documents are version 0 or 1
const v2: api.TrustDocument = { version: 2 };
// @ts-expect-error a version 1 document has a checksum
const unsummed: api.TrustDocument = { version: 1, grants: [], agents: {} };
// @ts-expect-error answers of kind deny take no scope
broker.respond("id", { kind: "deny", scope: "once" });
export { version, level, trustable, kind, effect, warnings, outcome, off, grants };
export { badEffect, noReason, halfDecider, layered, timed, badTimeout, onCard, onOutcome, onAudit, v1, v0, v2, unsummed };
`;

function tsc(name, compilerOptions, files) {
  const config = join(dir, `tsconfig.${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: "es2022",
        types: [],
        ...compilerOptions,
      },
      files,
    }),
  );
  try {
    execFileSync(process.execPath, [TSC, "-p", config], { cwd: dir, encoding: "utf8" });
  } catch (err) {
    assert.fail(`tsc -p tsconfig.${name}.json failed:\n${err.stdout}${err.stderr}`);
  }
}

test("Node ESM and CommonJS consumers type-check", () => {
  writeFileSync(join(dir, "esm.mts"), usage('import * as api from "toolgate";'));
  writeFileSync(join(dir, "cjs.cts"), usage('import api = require("toolgate");'));
  tsc("node", { module: "node16", moduleResolution: "node16", lib: ["es2022"] }, [
    "esm.mts",
    "cjs.cts",
  ]);
});

test("a browser or bundler consumer type-checks, with init and initSync", () => {
  writeFileSync(
    join(dir, "web.ts"),
    `${usage('import * as api from "toolgate";')}
import init, { initSync } from "toolgate";
import { TAG, type ToolgateApprovalCard } from "toolgate/ui/approval-card.js";
// The card takes the broker's pending approvals as they are, and its answers go back as they are.
export function show(broker: api.ApprovalBroker): void {
  const card: ToolgateApprovalCard = document.createElement(TAG);
  broker.onRequest((a) => { card.approval = a; });
  card.addEventListener("toolgate-answer", (e) => broker.respond(e.detail.id, e.detail.answer));
}
export async function start(bytes: ArrayBuffer): Promise<void> {
  await init();
  await init({ module_or_path: new URL("toolgate_bg.wasm", "https://example.invalid/") });
  initSync({ module: bytes });
}
`,
  );
  tsc("web", { module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"] }, [
    "web.ts",
  ]);
});

test("every framework adapter subpath type-checks, without the frameworks installed", () => {
  writeFileSync(
    join(dir, "adapters.ts"),
    `import { ApprovalBroker } from "toolgate";
import { gateTools, type AiSdkDenial } from "toolgate/ai-sdk";
import { createAgentsGate } from "toolgate/openai-agents";
import { createLangChainGate } from "toolgate/langchain";
import { createCanUseTool, createPreToolUseHook, type ClaudePermissionResult } from "toolgate/claude-agent-sdk";
import { copilotCliArgs, copilotDenials, createCopilotPermissionHandler } from "toolgate/copilot";
import { createMcpGate } from "toolgate/mcp";
const broker = new ApprovalBroker({ policy: {} });
const gate = { broker, sessionId: "s" };
const tools = gateTools({ echo: { execute: async (input: { text: string }) => input.text } }, gate);
const echoed: ((input: { text: string }) => Promise<string>) | undefined = tools.echo.execute;
// @ts-expect-error a gate needs its broker
gateTools({}, { sessionId: "s" });
const agents = createAgentsGate(gate);
const lc = createLangChainGate(gate);
const interruptOn = lc.interruptOn(["Bash"]);
const canUseTool = createCanUseTool(gate);
const result: Promise<ClaudePermissionResult> = canUseTool("Bash", { command: "ls" }, { toolUseID: "t" });
const hook = createPreToolUseHook(gate);
const handler = createCopilotPermissionHandler({ broker });
const { args, skipped } = copilotCliArgs({ grants: broker.trust.list() });
// @ts-expect-error the CLI's output is text
copilotDenials(42);
declare const client: Parameters<typeof createMcpGate>[0];
const mcp = createMcpGate(client, { ...gate, server: "github" });
let denial: AiSdkDenial | undefined;
export { echoed, agents, interruptOn, result, hook, handler, args, skipped, mcp, denial };
`,
  );
  writeFileSync(join(dir, "adapters.mts"), readFileSync(join(dir, "adapters.ts"), "utf8"));
  tsc("adapters", { module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"] }, ["adapters.ts"]);
  // The adapters are ES modules: Node consumers import them from ES modules.
  tsc("adapters-node", { module: "node16", moduleResolution: "node16", lib: ["es2022", "dom"] }, ["adapters.mts"]);
});

test("the published wire types are those the Rust types generate today", () => {
  // The generator run now, against the declarations the package was built with: a package
  // built before a change to the Rust wire types fails here.
  const fresh = execFileSync(
    "cargo",
    ["run", "--quiet", "--features", "typescript", "--bin", "toolgate-typescript"],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 24 },
  );
  const built = readFileSync(join(ROOT, "target", "typescript", "wire.ts"), "utf8");
  assert.equal(built, fresh, "pkg/ was built from other wire types: run scripts/build.sh");
  const names = (text) => [...text.matchAll(/^export type (\w+)/gm)].map((m) => m[1]).sort();
  assert.ok(names(fresh).length >= 50, `only ${names(fresh).length} wire types`);
  for (const published of ["web/wire.d.ts", "node/wire.d.cts"]) {
    const text = readFileSync(join(dir, "node_modules", "toolgate", published), "utf8");
    assert.deepEqual(names(text), names(fresh), published);
  }
});

// What the engine emits, collected at run time from the installed package, must type-check
// against the published declarations as object literals (so a field the engine writes but
// the types lack, a missing required field, or a wrong type fails).
const EMIT = `import * as api from "toolgate";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const out = { policies: [], requests: [], decisions: [], explanations: [], warnings: [], pending: [],
  outcomes: [], transitions: [], events: [], saved: [], grants: [], trust: [] };
for (const file of readdirSync(dir)) {
  const fx = JSON.parse(readFileSync(join(dir, file), "utf8"));
  let engine;
  try {
    engine = new api.Policy(fx.policy);
  } catch {
    continue;
  }
  out.policies.push(fx.policy);
  out.warnings.push(...engine.warnings);
  for (const c of fx.cases) {
    const request = { ...(fx.cwd ? { cwd: fx.cwd } : {}), ...(c.request ?? { tool: "Bash", input: { command: c.command } }) };
    if (c.mode) request.mode = c.mode;
    try {
      out.decisions.push(engine.evaluate(request));
      out.explanations.push(engine.explain(request));
      out.requests.push(request);
    } catch {}
  }
}
const broker = new api.ApprovalBroker({ policy: { permissions: { deny: ["Bash(rm *)"] } }, now: () => 1000 });
broker.onRequest((a) => out.pending.push(a));
broker.audit.onTransition((t) => out.transitions.push(t));
broker.audit.onEvent((e) => out.events.push(e));
const calls = [
  { sessionId: "s1", callId: "c1", request: { tool: "Bash", input: { command: "git push" }, cwd: "/p", agent: "claude" } },
  { sessionId: "s1", request: { tool: "Write", input: { file_path: "/p/a.txt", content: "hello" }, cwd: "/p" } },
  { sessionId: "s1", request: { tool: "Edit", input: { file_path: "/p/a.txt", old_string: "a", new_string: "b" }, cwd: "/p" } },
  { sessionId: "s1", request: { tool: "Bash", input: { command: "rm -rf build" }, cwd: "/p" } },
];
const promises = calls.map((c) => broker.requestApproval(c));
out.saved.push(broker.saved.save(out.pending[0].id));
broker.respond(out.pending[0].id, { kind: "allow", scope: "always" });
broker.respond(out.pending[1].id, { kind: "deny", message: "not there" });
broker.cancel(out.pending[2].id);
out.outcomes.push(...(await Promise.all(promises)));
out.grants.push(...broker.trust.list());
out.trust.push(broker.trust.export());
console.log(JSON.stringify(out));
`;

test("what the engine emits type-checks against the published declarations", () => {
  writeFileSync(join(dir, "emit.mjs"), EMIT);
  const emitted = JSON.parse(
    execFileSync(process.execPath, ["emit.mjs", join(ROOT, "tests", "corpus", "tables")], { cwd: dir, encoding: "utf8" }),
  );
  for (const [name, values] of Object.entries(emitted)) assert.ok(values.length > 0, `no ${name} emitted`);
  const kinds = new Set(emitted.decisions.map((d) => d.reason.decider.kind));
  assert.ok(kinds.size >= 5, `deciders seen: ${[...kinds]}`);
  assert.ok(emitted.pending.some((a) => a.diff !== null) && emitted.pending.some((a) => a.preview !== null));
  const types = {
    policies: "PolicyDocument", requests: "ToolRequest", decisions: "Decision", explanations: "Explanation",
    warnings: "PolicyWarning", pending: "PendingApproval", outcomes: "ApprovalOutcome", transitions: "Transition",
    events: "AuditEvent", saved: "SavedApproval", grants: "Grant", trust: "TrustDocument",
  };
  const lines = Object.entries(types).map(
    ([name, type]) => `export const ${name}: api.${type}[] = ${JSON.stringify(emitted[name], null, 1)};`,
  );
  writeFileSync(join(dir, "emitted.mts"), `import * as api from "toolgate";\n${lines.join("\n")}\n`);
  tsc("emitted", { module: "node16", moduleResolution: "node16", lib: ["es2022"] }, ["emitted.mts"]);
});

test("the published declarations never say `any`", () => {
  const files = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.d\.(ts|mts|cts)$/.test(entry.name)) files.push(p);
    }
  };
  walk(join(dir, "node_modules", "toolgate"));
  assert.ok(files.length >= 10, `found ${files.length} declaration files`);
  for (const file of files) {
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert.doesNotMatch(code, /\bany\b/, file);
  }
});
