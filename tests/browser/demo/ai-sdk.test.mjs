// www/ai-sdk.html: the AI SDK in Chromium (served offline from node_modules through an import
// map), a scripted model, and toolgate's gateTools with an approval card.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { launch } from "./demo.mjs";

/** @type {Awaited<ReturnType<typeof launch>>} */
let env;
before(async () => (env = await launch()));
after(async () => env?.close());

test("the AI SDK page: allowed runs, denied never runs and the model reads why, an ask shows a card", async () => {
  const { page, response, problems, context } = await env.open("ai-sdk.html");
  assert.match(response.headers()["content-security-policy"], /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  const card = page.locator("toolgate-approval-card").first();
  await card.getByRole("button", { name: "Allow", exact: true }).click();
  await page.locator('.msg[data-status="done"]').waitFor();
  const ran = await page.locator('.msg[data-status="ran"]').allInnerTexts();
  assert.deepEqual(ran, ["Ran: npm test", "Ran: npm run lint"]);
  const denied = await page.locator('.msg[data-status="denied"]').allInnerTexts();
  assert.equal(denied.length, 1);
  assert.match(denied[0], /Permission denied/);
  assert.deepEqual(problems, [], "no CSP violation, console error or page error");
  await context.close();
});
