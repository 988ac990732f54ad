// The chat demo end to end: the scripted agent's calls answered by mouse and by keyboard,
// session trust skipping the second card, the auto-deny countdown, a denial's message reaching
// the model, batches, screenshots and the timings measured in the page.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";

import { KEY_GUARD_MS, OUTPUT, launch, pendingCard } from "./demo.mjs";

/** @type {Awaited<ReturnType<typeof launch>>} */
let env;
/** Timings gathered from every page, written to tests/output/demo-timings.json. */
const timings = { requestToCard: [], requestToFrame: [], answerToResolve: [] };

before(async () => (env = await launch()));
after(async () => {
  writeTimings();
  await env?.close();
});

function writeTimings() {
  if (timings.requestToCard.length === 0) return;
  const summary = Object.fromEntries(
    Object.entries(timings).map(([name, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
      return [name, { n: sorted.length, median: round(at(0.5)), p95: round(at(0.95)), max: round(sorted.at(-1)) }];
    }),
  );
  writeFileSync(`${OUTPUT}demo-timings.json`, `${JSON.stringify({ summary, samples: timings }, null, 2)}\n`);
  console.log(`demo timings (ms): ${JSON.stringify(summary)}`);
}

const round = (/** @type {number | undefined} */ x) => (x === undefined ? null : Math.round(x * 10) / 10);

async function collectTimings(page) {
  const t = await page.evaluate(() => window.demo.timings);
  for (const key of Object.keys(timings)) timings[key].push(...t[key]);
}

/**
 * Answers every card the agent shows, one plan entry per tool, until the agent is done.
 * Returns the tools in the order their cards were answered.
 *
 * @param {import("playwright-core").Page} page
 * @param {Record<string, (card: import("playwright-core").Locator) => Promise<void>>} plan
 */
async function answerAll(page, plan) {
  const seen = [];
  for (;;) {
    const handle = await page.waitForFunction(
      () =>
        document.body.dataset.agent === "done"
          ? "done"
          : document.querySelector('toolgate-approval-card:not([data-state="settled"]):not([data-state="answered"])')?.getAttribute("data-tool") ?? false,
      undefined,
      { timeout: 20_000, polling: 50 },
    );
    const tool = await handle.jsonValue();
    if (tool === "done") return seen;
    const key = tool.startsWith("mcp__") ? "mcp" : tool;
    const action = plan[key];
    assert.ok(action, `no plan for a card of ${tool} (seen: ${seen.join(", ")})`);
    seen.push(key);
    await action(pendingCard(page, tool));
  }
}

const allow = (card) => card.getByRole("button", { name: "Allow", exact: true }).click();
const deny = (card) => card.getByRole("button", { name: "Deny", exact: true }).click();

/** The chat lines that report outcomes, as `{ status, by, code, text }`. */
async function outcomes(page) {
  return page.locator("#chat-log .msg[data-status]").evaluateAll((lines) =>
    lines.map((line) => ({ status: line.dataset.status, by: line.dataset.by, code: line.dataset.code, text: line.textContent })),
  );
}

describe("the scripted agent, answered", () => {
  test("by mouse: once, session, always, deny with a message, allow all, deny", async () => {
    const { page, problems, context } = await env.open("demo/?pace=0&session=mouse");
    const seen = await answerAll(page, {
      Edit: async (card) => {
        await card.getByLabel("Remember for this session").check();
        await allow(card);
      },
      Write: allow,
      Bash: async (card) => {
        await card.getByLabel("Message to the agent if you deny (optional)").fill("do not pipe curl into sh; run npm test alone");
        await deny(card);
      },
      Read: (card) => card.getByRole("button", { name: "Allow all" }).click(),
      mcp: deny,
      Delete: deny,
      WebFetch: async (card) => {
        await card.getByLabel("Always allow (saved rule)").check();
        await allow(card);
      },
    });
    // Every kind of call that asks showed a card, the untrusted MCP server's tool too.
    assert.deepEqual([...new Set(seen)], ["Write", "Edit", "Bash", "Read", "mcp", "Delete", "WebFetch"]);
    // The second Edit was skipped: the session grant from the first card allowed it.
    assert.equal(seen.filter((t) => t === "Edit").length, 1, `cards answered: ${seen}`);
    const lines = await outcomes(page);
    assert.ok(lines.some((l) => l.status === "approved" && l.by === "trust"), JSON.stringify(lines));
    assert.ok(lines.filter((l) => l.by === "policy" && l.status === "approved").length >= 2, "the reads ran without asking");
    // The denial with a message reached the model-facing line.
    const denied = lines.find((l) => l.code === "USER_DENIED" && l.text.includes("do not pipe curl into sh"));
    assert.ok(denied, `no model message quoting the denial: ${JSON.stringify(lines)}`);
    // Both batched reads were approved by one Allow all.
    assert.equal(seen.filter((t) => t === "Read").length, 1);
    assert.equal(await page.locator('toolgate-approval-card[data-tool="Read"][data-status="approved"]').count(), 2);
    // Records left by the cards.
    assert.match(await page.locator('toolgate-approval-card[data-tool="Edit"]').innerText(), /^Allowed for this session: Edit\(src\/app\.ts\)/);
    assert.match(await page.locator('toolgate-approval-card[data-tool="WebFetch"]').innerText(), /^Always allowed: WebFetch/);
    // The trust panel lists the session grant and the saved one; Clear session drops only the first.
    await page.locator('#grants li[data-scope="session"]').first().waitFor();
    assert.ok(await page.locator('#grants li[data-scope="always"]').count() >= 1);
    await page.getByRole("button", { name: "Clear session" }).click();
    assert.equal(await page.locator('#grants li[data-scope="session"]').count(), 0);
    assert.ok(await page.locator('#grants li[data-scope="always"]').count() >= 1);
    await collectTimings(page);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("by keyboard: Enter, Escape with a message, Alt+Escape, remember by Space", async () => {
    const { page, problems, context } = await env.open("demo/?pace=0&session=keys");
    const press = async (card, key) => {
      await card.focus();
      await page.waitForTimeout(KEY_GUARD_MS);
      await page.keyboard.press(key);
    };
    const seen = await answerAll(page, {
      Edit: async (card) => {
        await card.getByLabel("Remember for this session").focus();
        await page.keyboard.press("Space");
        await page.waitForTimeout(KEY_GUARD_MS);
        await page.keyboard.press("Enter");
      },
      Write: (card) => press(card, "Enter"),
      Bash: async (card) => {
        await card.getByLabel("Message to the agent if you deny (optional)").focus();
        await page.keyboard.type("not piped into a shell");
        await page.keyboard.press("Escape");
      },
      Read: (card) => press(card, "Alt+Escape"),
      mcp: (card) => press(card, "Escape"),
      Delete: (card) => press(card, "Escape"),
      WebFetch: (card) => press(card, "Enter"),
    });
    assert.equal(seen.filter((t) => t === "Edit").length, 1, `cards answered: ${seen}`);
    const lines = await outcomes(page);
    assert.ok(lines.some((l) => l.code === "USER_DENIED" && l.text.includes("not piped into a shell")), JSON.stringify(lines));
    assert.equal(await page.locator('toolgate-approval-card[data-tool="Read"][data-status="denied"]').count(), 2);
    assert.match(await page.locator('toolgate-approval-card[data-tool="Write"]').innerText(), /^Allowed once: Write\(src\/app\.test\.ts\)/);
    await collectTimings(page);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("a batch: Allow all by keyboard, Deny all by mouse", async () => {
    const { page, problems, context } = await env.open("demo/?autostart=0&session=batch");
    const ask = () =>
      page.evaluate(() => {
        const calls = ["/tmp/a.log", "/tmp/b.log"].map((file_path, i) => ({
          sessionId: "batch",
          callId: `b-${Math.random()}-${i}`,
          request: { tool: "Read", input: { file_path }, cwd: "/home/ada/shop" },
        }));
        for (const call of calls) window.demo.chat.asking(call.callId);
        window.results = Promise.all(window.demo.broker().requestApprovals(calls).map((p) => p.then((o) => (window.demo.chat.settle(o), o.status))));
      });
    await ask();
    const first = pendingCard(page, "Read");
    await first.getByRole("button", { name: "Allow all" }).waitFor();
    await first.focus();
    await page.waitForTimeout(KEY_GUARD_MS);
    await page.keyboard.press("Alt+Enter");
    assert.deepEqual(await page.evaluate(() => window.results), ["approved", "approved"]);
    await ask();
    await pendingCard(page, "Read").getByRole("button", { name: "Deny all" }).click();
    assert.deepEqual(await page.evaluate(() => window.results), ["denied", "denied"]);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

test("the auto-deny countdown expires and the model is told", async () => {
  const { page, problems, context } = await env.open("demo/?pace=0&timeout=1500&session=late");
  const card = pendingCard(page, "Write");
  await card.waitFor();
  assert.match(await card.innerText(), /Auto-deny in 0:0\d/);
  const line = page.locator('#chat-log .msg[data-status="expired"]').first();
  await line.waitFor({ timeout: 10_000 });
  assert.equal(await line.getAttribute("data-code"), "APPROVAL_TIMEOUT");
  assert.equal(await line.getAttribute("data-by"), "timeout");
  assert.match(await page.locator('toolgate-approval-card[data-tool="Write"]').innerText(), /^Timed out — denied automatically: Write\(src\/app\.test\.ts\)/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("request → card and click → resolved, measured in the page", async () => {
  const { page, problems, context } = await env.open("demo/?autostart=0&session=timing");
  for (let i = 0; i < 15; i += 1) {
    await page.evaluate((n) => {
      const call = { sessionId: "timing", callId: `t-${n}`, request: { tool: "Write", input: { file_path: `src/f${n}.ts`, content: "x\n" }, cwd: "/home/ada/shop" } };
      window.demo.chat.asking(call.callId);
      window.result = window.demo.broker().requestApproval(call).then((o) => (window.demo.chat.settle(o), o.status));
    }, i);
    await allow(pendingCard(page, "Write"));
    assert.equal(await page.evaluate(() => window.result), "approved");
  }
  await collectTimings(page);
  assert.ok(timings.requestToCard.length >= 15 && timings.answerToResolve.length >= 15, JSON.stringify(timings));
  assert.deepEqual(problems, []);
  await context.close();
});

const AXE = readFileSync(new URL("../../../node_modules/axe-core/axe.min.js", import.meta.url), "utf8");

/** Runs axe-core, served from the page's own origin (so the page's CSP still holds). */
async function axe(page) {
  await page.route("**/__axe.js", (route) => route.fulfill({ body: AXE, contentType: "text/javascript" }));
  await page.addScriptTag({ url: "/__axe.js" });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
  });
}

test("screenshots of the card in the demo, light and dark; no serious axe findings", async (t) => {
  for (const scheme of /** @type {const} */ (["light", "dark"])) {
    const { page, context } = await env.open(`demo/?pace=0&session=shot-${scheme}`, { colorScheme: scheme });
    await page.evaluate((theme) => (document.documentElement.dataset.theme = theme), scheme);
    await page.setViewportSize({ width: 1280, height: 1600 }); // the chat log shows a whole card
    await allow(pendingCard(page, "Write"));
    const edit = pendingCard(page, "Edit");
    await edit.waitFor();
    await edit.screenshot({ path: `${OUTPUT}demo-card-${scheme}.png` });
    await edit.getByLabel("Remember for this session").check();
    await allow(edit);
    const bash = pendingCard(page, "Bash");
    await bash.waitFor();
    await bash.screenshot({ path: `${OUTPUT}demo-card-shell-${scheme}.png` });
    await page.screenshot({ path: `${OUTPUT}demo-chat-${scheme}.png`, fullPage: true });
    await page.mouse.move(0, 0); // no hover state on a button under the pointer
    const violations = await axe(page);
    for (const v of violations) t.diagnostic(`axe ${scheme} ${v.impact}: ${v.id} at ${v.targets.join(", ")}`);
    assert.deepEqual(violations.filter((v) => v.impact === "serious" || v.impact === "critical"), [], scheme);
    await context.close();
  }
});

test("a new card does not take the keyboard from the chat input", async () => {
  const { page, problems, context } = await env.open("demo/?pace=0&autostart=0&session=typing");
  const input = page.locator("#chat-input");
  await input.focus();
  await page.keyboard.type("hello ");
  await page.evaluate(() => document.getElementById("start")?.click());
  const card = pendingCard(page, "Write");
  await card.waitFor();
  await page.waitForTimeout(KEY_GUARD_MS);
  await page.keyboard.type("agent");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "chat-input");
  assert.equal(await input.inputValue(), "hello agent\n");
  assert.equal(await card.getAttribute("data-state"), "pending", "the keystrokes did not answer the card");
  assert.deepEqual(problems, []);
  await context.close();
});
