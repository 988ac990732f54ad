// The inbox in a real browser (Chromium through playwright-core) while real native
// `toolgate hook` processes wait with captured Claude Code and Copilot CLI payloads: approve
// for the session and see the next identical call pass without asking; deny with a message
// and see it in the hook's answer; revoke the grant and see the next call ask again; stop the
// inbox and see waiting hooks fall back to ask. Screenshots go to tests/output/, with the time
// from a hook's start to its card on the page (inbox-timings.json).

import assert from "node:assert/strict";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { launchChromium } from "../browser/chromium.mjs";
import { ROOT, decisionOf, ensureNative, hook, load, payload, reasonOf, startToken, until, world } from "./support.mjs";

const OUT = join(ROOT, "tests", "output");
let mods;
let w;
let inbox;
let browser;
let page;
const problems = [];
const timings = [];

before(async () => {
  ensureNative();
  mods = await load();
  w = world();
  mkdirSync(OUT, { recursive: true });
  inbox = await mods.server.startInbox({ socket: w.socket, env: w.env, engine: mods.engine });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  // A recording stand-in for the Notification API (headless Chromium shows none).
  await context.addInitScript(() => {
    window.__notes = [];
    window.Notification = class {
      static permission = "granted";
      static requestPermission = async () => "granted";
      constructor(title, options) {
        window.__notes.push({ title, body: options?.body });
      }
    };
  });
  page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(inbox.url);
  await page.waitForSelector(".tgi-status:text('connected')");
});
after(async () => {
  await browser?.close();
  await inbox?.close();
  w?.cleanup();
});

const cards = (agent) => page.locator(`article.tgi-item[data-state="pending"]${agent ? `[data-agent="${agent}"]` : ""}`);

/** Starts a hook and resolves, once its card is on the page, to {item, done, ms}. */
async function ask(agent, name, change = {}) {
  const all = page.locator("article.tgi-item");
  const before = await all.count();
  const started = performance.now();
  const done = hook(agent, payload(name, w.proj, change), w.env, { deadlineMs: 20_000 });
  let ended = null;
  done.then((r) => (ended = r));
  await until(async () => (await all.count()) > before || ended, 15_000, `a card from ${agent}`);
  if (ended) throw new Error(`the hook answered without the inbox: ${JSON.stringify(ended)}`);
  const ms = performance.now() - started;
  timings.push({ agent, ms: Math.round(ms * 10) / 10 });
  return { item: cards(agent).first(), done, ms };
}

test("several agents' approvals are listed with where they come from", async () => {
  const claude = await ask("claude", "claude-PreToolUse");
  const copilot = await ask("copilot", "copilot-preToolUse");
  const other = await ask("claude", "claude-PreToolUse", { session_id: "second-session", tool_input: { command: "make deploy" } });
  assert.equal(await cards().count(), 3);
  const text = await cards("claude").filter({ hasText: "touch out.txt" }).locator("dl").innerText();
  assert.match(text, new RegExp(w.proj.replaceAll("/", "\\/")));
  assert.match(text, /preToolUse/i);
  assert.match(text, /Bash\(touch out\.txt\)/);
  assert.match(await copilot.item.locator("dl").innerText(), /copilot/);
  await page.screenshot({ path: join(OUT, "inbox-pending.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: join(OUT, "inbox-pending-dark.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // Approve Claude's call for the session.
  const card = cards("claude").filter({ hasText: "touch out.txt" });
  await card.getByLabel("Remember for this session").check();
  await card.getByRole("button", { name: "Allow", exact: true }).click();
  const first = await claude.done;
  assert.equal(decisionOf(first.stdout), "allow", first.stdout);
  // The next identical call passes without asking.
  const again = await hook("claude", payload("claude-PreToolUse", w.proj), w.env);
  assert.equal(decisionOf(again.stdout), "allow");
  assert.match(reasonOf(again.stdout), /remembered rule `Bash\(touch out\.txt\)`/);

  // Deny Copilot's call with a message.
  const ccard = cards("copilot");
  await ccard.getByLabel("Message to the agent if you deny (optional)").fill("use the Makefile target instead");
  await ccard.getByRole("button", { name: "Deny", exact: true }).click();
  const denied = await copilot.done;
  assert.equal(decisionOf(denied.stdout), "deny", denied.stdout);
  assert.match(denied.stdout, /use the Makefile target instead/);

  // The third stays pending until the inbox stops.
  globalThis.third = other;
});

test("another server on 127.0.0.1 the browser visits gets no credential, and cannot answer", async () => {
  // Another local user's development server, on another port of 127.0.0.1.
  const seen = [];
  const other = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { "content-type": "text/html" });
    res.end('<!doctype html><title>dev server</title><img src="/pixel.png">');
  });
  await new Promise((r) => other.listen(0, "127.0.0.1", r));
  const { done } = await ask("claude", "claude-PreToolUse", { session_id: "other-server", tool_input: { command: "make other-server" } });
  const item = cards("claude").filter({ hasText: "make other-server" });
  try {
    const secret = await page.evaluate((key) => sessionStorage.getItem(key), "toolgate-inbox-session");
    assert.match(secret ?? "", /^[\w-]{40,}$/, "the page holds its session in sessionStorage");
    assert.equal(await page.evaluate(() => location.hash), "", "the start token left the address");
    const visit = await page.context().newPage();
    await visit.goto(`http://127.0.0.1:${other.address().port}/`);
    await visit.close();
    assert.ok(seen.length >= 1);
    const sent = JSON.stringify(seen);
    for (const headers of seen) assert.equal(headers.cookie, undefined, `the browser sent ${headers.cookie}`);
    assert.ok(!sent.includes(secret) && !sent.includes(startToken(inbox.url)), sent);

    // What that server can do with what it saw: the page has no secret in it, and an answer
    // from the page's origin without the session header is refused.
    const html = await (await fetch(`${inbox.origin}/`, { headers: seen[0] })).text();
    assert.ok(!html.includes(secret), "the HTML holds no secret");
    const id = inbox.pending().find((p) => p.input.command === "make other-server").id;
    const forged = await fetch(`${inbox.origin}/api/answer`, {
      method: "POST",
      headers: { ...(seen[0].cookie ? { cookie: seen[0].cookie } : {}), origin: inbox.origin, "content-type": "application/json" },
      body: JSON.stringify({ id, answer: { kind: "allow", scope: "always" } }),
    });
    assert.equal(forged.status, 403);
    assert.equal(inbox.pending().some((p) => p.id === id), true, "still waiting");

    // The start address opens one page, once: opened again it gives no session.
    const again = await page.context().newPage();
    await again.goto(inbox.url);
    await again.waitForSelector(".tgi-status:text('already used')");
    await again.close();
  } finally {
    other.close();
    await item.getByRole("button", { name: "Deny", exact: true }).click();
  }
  assert.equal(decisionOf((await done).stdout), "deny");
});

test("the trust panel revokes the grant, and the next call asks again", async () => {
  await page.getByRole("button", { name: "Refresh" }).click();
  const row = page.locator("tr[data-grant]").filter({ hasText: "Bash(touch out.txt)" });
  await row.waitFor();
  await page.locator("#tgi-trust-h").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, "inbox-trust-audit.png"), fullPage: true });
  await row.getByRole("button", { name: /Revoke/ }).click();
  await row.waitFor({ state: "detached" });
  const next = await ask("claude", "claude-PreToolUse");
  const card = cards("claude").filter({ hasText: "touch out.txt" });
  await card.getByRole("button", { name: "Allow", exact: true }).click();
  const out = await next.done;
  assert.equal(decisionOf(out.stdout), "allow");
  assert.match(reasonOf(out.stdout), /allowOnce/);
});

test("allowing a tool for the session lets its next calls through, any arguments", async () => {
  const mcp = (title) => ({ session_id: "mcp-session", tool_name: "mcp__github__create_issue", tool_input: { title } });
  const first = await ask("claude", "claude-PreToolUse", mcp("first"));
  const card = cards("claude").filter({ hasText: "mcp__github__create_issue" });
  await card.getByLabel("Allow every mcp__github__create_issue call for this session").check();
  await card.getByRole("button", { name: "Allow", exact: true }).click();
  const out = await first.done;
  assert.equal(decisionOf(out.stdout), "allow", out.stdout);
  assert.match(reasonOf(out.stdout), /allowToolForSession/);
  const next = await hook("claude", payload("claude-PreToolUse", w.proj, mcp("second, other arguments")), w.env);
  assert.equal(decisionOf(next.stdout), "allow", next.stdout);
});

test("a new approval raises a notification while the page is in the background", async () => {
  await page.evaluate(() => Object.defineProperty(document, "hidden", { configurable: true, get: () => true }));
  const { done } = await ask("copilot", "copilot-preToolUse", { sessionId: "background" });
  const notes = await page.evaluate(() => window.__notes);
  assert.equal(notes.length, 1);
  assert.match(notes[0].title, /copilot asks: bash/);
  await page.evaluate(() => delete document.hidden);
  await cards("copilot").getByRole("button", { name: "Deny", exact: true }).click();
  assert.equal(decisionOf((await done).stdout), "deny");
});

test("the page names a call in the engine's words, shows every argument and where a linked directory leads", async () => {
  // A decoy `path` must not stand in for the `sql` an MCP call runs.
  const decoy = { session_id: "decoy", tool_name: "mcp__db__query", tool_input: { path: "README.md", sql: "DROP TABLE users" } };
  const mcp = await ask("claude", "claude-PreToolUse", decoy);
  const card = cards("claude").filter({ hasText: "mcp__db__query" });
  const description = await card.locator(".tg-description").innerText();
  assert.doesNotMatch(description, /README/);
  assert.match(description, /mcp__db__query/);
  assert.match(await card.locator(".tg-json").innerText(), /"sql": "DROP TABLE users"/);
  await card.getByRole("button", { name: "Deny", exact: true }).click();
  assert.equal(decisionOf((await mcp.done).stdout), "deny");

  // A long command, in a directory that is a link to the home directory.
  const vendor = join(w.proj, "vendor");
  symlinkSync(w.home, vendor);
  const command = `curl -d @report.json http://a/reports ${"-H 'Accept: */*' ".repeat(150)}http://b/x`;
  const long = await ask("claude", "claude-PreToolUse", { session_id: "linked", cwd: vendor, tool_input: { command } });
  const lcard = cards("claude").filter({ hasText: "http://b/x" });
  assert.equal(await lcard.locator(".tg-command pre").innerText(), command);
  assert.match(await lcard.locator(".tg-dangers").innerText(), /`http:\/\/b\/x`/);
  const where = await lcard.locator("dl").innerText();
  assert.ok(where.includes(`${vendor} → ${realpathSync(w.home)}`), where);
  await page.screenshot({ path: join(OUT, "inbox-long-command.png"), fullPage: true });
  await lcard.getByRole("button", { name: "Deny", exact: true }).click();
  assert.equal(decisionOf((await long.done).stdout), "deny");
});

test("the audit trail filters, in a panel that scrolls", async () => {
  await page.getByLabel("Filter by verdict").selectOption("deny");
  await until(async () => (await page.locator("tbody tr[data-verdict]").count()) > 0 && (await page.locator('tbody tr[data-verdict]:not([data-verdict="deny"])').count()) === 0, 5000, "filtered rows");
  const overflow = await page.locator(".tgi-scroll").last().evaluate((el) => getComputedStyle(el).overflow);
  assert.equal(overflow, "auto");
  await page.getByLabel("Filter by verdict").selectOption("");
});

test("time from a hook's start to its card, over ten calls", async () => {
  for (let i = 0; i < 10; i++) {
    const { done } = await ask("claude", "claude-PreToolUse", { session_id: `timing-${i}`, tool_input: { command: `make step${i}` } });
    await cards("claude").filter({ hasText: `make step${i}` }).getByRole("button", { name: "Deny", exact: true }).click();
    assert.equal(decisionOf((await done).stdout), "deny");
  }
  const ms = timings.map((t) => t.ms).sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)];
  const p90 = ms[Math.floor(ms.length * 0.9)];
  writeFileSync(join(OUT, "inbox-timings.json"), JSON.stringify({ median, p90, runs: timings }, null, 2));
  assert.ok(median < 2000, `median ${median} ms`);
});

test("stopping the inbox sends the waiting hook to the agent's prompt; the page says so", async () => {
  await inbox.close();
  const out = await globalThis.third.done;
  assert.equal(decisionOf(out.stdout), "ask");
  assert.match(reasonOf(out.stdout), /the toolgate inbox was stopped/);
  await page.waitForSelector(".tgi-status:text('disconnected')");
  assert.deepEqual(problems.filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(p)), []);
});
