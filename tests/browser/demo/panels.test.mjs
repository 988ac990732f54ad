// The demo's side panels: rules edited live (errors and warnings at once, the broker using
// the new policy), "would this be allowed?", trust surviving a reload, the audit trail.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { launch, pendingCard } from "./demo.mjs";

/** @type {Awaited<ReturnType<typeof launch>>} */
let env;
before(async () => (env = await launch()));
after(async () => env?.close());

const policyText = (page) => page.locator("#policy").inputValue();

test("rules edited live: load errors at once, the broker uses the new policy", async () => {
  const { page, problems, context } = await env.open("demo/?pace=0&autostart=0&session=rules");
  assert.equal(await page.locator("#policy-status").getAttribute("data-state"), "applied");

  // A misspelt key: not applied, the error names the code and the path.
  const good = JSON.parse(await policyText(page));
  await page.locator("#policy").fill(JSON.stringify({ ...good, permisions: {} }, null, 2));
  const error = page.locator("#policy-problems li.error");
  await error.waitFor();
  assert.equal(await page.locator("#policy-status").getAttribute("data-state"), "error");
  assert.match(await error.innerText(), /permisions/);
  assert.ok((await error.getAttribute("data-code")) !== "", "the error carries its code");
  assert.equal(await page.locator("#policy").getAttribute("aria-invalid"), "true");

  // Not JSON at all.
  await page.locator("#policy").fill("{ oops");
  await page.locator('#policy-problems li.error[data-code="INVALID_JSON"]').waitFor();

  // Back to a good policy, then a deny rule added with the list editor.
  await page.locator("#policy").fill(JSON.stringify(good, null, 2));
  await page.locator('#policy-status[data-state="applied"]').waitFor();
  await page.locator("#rule-list").selectOption("deny");
  await page.locator("#rule-text").fill("Edit(src/app.ts)");
  await page.getByRole("button", { name: "Add rule" }).click();
  await page.locator('#policy-status[data-state="applied"]').waitFor();
  assert.deepEqual(JSON.parse(await policyText(page)).permissions.deny.at(-1), "Edit(src/app.ts)");

  // A rule that loads but does nothing: applied, with its warning shown.
  await page.locator("#rule-list").selectOption("allow");
  await page.locator("#rule-text").fill("mcp__*");
  await page.getByRole("button", { name: "Add rule" }).click();
  const warning = page.locator('#policy-problems li.warning[data-code="INERT_ALLOW_GLOB"]');
  await warning.waitFor();
  assert.match(await warning.innerText(), /permissions\.allow/);
  assert.equal(await page.locator("#policy-status").getAttribute("data-state"), "applied");

  // "Would this be allowed?" explains against the edited policy.
  await page.locator("#explain-request").fill('{"tool": "Edit", "input": {"file_path": "src/app.ts", "old_string": "a", "new_string": "b"}}');
  await page.getByRole("button", { name: "Explain" }).click();
  await page.locator('#explain-result[data-effect="deny"]').waitFor();
  await page.locator("#explain-request").fill('{"tool": "Bash", "input": {"command": "git status"}}');
  await page.getByRole("button", { name: "Explain" }).click();
  await page.locator('#explain-result[data-effect="allow"]').waitFor();

  // The mode select rewrites the JSON: dontAsk turns an ask into a deny.
  await page.locator("#mode").selectOption("dontAsk");
  assert.equal(JSON.parse(await policyText(page)).defaultMode, "dontAsk");
  await page.locator("#explain-request").fill('{"tool": "Write", "input": {"file_path": "src/x.ts", "content": "x"}}');
  await page.getByRole("button", { name: "Explain" }).click();
  await page.locator('#explain-result[data-effect="deny"]').waitFor();
  await page.locator("#mode").selectOption("default");

  // The agent now meets the new deny rule: the edit is denied by the policy, no card.
  await page.getByRole("button", { name: "Run the agent" }).click();
  await pendingCard(page, "Write").getByRole("button", { name: "Allow", exact: true }).click();
  const denied = page.locator('#chat-log .msg[data-status="denied"][data-by="policy"]').first();
  await denied.waitFor();
  assert.equal(await denied.getAttribute("data-code"), "PERMISSION_DENIED");
  // Both edits are of src/app.ts: both denied by the policy, no card; the agent goes on.
  await pendingCard(page, "Bash").waitFor();
  assert.equal(await page.locator('toolgate-approval-card[data-tool="Edit"]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test("saved grants survive a reload; revoke removes one for good", async () => {
  const { page, context, problems } = await env.open("demo/?pace=0&session=reload");
  await pendingCard(page, "Write").getByRole("button", { name: "Allow", exact: true }).click();
  const edit = pendingCard(page, "Edit");
  await edit.getByLabel("Always allow (saved rule)").check();
  await edit.getByRole("button", { name: "Allow", exact: true }).click();
  await page.locator('#grants li[data-scope="always"]').first().waitFor();
  const rule = await page.locator('#grants li[data-scope="always"]').first().getAttribute("data-rule");
  // The saved rule is as narrow as the edit: that file only.
  const saved = "Edit(//home/ada/shop/src/app.ts)";
  assert.equal(rule, saved);

  await page.goto(page.url().replace("pace=0", "pace=0&autostart=0"));
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.locator('#grants li[data-scope="always"]').getAttribute("data-rule"), saved);
  // The saved grant applies after the reload: the agent's edits of that file run without a
  // card; its write of another file still asks.
  await page.getByRole("button", { name: "Run the agent" }).click();
  await pendingCard(page, "Write").getByRole("button", { name: "Allow", exact: true }).click();
  await pendingCard(page, "Bash").waitFor();
  assert.equal(await page.locator('#chat-log .msg[data-by="trust"]').count(), 2);
  assert.equal(await page.locator('toolgate-approval-card[data-tool="Edit"]').count(), 0);

  await page.getByRole("button", { name: `Revoke ${saved} (saved)` }).click();
  assert.equal(await page.locator('#grants li[data-scope="always"]').count(), 0);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.locator('#grants li[data-scope="always"]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the audit trail: live events, a filter, JSON Lines export", async () => {
  const { page, context, problems } = await env.open("demo/?pace=0&session=audit");
  await pendingCard(page, "Write").getByRole("button", { name: "Deny", exact: true }).click();
  await pendingCard(page, "Edit").waitFor();
  const rows = page.locator("#audit-rows tr");
  assert.ok((await rows.count()) >= 4, "events for the reads and the edit");
  assert.ok((await page.locator('#audit-rows tr[data-kind="decision"]').count()) >= 3);

  await page.locator("#audit-filter").fill("Write");
  const visible = await page.locator("#audit-rows tr:not([hidden])").evaluateAll((trs) => trs.map((tr) => tr.textContent));
  assert.ok(visible.length > 0 && visible.every((text) => text.includes("Write")), JSON.stringify(visible));
  await page.locator("#audit-kind").selectOption("transition");
  assert.ok((await page.locator('#audit-rows tr:not([hidden])').evaluateAll((trs) => trs.every((tr) => tr.dataset.kind === "transition"))));
  assert.match(await page.locator("#audit-count").innerText(), /^\d+ of \d+ events$/);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSON Lines" }).click()]);
  assert.equal(download.suggestedFilename(), "toolgate-audit.jsonl");
  const lines = readFileSync(await download.path(), "utf8").trim().split("\n");
  const events = lines.map((line) => JSON.parse(line));
  assert.equal(events.length, await rows.count());
  assert.ok(events.every((e) => typeof e.seq === "number" && typeof e.kind === "string"));
  assert.deepEqual(problems, []);
  await context.close();
});

test("a tampered saved trust document is refused and reported, not trusted", async () => {
  const context = await env.browser.newContext();
  await context.addInitScript(() => {
    localStorage.setItem(
      "toolgate-demo-trust",
      JSON.stringify({ version: 1, grants: [{ rule: "Edit", createdAt: 1 }], agents: {}, checksum: `sha256:${"0".repeat(64)}` }),
    );
  });
  const { page, problems } = await env.open("demo/?pace=0&autostart=0&session=tampered", { context });
  const report = page.locator('#chat-log .msg[data-role="error"]').first();
  await report.waitFor();
  assert.match(await report.innerText(), /TAMPERED/);
  assert.equal(await page.locator('#grants li[data-scope="always"]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
