// The inbox protocol, Rust side (the native hook) against JavaScript side
// (pkg/bin/inbox-protocol.mjs): the hook's real request is checked by the JS parser, and
// every answer the JS side can write is read by the hook. Failures fall back to ask.

import assert from "node:assert/strict";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";

import { decisionOf, ensureNative, hook, load, payload, reasonOf, world } from "./support.mjs";

let protocol;
let w;
before(async () => {
  ensureNative();
  ({ protocol } = await load());
  w = world();
});
after(() => w?.cleanup());

/** A raw inbox: hands each request line to `respond`, which returns the reply text. */
async function rawInbox(respond, { mode = 0o700 } = {}) {
  mkdirSync(dirname(w.socket), { recursive: true, mode: 0o700 });
  chmodSync(dirname(w.socket), mode);
  const seen = [];
  const server = createServer((conn) => {
    let buf = "";
    conn.setEncoding("utf8");
    conn.on("data", (d) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      seen.push(line);
      const out = respond(line);
      if (out === null) conn.destroy();
      else if (out !== undefined) conn.end(out);
    });
  });
  await new Promise((r) => server.listen(w.socket, r));
  chmodSync(w.socket, 0o600);
  return { seen, close: () => new Promise((r) => server.close(r)) };
}

const claude = () => payload("claude-PreToolUse", w.proj);

test("the native hook's request is what the JS side parses, field for field", async () => {
  const inbox = await rawInbox(() => protocol.replyLine({ kind: "allow", scope: "once" }));
  const out = await hook("claude", claude(), w.env);
  await inbox.close();
  assert.equal(decisionOf(out.stdout), "allow", out.stdout);
  assert.equal(inbox.seen.length, 1);
  const ask = protocol.parseAsk(inbox.seen[0]);
  assert.deepEqual(Object.keys(JSON.parse(inbox.seen[0])).sort(), Object.keys(protocol.ASK_FIELDS).sort());
  assert.equal(ask.agent, "claude");
  assert.equal(ask.tool, "Bash");
  assert.equal(ask.project, w.proj);
  assert.deepEqual(ask.rules, ["Bash(touch out.txt)"]);
  assert.ok(ask.answers.includes("allowSession"));
  assert.ok(!ask.answers.includes("allowToolForSession"), "Bash is never trusted wholesale");
  assert.equal(ask.editable, true);
  assert.ok(ask.deadline > Date.now() - 60_000);
});

test("the ask shows what a call acts on: every key the agent sent and the directory it runs in", async () => {
  const inbox = await rawInbox(() => protocol.replyLine({ kind: "deny" }));
  const elsewhere = join(w.proj, "..", "elsewhere");
  const shell = { command: "rm -rf ./*", dir_path: elsewhere, description: "clean build outputs" };
  await hook("gemini", payload("gemini-BeforeTool", w.proj, { tool_input: shell }), w.env);
  const read = { file_path: join(w.proj, "README.md"), absolute_path: join(w.proj, "..", "home", ".ssh", "id_rsa") };
  await hook("gemini", payload("gemini-BeforeTool", w.proj, { tool_name: "read_file", tool_input: read }), w.env);
  await inbox.close();
  assert.equal(inbox.seen.length, 2);
  const [rm, cat] = inbox.seen.map((line) => protocol.parseAsk(line));
  assert.deepEqual(rm.input, shell);
  assert.equal(rm.cwd, elsewhere);
  assert.equal(rm.project, w.proj);
  assert.deepEqual(cat.input, read);
  assert.equal(cat.cwd, w.proj);
});

test("every answer the JS side writes is read by the hook", async () => {
  const cases = [
    [{ kind: "allow", scope: "once" }, "allow", /approved this call in the toolgate inbox \(allowOnce\)/],
    [{ kind: "deny", message: "use make instead" }, "deny", /denied this call in the toolgate inbox with this message: use make instead/],
    [{ kind: "deny" }, "deny", /denied this call in the toolgate inbox\./],
    [{ kind: "ask", reason: "the person chose the agent's own prompt" }, "ask", /the person chose the agent's own prompt/],
  ];
  for (const [answer, want, reason] of cases) {
    const inbox = await rawInbox(() => protocol.replyLine(answer));
    const out = await hook("claude", claude(), w.env);
    await inbox.close();
    assert.equal(decisionOf(out.stdout), want, JSON.stringify(answer));
    assert.match(reasonOf(out.stdout), reason);
  }
});

test("edited arguments reach Claude Code as updatedInput, and are decided again", async () => {
  let inbox = await rawInbox(() => protocol.replyLine({ kind: "allow", scope: "once", editedInput: { command: "touch other.txt" } }));
  let out = await hook("claude", claude(), w.env);
  await inbox.close();
  const v = JSON.parse(out.stdout).hookSpecificOutput;
  assert.equal(v.permissionDecision, "allow");
  assert.deepEqual(v.updatedInput, { command: "touch other.txt" });
  // A deny rule still wins over the person's edit.
  mkdirSync(join(w.proj, ".toolgate"), { recursive: true });
  writeFileSync(join(w.proj, ".toolgate", "policy.json"), JSON.stringify({ permissions: { deny: ["Bash(curl *)"] } }));
  inbox = await rawInbox(() => protocol.replyLine({ kind: "allow", scope: "once", editedInput: { command: "curl https://example.com" } }));
  out = await hook("claude", claude(), w.env);
  await inbox.close();
  rmSync(join(w.proj, ".toolgate"), { recursive: true });
  assert.equal(decisionOf(out.stdout), "deny", out.stdout);
  assert.match(reasonOf(out.stdout), /the edited call is denied/);
});

test("what goes wrong falls back to the agent's prompt, never to allow", async () => {
  const bad = [
    ["not JSON\n", /does not parse/],
    ['{"protocol":"toolgate-inbox/2","type":"answer","answer":{"kind":"allow","scope":"once"}}\n', /expected `toolgate-inbox\/1`/],
    [protocol.replyLine({ kind: "allow", scope: "toolSession" }), /was not offered/],
    [null, /stopped before anyone answered/],
  ];
  for (const [reply, why] of bad) {
    const inbox = await rawInbox(() => reply);
    const out = await hook("claude", claude(), w.env);
    await inbox.close();
    assert.equal(decisionOf(out.stdout), "ask", `${reply}: ${out.stdout}`);
    assert.match(reasonOf(out.stdout), why);
  }
  // No answer: the hook gives up before its own deadline and asks.
  const silent = await rawInbox(() => undefined);
  const out = await hook("claude", claude(), w.env, { deadlineMs: 1200 });
  await silent.close();
  assert.equal(decisionOf(out.stdout), "ask", out.stdout);
  assert.match(reasonOf(out.stdout), /no answer in the toolgate inbox in time/);
  assert.ok(out.ms < 1200 + 1500, `${out.ms} ms`);
});

test("a socket in a directory others can open is not used", async () => {
  const inbox = await rawInbox(() => protocol.replyLine({ kind: "allow", scope: "once" }), { mode: 0o755 });
  const out = await hook("claude", claude(), w.env);
  await inbox.close();
  assert.equal(inbox.seen.length, 0);
  assert.equal(decisionOf(out.stdout), "ask");
  assert.match(reasonOf(out.stdout), /mode 0700/);
});

test("without an inbox the hook asks as before, and says nothing about it", async () => {
  const out = await hook("claude", claude(), w.env);
  assert.equal(decisionOf(out.stdout), "ask");
  assert.doesNotMatch(reasonOf(out.stdout), /inbox/);
  const off = await hook("claude", claude(), { ...w.env, TOOLGATE_INBOX: "off" });
  assert.equal(decisionOf(off.stdout), "ask");
});

test("the JS parser refuses malformed requests and answers that were not offered", () => {
  assert.throws(() => protocol.parseAsk("{}"), TypeError);
  assert.throws(() => protocol.parseAsk("nope"), /not JSON/);
  const ask = { answers: ["allowOnce", "deny"], editable: false };
  assert.throws(() => protocol.checkAnswer(ask, { kind: "allow", scope: "session" }), /not offered/);
  assert.throws(() => protocol.checkAnswer(ask, { kind: "allow", scope: "once", editedInput: {} }), /not offered/);
  assert.throws(() => protocol.checkAnswer(ask, { kind: "yes" }), /unknown answer kind/);
  assert.deepEqual(protocol.checkAnswer(ask, { kind: "deny", message: "m" }), { kind: "deny", message: "m" });
});

test("the npm package's hook asks the inbox too, offering once and deny", async () => {
  let inbox = await rawInbox(() => protocol.replyLine({ kind: "allow", scope: "once" }));
  let out = await hook("claude", claude(), w.env, { npm: true });
  await inbox.close();
  assert.equal(decisionOf(out.stdout), "allow", out.stdout + out.stderr);
  const ask = protocol.parseAsk(inbox.seen[0]);
  assert.deepEqual(ask.answers, ["allowOnce", "deny"]);
  assert.ok(ask.pid > 0);
  inbox = await rawInbox(() => protocol.replyLine({ kind: "deny", message: "not now" }));
  out = await hook("copilot", payload("copilot-preToolUse", w.proj), w.env, { npm: true });
  await inbox.close();
  assert.equal(decisionOf(out.stdout), "deny", out.stdout);
  assert.match(out.stdout, /not now/);
  inbox = await rawInbox(() => protocol.replyLine({ kind: "allow", scope: "session" }));
  out = await hook("claude", claude(), w.env, { npm: true });
  await inbox.close();
  assert.equal(decisionOf(out.stdout), "ask", out.stdout);
  assert.match(reasonOf(out.stdout), /was not offered/);
  inbox = await rawInbox(() => null);
  out = await hook("claude", claude(), w.env, { npm: true });
  await inbox.close();
  assert.equal(decisionOf(out.stdout), "ask", out.stdout);
  assert.match(reasonOf(out.stdout), /stopped before anyone answered/);
  out = await hook("claude", claude(), w.env, { npm: true });
  assert.equal(decisionOf(out.stdout), "ask");
  assert.doesNotMatch(reasonOf(out.stdout), /inbox/);
});
