// toolgate/copilot against the real Copilot CLI 1.0.102 and the scripted fake model.
// Path A: the Copilot SDK 1.0.14 (`@github/copilot-sdk`, installed under .cache/ on first
// use) runs the CLI as its runtime (and, as by default, its bundled runtime, CLI 1.0.85), and
// the adapter's permission handler answers every permission request. Path B: `copilot -p` with the arguments `copilotCliArgs` derives, and
// its denial lines read back by `copilotDenials`.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, test } from "node:test";

import { copilot } from "./drivers.mjs";
import { startFakeModel } from "./fake-model.mjs";
import { AGENTS_ROOT, PROMPT, agentBin, baseEnv, killAll, makeRun } from "./harness.mjs";
import { ApprovalBroker, POLICY, RUN_TIMEOUT_MS, adapter, installCached, person } from "./sdk.mjs";

const COPILOT_SDK = "@github/copilot-sdk@1.0.14";
const sdkDir = installCached(COPILOT_SDK);
const { CopilotClient, RuntimeConnection } = await import(
  pathToFileURL(join(sdkDir, "node_modules", "@github", "copilot-sdk", "dist", "index.js")).href
);
const COPILOT_RUNTIME = JSON.parse(
  readFileSync(join(sdkDir, "node_modules", "@github", "copilot-sdk", "package.json"), "utf8"),
).copilotCliVersion;
const { copilotCliArgs, copilotDenials, createCopilotPermissionHandler } = await adapter("copilot");

const MODEL = "gpt-5.4";
const timings = [];

function runtimeEnv(run, model) {
  return {
    ...baseEnv(run),
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_OFFLINE: "true",
    COPILOT_PKG_CACHE_HOME: join(AGENTS_ROOT, ".cache", "copilot-pkg"),
    COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_API_KEY: "dummy",
    COPILOT_PROVIDER_WIRE_API: "completions",
    COPILOT_MODEL: MODEL,
    // The CLI's Node writes a compile cache under TMPDIR, still busy as the run is removed.
    NODE_DISABLE_COMPILE_CACHE: "1",
  };
}

/**
 * One SDK session on the real CLI: the fake model calls `bash` with each of `commands` in
 * turn, the adapter's handler answers every permission request, `answer` is the person at
 * the broker's cards.
 */
async function runSdk(runtime, label, { commands, answer, timeoutMs }) {
  const run = makeRun("copilot-sdk");
  const model = await startFakeModel({ commands });
  const client = new CopilotClient({
    connection: RuntimeConnection.forStdio({ ...(runtime.path ? { path: runtime.path } : {}), env: runtimeEnv(run, model) }),
    workingDirectory: run.proj,
    baseDirectory: run.copilotHome,
    useLoggedInUser: false,
    logLevel: "none",
  });
  const started = performance.now();
  try {
    const broker = new ApprovalBroker({ policy: POLICY });
    const asked = person(broker, answer);
    const handler = createCopilotPermissionHandler({ broker, cwd: run.proj, ...(timeoutMs ? { timeoutMs } : {}) });
    const requests = [];
    const answers = [];
    await client.start();
    const session = await client.createSession({
      model: MODEL,
      provider: { type: "openai", baseUrl: `${model.url}/v1`, apiKey: "dummy", wireApi: "completions" },
      workingDirectory: run.proj,
      onPermissionRequest: async (request, invocation) => {
        requests.push(request);
        const result = await handler(request, invocation);
        answers.push(result);
        return result;
      },
    });
    const final = await session.sendAndWait({ prompt: PROMPT }, RUN_TIMEOUT_MS);
    await session.disconnect();
    const ms = Math.round(performance.now() - started);
    timings.push(`${runtime.name} ${label}: ${(ms / 1000).toFixed(1)} s, ${model.requests.length} model requests`);
    assert.equal(final?.data?.content, "Done.", "the session did not reach the model's final answer");
    const files = new Set(readdirSync(run.proj));
    return {
      ran: (file) => files.has(file),
      seen: model.conversation(),
      asked: asked.map((card) => card.input.command),
      requests,
      answers,
    };
  } finally {
    await client.stop().catch(() => client.forceStop());
    await model.close();
    killAll();
    run.cleanup();
  }
}

const allow = (scope = "once", editedInput) => ({ kind: "allow", scope, ...(editedInput ? { editedInput } : {}) });
const REJECTED = "The user rejected this tool call. User feedback: ";

/** The runtimes the SDK drives: the CLI the other agent tests run, and its own. */
const RUNTIMES = [
  { name: "the copilot CLI 1.0.102", path: agentBin("copilot") },
  { name: `its bundled runtime (CLI ${COPILOT_RUNTIME})` },
];

for (const runtime of RUNTIMES) {
  describe(`toolgate/copilot Path A: the Copilot SDK's permission handler on ${runtime.name}`, () => {
    const sdkRun = (label, options) => runSdk(runtime, label, options);

    after(() => {
      for (const line of timings.splice(0)) console.log(`# wall time ${line}`);
    });

    test("a denied call never runs, and the model reads toolgate's reason", async () => {
      const r = await sdkRun("deny", { commands: ["touch denied.txt"] });
      assert.equal(r.ran("denied.txt"), false, "the denied command ran");
      assert.deepEqual(r.requests.map((q) => [q.kind, q.fullCommandText]), [["shell", "touch denied.txt"]]);
      assert.ok(r.seen[0].startsWith(`${REJECTED}Permission denied: `), r.seen[0]);
      assert.match(r.seen[0], /`Bash\(touch denied\.txt\)`/);
      assert.deepEqual(r.asked, []);
    });

    test("an allowed call runs without asking anyone", async () => {
      const r = await sdkRun("allow", { commands: ["touch allowed.txt"] });
      assert.equal(r.ran("allowed.txt"), true, `the allowed command did not run; the model saw: ${r.seen}`);
      assert.deepEqual(r.answers, [{ kind: "approve-once" }]);
      assert.deepEqual(r.asked, []);
    });

    test("an edit cannot run through the SDK: the model is told the edit, and its new call is checked again", async () => {
      const r = await sdkRun("edit", {
        commands: ["touch first.txt", "touch second.txt", "touch edited.txt"],
        answer: (card) =>
          card.input.command === "touch first.txt"
            ? allow("once", { command: "touch denied.txt" })
            : card.input.command === "touch second.txt"
              ? allow("once", { command: "touch edited.txt" })
              : allow("once"),
      });
      assert.equal(r.ran("first.txt") || r.ran("denied.txt") || r.ran("second.txt"), false);
      assert.match(r.seen[0], /edited call is denied/, r.seen[0]);
      assert.ok(r.seen[1].startsWith(`${REJECTED}The user changed this call to {"command":"touch edited.txt"}`), r.seen[1]);
      // The model's new call is a new request: the person is asked about it again.
      assert.deepEqual(r.asked, ["touch first.txt", "touch second.txt", "touch edited.txt"]);
      assert.equal(r.ran("edited.txt"), true, `the edited call did not run; the model saw: ${r.seen}`);
    });

    test("a call approved for the session does not ask twice", async () => {
      const r = await sdkRun("session", { commands: ["touch session.txt", "touch session.txt"], answer: () => allow("session") });
      assert.equal(r.requests.length, 2, "Copilot did not ask both times");
      assert.deepEqual(r.asked, ["touch session.txt"], "the person was asked again");
      assert.deepEqual(r.answers, [{ kind: "approve-once", approvedInteractively: true }, { kind: "approve-once" }]);
      assert.equal(r.ran("session.txt"), true);
    });

    test("nobody answering in time rejects", async () => {
      const r = await sdkRun("timeout", { commands: ["touch late.txt"], timeoutMs: 300 });
      assert.deepEqual(r.asked, ["touch late.txt"]);
      assert.equal(r.ran("late.txt"), false, "a call nobody approved ran");
      assert.ok(r.seen[0].startsWith(REJECTED), r.seen[0]);
      assert.match(r.seen[0], /not approved in time/);
    });

    test("Copilot asks about read-only commands too: a denied read never runs", async () => {
      const r = await sdkRun("read", { commands: ["cat .env", "ls"], answer: () => allow("once") });
      assert.deepEqual(r.requests.map((q) => q.fullCommandText), ["cat .env", "ls"]);
      assert.match(r.seen[0], /Read\(\.\/\.env\)/, r.seen[0]);
      assert.deepEqual(r.asked, [], "ls is known to be harmless; cat .env is denied");
    });
  });
}

describe("toolgate/copilot Path B: copilot -p with copilotCliArgs", () => {
  after(() => killAll());

  const invoke = async (command, args) => {
    const run = makeRun("copilot-cli");
    const model = await startFakeModel({ command });
    try {
      copilot.prepare(run, model);
      const r = await copilot.invoke(run, model, { args });
      const files = new Set(readdirSync(run.proj));
      return { ...r, ran: (f) => files.has(f), seen: model.seen() };
    } finally {
      await model.close();
      killAll();
      run.cleanup();
    }
  };

  test("a shell grant is not passed (the CLI would run its program with any arguments); denies are; the denials are recognised", async () => {
    const grants = [{ id: "g1", rule: "Bash(touch *)", scope: "session", sessionId: "s1", createdAt: 0 }];
    const exact = copilotCliArgs({ grants, sessionId: "s1", policy: { permissions: { deny: ["Bash(touch denied.txt)"] } } });
    assert.deepEqual(exact.args, ["--deny-tool", "shell(touch denied.txt)"]);
    assert.deepEqual(exact.skipped.map((s) => s.rule), ["Bash(touch *)"]);

    // Not passed, so the CLI cannot ask under -p: the host sees the denial and asks through the broker.
    const ungranted = await invoke("touch ok.txt", exact.args);
    assert.equal(ungranted.ran("ok.txt"), false, "a shell call the CLI was not told about ran");
    assert.deepEqual(copilotDenials(ungranted.seen).map((d) => d.by), ["noUser"]);
    const denied = await invoke("touch denied.txt", exact.args);
    assert.equal(denied.ran("denied.txt"), false, "the denied call ran");
    assert.deepEqual(copilotDenials(denied.seen).map((d) => [d.by, d.reason]), [["rules", "`shell(touch denied.txt)`"]]);

    // The CLI reads `shell(touch denied.txt)` as that exact command: a prefix deny is widened.
    const prefix = copilotCliArgs({ grants, sessionId: "s1", policy: { permissions: { deny: ["Bash(touch denied.txt *)"] } } });
    assert.deepEqual(prefix.args.slice(0, 2), ["--deny-tool", "shell(touch)"]);
    const longer = await invoke("touch denied.txt other.txt", prefix.args);
    assert.equal(longer.ran("denied.txt"), false, "a call the prefix deny covers ran");
    assert.deepEqual(copilotDenials(longer.seen).map((d) => d.by), ["rules"]);
  });
});
