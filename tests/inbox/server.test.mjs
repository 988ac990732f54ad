// The inbox server: nobody but the page it opened may answer (host, origin, tokens, sessions,
// bodies), answers are taken once, 200 waiting hooks are each answered exactly once, and a
// stopped inbox sends every waiting hook back to its agent's prompt.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { PKG, client, decisionOf, ensureNative, hook, load, payload, reasonOf, startToken, until, world } from "./support.mjs";

let mods;
let w;
before(async () => {
  ensureNative();
  mods = await load();
  w = world();
});
after(() => w?.cleanup());

const start = () => mods.server.startInbox({ socket: w.socket, env: w.env, engine: mods.engine });

/** A raw hook over the socket: sends `ask`, resolves to the reply line (or "" on close). */
function rawHook(socket, ask) {
  return new Promise((resolve) => {
    const c = connect(socket);
    let buf = "";
    c.setEncoding("utf8");
    c.on("connect", () => c.write(`${JSON.stringify(ask)}\n`));
    c.on("data", (d) => (buf += d));
    c.on("close", () => resolve(buf));
    c.on("error", () => resolve(buf));
  });
}

const askFor = (i) => ({
  protocol: "toolgate-inbox/1",
  type: "ask",
  agent: i % 2 ? "copilot" : "claude",
  event: "PreToolUse",
  project: "/p",
  session: `s${i}`,
  cwd: "/p",
  tool: "Bash",
  title: "Bash",
  description: `Execute command: echo ${i}`,
  subject: `echo ${i}`,
  label: `Bash(echo ${i})`,
  input: { command: `echo ${i}` },
  reason: "toolgate: `Bash` asks by default",
  decision: { effect: "ask", risk: "high", trustable: true, reason: { decider: { kind: "toolDefault", tool: "Bash" }, text: "`Bash` asks by default" } },
  rules: [`Bash(echo ${i})`],
  answers: ["allowOnce", "deny", "allowSession", "allowAlways"],
  editable: false,
  deadline: Date.now() + 60_000,
  pid: 1,
});

/** A raw HTTP request with any Host header (fetch will not send a forged one). */
function raw(port, { method = "GET", path = "/", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("the page is served on 127.0.0.1 with a strict CSP, no CORS, no secret in it, and sessions only from a start token", async () => {
  const inbox = await start();
  try {
    assert.match(inbox.url, /^http:\/\/127\.0\.0\.1:\d+\/#start=[\w-]{40,}$/);
    const c = await client(inbox, inbox.url);
    const page = await fetch(`${inbox.origin}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-security-policy"), /default-src 'none'; script-src 'self'/);
    assert.equal(page.headers.get("access-control-allow-origin"), null);
    assert.equal(page.headers.get("x-frame-options"), "DENY");
    assert.equal(page.headers.get("set-cookie"), null);
    const html = await page.text();
    assert.ok(!html.includes(c.session) && !html.includes(startToken(inbox.url)), "the HTML holds no secret");
    // No session: nothing.
    for (const path of ["/api/pending", "/api/trust", "/api/audit", "/api/events"]) {
      assert.equal((await fetch(`${inbox.origin}${path}`)).status, 403, path);
      assert.equal((await fetch(`${inbox.origin}${path}`, { headers: { "x-toolgate-session": "A".repeat(43) } })).status, 403, path);
    }
    assert.equal((await c.get("/api/pending")).status, 200);
    // A start token opens one session, once; a wrong one opens none.
    const open = (token, headers = {}) => fetch(`${inbox.origin}/api/session`, { method: "POST", headers: { origin: inbox.origin, "content-type": "application/json", ...headers }, body: JSON.stringify({ token }) });
    assert.equal((await open(startToken(inbox.url))).status, 403, "a used start token");
    assert.equal((await open("A".repeat(43))).status, 403);
    const fresh = startToken(inbox.startUrl());
    assert.equal((await open(fresh, { origin: "http://127.0.0.1:1" })).status, 403, "another origin");
    assert.equal((await open(fresh, { "content-type": "text/plain" })).status, 415);
    const opened = await open(fresh);
    assert.equal(opened.status, 200);
    assert.equal(opened.headers.get("set-cookie"), null);
    // A preflight gets no CORS answer.
    const pre = await fetch(`${inbox.origin}/api/answer`, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    assert.equal(pre.headers.get("access-control-allow-origin"), null);
  } finally {
    await inbox.close();
  }
});

test("a session left idle expires", async () => {
  const inbox = await mods.server.startInbox({ socket: w.socket, env: w.env, engine: mods.engine, idleMs: 200 });
  try {
    const c = await client(inbox);
    assert.equal((await c.get("/api/pending")).status, 200);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await c.get("/api/pending")).status, 200, "each request counts as use");
    await new Promise((r) => setTimeout(r, 350));
    const expired = await c.get("/api/pending");
    assert.equal(expired.status, 403);
    assert.match((await expired.json()).error, /expired/);
  } finally {
    await inbox.close();
  }
});

test("requests for another host are refused (DNS rebinding)", async () => {
  const inbox = await start();
  try {
    const c = await client(inbox);
    for (const host of ["evil.example", `evil.example:${inbox.port}`, "127.0.0.1", `127.0.0.1:${inbox.port + 1}`, `127.0.0.1.evil.example:${inbox.port}`]) {
      const r = await raw(inbox.port, { path: "/api/pending", headers: { host, "x-toolgate-session": c.session } });
      assert.equal(r.status, 421, `${host}: ${r.body}`);
    }
    const ok = await raw(inbox.port, { path: "/api/pending", headers: { host: `localhost:${inbox.port}`, "x-toolgate-session": c.session } });
    assert.equal(ok.status, 200);
  } finally {
    await inbox.close();
  }
});

test("answers need the session header, the origin, a pending approval the page was shown; once", async () => {
  const inbox = await start();
  try {
    const c = await client(inbox);
    const waiting = rawHook(w.socket, askFor(1));
    await until(() => inbox.pending().length === 1, 5000, "the approval");
    const id = inbox.pending()[0].id;
    const answer = { id, answer: { kind: "allow", scope: "once" } };
    // Not yet shown to this page.
    assert.equal((await c.post("/api/answer", answer)).status, 403);
    await c.get("/api/pending");
    assert.equal((await c.post("/api/answer", answer, { origin: "https://evil.example" })).status, 403);
    assert.equal((await c.post("/api/answer", answer, { origin: "null" })).status, 403);
    const noOrigin = await raw(inbox.port, { method: "POST", path: "/api/answer", headers: { host: `127.0.0.1:${inbox.port}`, "x-toolgate-session": c.session, "content-type": "application/json" }, body: JSON.stringify(answer) });
    assert.equal(noOrigin.status, 403);
    // Everything right but the session header: missing, empty, altered.
    const noSession = await raw(inbox.port, { method: "POST", path: "/api/answer", headers: { host: `127.0.0.1:${inbox.port}`, origin: inbox.origin, "content-type": "application/json" }, body: JSON.stringify(answer) });
    assert.equal(noSession.status, 403);
    assert.equal((await c.post("/api/answer", answer, { "x-toolgate-session": "" })).status, 403);
    // One character changed (a secret that already ends in "x" gets a "y"; replacing its "x" with "x" would change nothing).
    const altered = c.session.slice(0, -1) + (c.session.endsWith("x") ? "y" : "x");
    assert.equal((await c.post("/api/answer", answer, { "x-toolgate-session": altered })).status, 403);
    // Another session was not shown the approval.
    const other = await client(inbox);
    assert.equal((await other.post("/api/answer", answer)).status, 403);
    assert.equal((await c.post("/api/answer", answer, { "content-type": "text/plain" })).status, 415);
    assert.equal((await c.post("/api/answer", { id, answer: { kind: "allow", scope: "toolSession" } })).status, 400);
    assert.equal((await c.post("/api/answer", `{"id":"${id}","pad":"${"x".repeat(70_000)}"}`)).status, 413);
    assert.equal((await c.post("/api/answer", { id: "no-such-id", answer: answer.answer })).status, 404);
    const ok = await c.post("/api/answer", answer);
    assert.equal(ok.status, 200);
    assert.equal(await waiting, `${mods.protocol.replyLine({ kind: "allow", scope: "once" })}`);
    // Replayed: already settled.
    assert.equal((await c.post("/api/answer", answer)).status, 409);
    assert.equal((await other.post("/api/answer", answer)).status, 409);
  } finally {
    await inbox.close();
  }
});

test("200 hooks waiting at once are each answered exactly once", async () => {
  const inbox = await start();
  try {
    const c = await client(inbox);
    const n = 200;
    const replies = Array.from({ length: n }, (_, i) => rawHook(w.socket, askFor(i)));
    await until(() => inbox.pending().length === n, 20_000, `${n} approvals`);
    const list = await (await c.get("/api/pending")).json();
    assert.equal(list.length, n);
    assert.equal(new Set(list.map((p) => p.id)).size, n);
    // Every approval answered twice, concurrently: one 200 and one 409 each.
    const statuses = await Promise.all(
      list.flatMap((p, i) => {
        const answer = i % 3 === 0 ? { kind: "deny", message: `no ${p.sessionId}` } : { kind: "allow", scope: "once" };
        return [c.post("/api/answer", { id: p.id, answer }), c.post("/api/answer", { id: p.id, answer })];
      }),
    ).then((rs) => rs.map((r) => r.status));
    assert.equal(statuses.filter((s) => s === 200).length, n);
    assert.equal(statuses.filter((s) => s === 409).length, n);
    const lines = await Promise.all(replies);
    for (const [i, line] of lines.entries()) {
      assert.equal(line.split("\n").filter(Boolean).length, 1, `hook ${i} got ${JSON.stringify(line)}`);
      const answer = mods.protocol.parseReply(line.trim());
      if (answer.kind === "deny") assert.equal(answer.message, `no s${i}`);
    }
    assert.equal(inbox.pending().length, 0);
  } finally {
    await inbox.close();
  }
});

test("a stopped inbox sends real waiting hooks back to their agent's prompt, saying why", async () => {
  const inbox = await start();
  const claude = hook("claude", payload("claude-PreToolUse", w.proj), w.env);
  const copilot = hook("copilot", payload("copilot-preToolUse", w.proj), w.env);
  await until(() => inbox.pending().length === 2, 10_000, "two waiting hooks");
  await inbox.close();
  for (const out of await Promise.all([claude, copilot])) {
    assert.equal(decisionOf(out.stdout), "ask", out.stdout);
    assert.match(reasonOf(out.stdout), /the toolgate inbox was stopped/);
  }
  // A new inbox on the same socket path starts over the stale socket.
  const again = await start();
  await again.close();
});

test("a killed inbox (no goodbye) also sends waiting hooks to the prompt", async () => {
  const bin = join(PKG, "bin", "toolgate.mjs");
  const child = spawn(process.execPath, [bin, "inbox", "--socket", w.socket], { env: w.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  await until(() => out.includes("open http"), 10_000, "the inbox to start");
  const waiting = hook("claude", payload("claude-PreToolUse", w.proj), w.env);
  await new Promise((r) => setTimeout(r, 500));
  child.kill("SIGKILL");
  const answer = await waiting;
  assert.equal(decisionOf(answer.stdout), "ask", answer.stdout);
  assert.match(reasonOf(answer.stdout), /stopped before anyone answered|not running/);
});

test("the inbox removes only a stale socket of this user at its path, and never chmods a directory it does not own", async () => {
  const { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } = await import("node:fs");
  const { spawnSync } = await import("node:child_process");
  const startOn = (socket, env = w.env) => mods.server.startInbox({ socket, env, engine: mods.engine });

  // A regular file in a shared (0755) directory: refused for the directory, both left alone.
  const shared = join(w.root, "shared");
  mkdirSync(shared, { mode: 0o755 });
  chmodSync(shared, 0o755);
  const notes = join(shared, "notes.txt");
  writeFileSync(notes, "important data");
  await assert.rejects(startOn(notes), /has mode 755, so other users can reach the socket: run `chmod 700/);
  assert.equal(readFileSync(notes, "utf8"), "important data");
  assert.equal(statSync(shared).mode & 0o777, 0o755, "the directory keeps its mode");

  // In a private directory: a file, a directory and a symbolic link are not stale sockets.
  const mine = join(w.root, "mine");
  mkdirSync(mine, { mode: 0o700 });
  chmodSync(mine, 0o700);
  const file = join(mine, "file");
  writeFileSync(file, "keep");
  await assert.rejects(startOn(file), /is a regular file, not a stale inbox socket, so it is left alone/);
  assert.equal(readFileSync(file, "utf8"), "keep");
  mkdirSync(join(mine, "dir"));
  await assert.rejects(startOn(join(mine, "dir")), /is a directory, not a stale inbox socket/);
  symlinkSync(file, join(mine, "link"));
  await assert.rejects(startOn(join(mine, "link")), /is a symbolic link, not a stale inbox socket/);
  assert.equal(readFileSync(file, "utf8"), "keep");

  // The directory is not a directory.
  await assert.rejects(startOn(join(file, "inbox.sock")), /is a regular file, not a directory/);

  // A stale socket (its server exited without removing it) is replaced.
  const stale = join(mine, "stale.sock");
  const made = spawnSync(process.execPath, ["-e", `require("node:net").createServer().listen(${JSON.stringify(stale)}, () => process.exit(0))`]);
  assert.equal(made.status, 0, String(made.stderr));
  assert.ok(statSync(stale).isSocket());
  const inbox = await startOn(stale);
  await inbox.close();

  // A missing directory is created private.
  const fresh = join(w.root, "fresh", "run");
  const created = await startOn(join(fresh, "inbox.sock"));
  await created.close();
  assert.equal(statSync(fresh).mode & 0o777, 0o700);

  // The inbox's own default directory is made private again.
  const tmp = join(w.root, "tmp");
  const own = join(tmp, `toolgate-${process.getuid()}`);
  mkdirSync(own, { recursive: true });
  chmodSync(own, 0o755);
  const env = { ...w.env, TOOLGATE_INBOX_SOCKET: undefined, XDG_RUNTIME_DIR: undefined, TMPDIR: tmp };
  const byDefault = await mods.server.startInbox({ env, engine: mods.engine });
  await byDefault.close();
  assert.equal(statSync(own).mode & 0o777, 0o700);
});
