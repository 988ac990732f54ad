// toolgate/claude-agent-sdk in the real Claude Agent SDK's `query()` loop against the
// scripted fake model: the adapter's `canUseTool`, and its PreToolUse hook, decide every call
// the model makes. Two SDK versions: 0.2.44 (this directory's dependency; it runs its bundled
// Claude Code 2.1.44 under Node) and 0.3.331 (installed under .cache/ on first use, as its
// platform packages are not all on every registry; it runs Claude Code 2.1.331's native
// binary).

import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, test } from "node:test";

import { anthropicEnv } from "./drivers.mjs";
import { startFakeModel } from "./fake-model.mjs";
import { AGENTS_ROOT, PROMPT, killAll, makeRun } from "./harness.mjs";
import { ApprovalBroker, POLICY, RUN_TIMEOUT_MS, adapter, installCached, person } from "./sdk.mjs";

const { createCanUseTool, createPreToolUseHook, createPreToolUseHookMatcher } = await adapter("claude-agent-sdk");

const timings = [];

/** The SDK versions under test, each with the directory its package lives in. */
const SDKS = [
  { version: "0.2.44", dir: AGENTS_ROOT },
  { version: "0.3.331", dir: () => installCached("@anthropic-ai/claude-agent-sdk@0.3.331") },
];

async function loadSdk({ version, dir }) {
  const root = join(typeof dir === "function" ? dir() : dir, "node_modules", "@anthropic-ai", "claude-agent-sdk");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  assert.equal(pkg.version, version, "another version of the Claude Agent SDK is installed");
  const { query } = await import(pathToFileURL(join(root, "sdk.mjs")).href);
  return { query, claudeCode: pkg.claudeCodeVersion };
}

/**
 * One `query()` loop: the fake model calls `Bash` with each of `commands` in turn; `gate`
 * picks what toolgate is given to the SDK (`canUseTool`, `hook`, or both). `answer` is the
 * person at the broker's cards. Resolves to what ran and what the model was shown.
 */
async function runQuery(query, label, { commands, gate = ["canUseTool"], answer, timeoutMs, policy = POLICY, hookTimeoutSeconds, files: seed = {} }) {
  const run = makeRun("claude-sdk");
  const model = await startFakeModel({ commands });
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), RUN_TIMEOUT_MS);
  const started = performance.now();
  try {
    for (const [name, text] of Object.entries(seed)) writeFileSync(join(run.proj, name), text);
    const broker = new ApprovalBroker({ policy });
    const asked = person(broker, answer);
    const options = { broker, sessionId: "sdk-session", cwd: run.proj, ...(timeoutMs ? { timeoutMs } : {}) };
    const consulted = [];
    const canUseTool = createCanUseTool(options);
    let stderr = "";
    const messages = [];
    for await (const message of query({
      prompt: PROMPT,
      options: {
        cwd: run.proj,
        env: anthropicEnv(run, model),
        abortController: abort,
        stderr: (d) => (stderr += d),
        ...(gate.includes("canUseTool")
          ? { canUseTool: (name, input, o) => (consulted.push(input.command), canUseTool(name, input, o)) }
          : {}),
        ...(gate.includes("hook") ? { hooks: { PreToolUse: [preToolUse(options, hookTimeoutSeconds)] } } : {}),
      },
    })) {
      messages.push(message);
    }
    const ms = Math.round(performance.now() - started);
    timings.push(`${label}: ${(ms / 1000).toFixed(1)} s, ${model.requests.length} model requests`);
    const result = messages.find((m) => m.type === "result");
    assert.equal(result?.subtype, "success", `the loop did not end in a result: ${stderr.slice(-2000)}`);
    const files = new Set(readdirSync(run.proj));
    return {
      ran: (file) => files.has(file),
      seen: model.conversation(),
      asked: asked.map((card) => card.input.command),
      consulted,
      result,
    };
  } finally {
    clearTimeout(deadline);
    await model.close();
    killAll();
    run.cleanup();
  }
}

/**
 * The PreToolUse matcher: the adapter's, or (`timeoutSeconds`) the hook installed by hand in a
 * matcher with that timeout.
 */
function preToolUse(options, timeoutSeconds) {
  if (timeoutSeconds === undefined) return createPreToolUseHookMatcher(options);
  return { hooks: [createPreToolUseHook(options, { timeoutSeconds })], timeout: timeoutSeconds };
}

const allow = (scope = "once", editedInput) => ({ kind: "allow", scope, ...(editedInput ? { editedInput } : {}) });

for (const sdk of SDKS) {
  describe(`toolgate/claude-agent-sdk in the Claude Agent SDK ${sdk.version}'s query() loop`, async () => {
    const { query, claudeCode } = await loadSdk(sdk);
    const claudeRun = (label, options) => runQuery(query, `${sdk.version} (Claude Code ${claudeCode}) ${label}`, options);

    after(() => {
      for (const line of timings.splice(0)) console.log(`# wall time ${line}`);
    });

    test("canUseTool: a denied call never runs, and the model reads toolgate's reason", async () => {
      const r = await claudeRun("deny", { commands: ["touch denied.txt"] });
      assert.equal(r.ran("denied.txt"), false, "the denied command ran");
      assert.equal(r.seen.length, 1);
      assert.match(r.seen[0], /^Permission denied: .*`Bash\(touch denied\.txt\)`/, r.seen[0]);
      assert.deepEqual(r.asked, [], "a call the policy denies was shown to a person");
      assert.deepEqual(r.result.permission_denials.map((d) => d.tool_input.command), ["touch denied.txt"]);
    });

    test("canUseTool: an allowed call runs without asking anyone", async () => {
      const r = await claudeRun("allow", { commands: ["touch allowed.txt"] });
      assert.equal(r.ran("allowed.txt"), true, `the allowed command did not run; the model saw: ${r.seen}`);
      assert.deepEqual(r.asked, []);
    });

    test("canUseTool: a person's edit is checked by the policy again, and the edit is what runs", async () => {
      const r = await claudeRun("edit", {
        commands: ["touch first.txt", "touch second.txt"],
        answer: (card) =>
          allow("once", { command: card.input.command === "touch first.txt" ? "touch denied.txt" : "touch edited.txt" }),
      });
      assert.deepEqual(r.asked, ["touch first.txt", "touch second.txt"]);
      assert.equal(r.ran("first.txt") || r.ran("denied.txt"), false, "an edit the policy denies ran");
      assert.match(r.seen[0], /edited call is denied/, r.seen[0]);
      assert.equal(r.ran("second.txt"), false, "the original ran instead of the edit");
      assert.equal(r.ran("edited.txt"), true, `the approved edit did not run; the model saw: ${r.seen}`);
    });

    test("canUseTool: a call approved for the session does not ask twice", async () => {
      const r = await claudeRun("session", {
        commands: ["touch session.txt", "touch session.txt"],
        answer: () => allow("session"),
      });
      assert.deepEqual(r.consulted, ["touch session.txt", "touch session.txt"], "Claude Code did not ask both times");
      assert.deepEqual(r.asked, ["touch session.txt"], "the person was asked again");
      assert.equal(r.ran("session.txt"), true);
      assert.equal(r.seen.length, 2);
    });

    test("canUseTool: nobody answering in time denies", async () => {
      const r = await claudeRun("timeout", { commands: ["touch late.txt"], timeoutMs: 300 });
      assert.deepEqual(r.asked, ["touch late.txt"]);
      assert.equal(r.ran("late.txt"), false, "a call nobody approved ran");
      assert.match(r.seen[0], /not approved in time/, r.seen[0]);
    });

    test("canUseTool alone is not asked about what Claude Code allows by itself; the hook is", async () => {
      const files = { ".env": "TOKEN=secret-value\n" };
      const bare = await claudeRun("read, canUseTool only", { commands: ["cat .env"], files });
      assert.deepEqual(bare.consulted, [], "Claude Code now asks canUseTool about reads: update docs/adapters.md");
      assert.match(bare.seen[0], /secret-value/);

      const hooked = await claudeRun("read, hook", { commands: ["cat .env", "touch allowed.txt"], gate: ["hook", "canUseTool"], files });
      assert.doesNotMatch(hooked.seen.join("\n"), /secret-value/, "the denied read ran");
      // Claude Code 2.1.331 puts "PreToolUse:Bash hook error: " before a hook's reason.
      assert.match(hooked.seen[0], /Permission denied: .*Read\(\.\/\.env\)/, hooked.seen[0]);
      assert.equal(hooked.ran("allowed.txt"), true, "an allowed call did not run under the hook");
      assert.deepEqual(hooked.consulted, [], "the hook answered every call, canUseTool nothing");
    });

    // Claude Code runs a call whose hook timed out, and reads in the project need no canUseTool.
    test("PreToolUse hook: nobody answering before the matcher's timeout denies; the read does not run", async () => {
      const files = { ".env": "TOKEN=secret-value\n" };
      const r = await claudeRun("hook timeout", {
        commands: ["cat .env"], gate: ["hook", "canUseTool"], policy: {}, timeoutMs: 60_000, hookTimeoutSeconds: 5, files,
      });
      assert.deepEqual(r.asked, ["cat .env"]);
      assert.doesNotMatch(r.seen.join("\n"), /secret-value/, "the read ran after the hook's timeout");
      assert.match(r.seen[0], /not approved in time/, r.seen[0]);
    });

    test("PreToolUse hook: the approved edit runs, a denied edit does not, nobody answering denies", async () => {
      const r = await claudeRun("hook edit", {
        commands: ["touch first.txt", "touch second.txt", "touch late.txt"],
        gate: ["hook"],
        timeoutMs: 300,
        answer: (card) =>
          card.input.command === "touch late.txt"
            ? undefined
            : allow("once", { command: card.input.command === "touch first.txt" ? "touch denied.txt" : "touch edited.txt" }),
      });
      assert.deepEqual(r.asked, ["touch first.txt", "touch second.txt", "touch late.txt"]);
      assert.equal(r.ran("first.txt") || r.ran("denied.txt"), false, "an edit the policy denies ran");
      assert.match(r.seen[0], /edited call is denied/, r.seen[0]);
      assert.equal(r.ran("second.txt"), false, "the original ran instead of the edit");
      assert.equal(r.ran("edited.txt"), true, `the approved edit did not run; the model saw: ${r.seen}`);
      assert.equal(r.ran("late.txt"), false, "a call nobody approved ran");
      assert.match(r.seen[2], /not approved in time/, r.seen[2]);
    });
  });
}
