// The strict-CSP "VS Code webview" page and the iframe "renderer ↔ main" page.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { OUTPUT, launch } from "./demo.mjs";

/** @type {Awaited<ReturnType<typeof launch>>} */
let env;
before(async () => (env = await launch()));
after(async () => env?.close());

test("the webview page works under a VS Code-style strict CSP", async () => {
  const { page, response, problems, context } = await env.open("demo/webview.html");
  const csp = response.headers()["content-security-policy"];
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  const card = page.locator("toolgate-approval-card").first();
  await card.getByRole("button", { name: "Allow", exact: true }).waitFor();
  // VS Code's theme variables reach the card.
  const background = await card.evaluate((el) => getComputedStyle(el.querySelector("button.tg-primary") ?? el).backgroundColor);
  assert.equal(background, "rgb(0, 120, 212)");
  await card.screenshot({ path: `${OUTPUT}demo-webview-card.png` });
  await card.getByRole("button", { name: "Allow", exact: true }).click();
  await page.locator('.msg[data-status="approved"]').waitFor();
  await page.getByRole("button", { name: "Ask again" }).click();
  await page.locator("toolgate-approval-card").nth(1).getByRole("button", { name: "Deny", exact: true }).click();
  await page.locator('.msg[data-status="denied"]').waitFor();
  assert.deepEqual(problems, [], "no CSP violation, console error or page error");
  await context.close();
});

test("the iframe bridge: the broker in the main page, the cards in the renderer", async () => {
  const { page, problems, context } = await env.open("demo/bridge.html");
  const renderer = page.frameLocator("#renderer");
  // The renderer has no engine: it only shows what comes over the port.
  const frame = page.frames().find((f) => f.url().endsWith("/bridge-renderer.html"));
  assert.ok(frame);
  assert.equal(await frame.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith(".wasm"))), false);

  await renderer.locator('toolgate-approval-card[data-state]:not([data-state="settled"])').first().waitFor().catch(() => {});
  const pending = () => renderer.locator("toolgate-approval-card:not([data-state=settled])").first();
  const firstId = await pending().evaluate((card) => card.approval.id);
  await pending().getByRole("button", { name: "Allow", exact: true }).click();
  await page.locator('#main-log .msg[data-status="approved"]').first().waitFor();
  // A second answer for the same id: the client refuses it itself, and a raw message that
  // gets past it is refused by the host, logged in main and reported back to the renderer.
  await frame.waitForFunction(() => window.demo?.client !== undefined);
  const local = await frame.evaluate((id) => {
    try {
      window.demo.client.respond(id, { kind: "deny" });
      return "sent";
    } catch (error) {
      return error.code;
    }
  }, firstId);
  assert.equal(local, "ALREADY_SETTLED");
  await frame.evaluate((id) => window.demo.port.postMessage({ toolgate: 1, type: "approval-response", requestId: id, answer: { kind: "deny" } }), firstId);
  await page.locator('#main-log .msg[data-status="refused"]').waitFor();
  assert.match(await page.locator('#main-log .msg[data-status="refused"]').innerText(), /ALREADY_SETTLED/);
  await renderer.locator(".msg-error").waitFor();
  assert.match(await renderer.locator(".msg-error").innerText(), /ALREADY_SETTLED/);
  const bash = pending();
  await bash.getByLabel("Message to the agent if you deny (optional)").fill("no curl | sh");
  await bash.getByRole("button", { name: "Deny", exact: true }).click();
  const denied = page.locator('#main-log .msg[data-status="denied"]').first();
  await denied.waitFor();
  assert.match(await denied.innerText(), /no curl \| sh/);
  await pending().getByRole("button", { name: "Allow", exact: true }).click();
  // Then a batch of two: one Allow all answers both, as one approve-all message.
  await renderer.locator("toolgate-approval-card:not([data-state=settled])").nth(1).waitFor();
  await pending().getByRole("button", { name: "Allow all" }).click();
  await page.waitForSelector("body[data-agent=done]");
  const approved = await page.locator('#main-log .msg[data-status="approved"]').allInnerTexts();
  assert.deepEqual(approved.slice(-2), ["WebFetch: approved (person, once)", "WebFetch: approved (person, once)"]);
  assert.equal(await renderer.locator('toolgate-approval-card[data-state="settled"]').count(), 5);
  assert.deepEqual(problems, []);
  await context.close();
});
