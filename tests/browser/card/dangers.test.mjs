// Danger classes on the card: badges and sentences above the arguments, in
// both themes, announced with the card, checked by axe, and a screenshot
// saved under tests/output/.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { launch, withPage } from "./browser.mjs";

const OUTPUT = fileURLToPath(new URL("../../output/", import.meta.url));

/** @type {Awaited<ReturnType<typeof launch>>} */
let env;
before(async () => {
  env = await launch();
  await mkdir(OUTPUT, { recursive: true });
});
after(async () => env?.close());

const card = "toolgate-approval-card >> nth=0";

describe("dangers", () => {
  test("every danger is listed with its class, sentence and detail, above the arguments", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("danger"));
      const c = page.locator(card);
      assert.equal(await c.locator(".tg-dangers .tg-label").innerText(), "4 dangers found");
      assert.deepEqual(await c.locator(".tg-danger-badge").allInnerTexts(), [
        "history-rewrite",
        "network-upload",
        "privilege",
        "recursive-delete",
      ]);
      assert.equal(await c.locator(".tg-danger-badge svg").count(), 4, "each badge has an icon, not colour alone");
      const first = await c.locator(".tg-dangers li").first().innerText();
      assert.match(first, /Rewrites or discards git history/);
      assert.match(first, /force-pushes `origin main`/);
      const order = await c.evaluate((el) => {
        const root = el.shadowRoot ?? el;
        const all = [...root.querySelectorAll(".tg-dangers, .tg-args, .tg-reason")];
        return all.map((n) => n.className.split(" ")[0]);
      });
      assert.deepEqual(order, ["tg-dangers", "tg-reason", "tg-args"]);
      const described = await c.locator('[aria-describedby]').first().getAttribute("aria-describedby");
      assert.match(described ?? "", /-dangers/, "the dangers are part of the card's description");
    }));

  test("a decision without dangers shows no danger list", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      assert.equal(await page.locator(card).locator(".tg-dangers").count(), 0);
    }));

  test("malformed dangers are refused by the shape check", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() =>
        window.harness.show("danger", { patch: { decision: { effect: "ask", dangers: [{ class: 3 }] } } }),
      );
      const text = await page.locator(card).innerText();
      assert.match(text, /decision\.dangers\[0\]\.class/);
    }));

  for (const scheme of /** @type {const} */ (["light", "dark"])) {
    test(`${scheme}: screenshot and no serious axe violations`, (t) =>
      withPage(env, { colorScheme: scheme }, async (page) => {
        await page.evaluate(() => window.harness.show("danger"));
        await page.locator(card).screenshot({ path: `${OUTPUT}card-${scheme}-dangers.png` });
        await page.addScriptTag({ url: "/vendor/axe.min.js" });
        const violations = await page.evaluate(async () => {
          const result = await /** @type {any} */ (window).axe.run(document, { resultTypes: ["violations"] });
          return result.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, help: v.help }));
        });
        for (const v of violations) t.diagnostic(`axe ${v.impact}: ${v.id} (${v.help})`);
        assert.deepEqual(
          violations.filter((v) => v.impact === "serious" || v.impact === "critical"),
          [],
        );
      }));
  }
});
