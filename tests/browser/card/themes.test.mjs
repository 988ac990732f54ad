// How the card looks and how fast it is: light and dark screenshots (saved
// under tests/output/), axe-core in both themes, the data-theme switch,
// VS Code's theme variables, and in-browser timings.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
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

/** Shows one card of each kind, an open editor and a settled record. */
async function showAll(/** @type {import("playwright-core").Page} */ page) {
  await page.evaluate(() => {
    const h = window.harness;
    h.show("bash", { batch: true });
    const write = h.show("write", { editable: true });
    write.querySelector('[data-action="edit"]').click();
    h.show("mcp");
    h.show("read").settle({ status: "approved", scope: "session" });
    h.show("bash", { patch: { id: "broken", risk: "extreme" } });
    document.activeElement?.blur();
  });
}

/** Runs axe-core (served from the harness origin, so the CSP still holds). */
async function axe(/** @type {import("playwright-core").Page} */ page) {
  await page.addScriptTag({ url: "/vendor/axe.min.js" });
  return page.evaluate(async () => {
    const result = await /** @type {any} */ (window).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((/** @type {any} */ n) => n.target.join(" ")).slice(0, 5),
    }));
  });
}

describe("themes and accessibility", () => {
  for (const scheme of /** @type {const} */ (["light", "dark"])) {
    test(`${scheme}: screenshot and no serious axe violations`, (t) =>
      withPage(env, { colorScheme: scheme }, async (page) => {
        await showAll(page);
        await page.screenshot({ path: `${OUTPUT}card-${scheme}.png`, fullPage: true });
        await page.locator("toolgate-approval-card >> nth=0").screenshot({ path: `${OUTPUT}card-${scheme}-bash.png` });
        const violations = await axe(page);
        for (const v of violations) t.diagnostic(`axe ${v.impact}: ${v.id} (${v.help}) at ${v.targets.join(", ")}`);
        const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        assert.deepEqual(serious, []);
      }));
  }

  test("dark: the modal dialog passes axe too", (t) =>
    withPage(env, { colorScheme: "dark" }, async (page) => {
      await page.evaluate(() => window.harness.show("bash", { modal: true, batch: true }));
      await page.screenshot({ path: `${OUTPUT}card-dark-modal.png` });
      const violations = await axe(page);
      for (const v of violations) t.diagnostic(`axe ${v.impact}: ${v.id} at ${v.targets.join(", ")}`);
      assert.deepEqual(violations.filter((v) => v.impact === "serious" || v.impact === "critical"), []);
    }));

  for (const scheme of /** @type {const} */ (["light", "dark"])) {
    test(`${scheme}: the Allow button keeps its contrast under the pointer`, (t) =>
      withPage(env, { colorScheme: scheme }, async (page) => {
        await page.evaluate(() => window.harness.show("write"));
        await page.locator("toolgate-approval-card .tg-button.tg-primary >> nth=0").hover();
        const violations = await axe(page);
        for (const v of violations) t.diagnostic(`axe ${v.impact}: ${v.id} at ${v.targets.join(", ")}`);
        assert.deepEqual(violations.filter((v) => v.id === "color-contrast"), []);
      }));
  }

  test("data-theme overrides the system colour scheme, on the page or the card", () =>
    withPage(env, { colorScheme: "light" }, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      const background = () => page.locator(".tg-card").evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.equal(await background(), "rgb(255, 255, 255)");
      await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
      assert.equal(await background(), "rgb(27, 31, 36)");
      await page.evaluate(() => (document.querySelector("toolgate-approval-card").dataset.theme = "light"));
      assert.equal(await background(), "rgb(255, 255, 255)");
    }));

  test("dark system scheme can be forced back to light", () =>
    withPage(env, { colorScheme: "dark", theme: "light" }, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      assert.equal(await page.locator(".tg-card").evaluate((el) => getComputedStyle(el).backgroundColor), "rgb(255, 255, 255)");
    }));

  test("VS Code theme variables take over when present", () =>
    withPage(env, { colorScheme: "light" }, async (page) => {
      await page.evaluate(() => {
        const root = document.documentElement;
        root.style.setProperty("--vscode-editor-background", "rgb(1, 2, 3)");
        root.style.setProperty("--vscode-foreground", "rgb(200, 201, 202)");
        root.style.setProperty("--vscode-button-background", "rgb(10, 20, 30)");
        root.style.setProperty("--vscode-button-foreground", "rgb(250, 250, 250)");
        root.style.setProperty("--vscode-focusBorder", "rgb(0, 128, 255)");
        window.harness.show("write");
      });
      const styles = await page.evaluate(() => {
        const card = getComputedStyle(document.querySelector(".tg-card"));
        const allow = getComputedStyle(document.querySelector('[data-action="allow"]'));
        return { bg: card.backgroundColor, fg: card.color, buttonBg: allow.backgroundColor, buttonFg: allow.color };
      });
      assert.deepEqual(styles, {
        bg: "rgb(1, 2, 3)",
        fg: "rgb(200, 201, 202)",
        buttonBg: "rgb(10, 20, 30)",
        buttonFg: "rgb(250, 250, 250)",
      });
    }));

  test("the harness notices CSP violations (so their absence elsewhere means something)", async () => {
    const opened = await env.open({});
    try {
      await opened.page.evaluate(() => {
        const probe = document.createElement("div");
        probe.setAttribute("style", "color: red");
        document.body.append(probe);
      });
      await opened.page.waitForFunction(() => window.cspViolations.length > 0, null, { timeout: 2_000 });
      assert.match((await opened.problems()).join("\n"), /csp: style-src-attr inline/);
    } finally {
      await opened.close();
    }
  });

  test("focus is visible on the card and its controls", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      const ring = await page.locator(".tg-card").evaluate((el) => getComputedStyle(el).boxShadow);
      assert.match(ring, /rgb\(9, 105, 218\)/, "the focused card has a ring");
      await page.keyboard.press("Tab");
      const outline = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      });
      assert.equal(outline, "solid 2px");
    }));
});

describe("timings", () => {
  test("setting approval to visible, and a click to the answer event", (t) =>
    withPage(env, {}, async (page) => {
      const shown = await page.evaluate(() => window.harness.measureShow("bash", 30));
      /** @type {number[]} */
      const clicks = [];
      for (let i = 0; i < 20; i++) {
        await page.evaluate((n) => window.harness.show("write", { patch: { id: `click-${n}` } }), i);
        await page.locator("toolgate-approval-card").last().getByRole("button", { name: "Allow", exact: true }).click();
        clicks.push(await page.evaluate(() => window.harness.events.at(-1).sinceClick));
      }
      const stats = (/** @type {number[]} */ xs) => {
        const s = [...xs].sort((a, b) => a - b);
        const at = (/** @type {number} */ q) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(2));
        return { median: at(0.5), p95: at(0.95), max: at(1) };
      };
      const report = {
        approvalToLaidOutMs: stats(shown.sync),
        approvalToNextFrameMs: stats(shown.frame),
        pointerDownToAnswerEventMs: stats(clicks),
      };
      t.diagnostic(JSON.stringify(report));
      await writeFile(`${OUTPUT}card-timings.json`, JSON.stringify(report, null, 2) + "\n");
      assert.ok(report.approvalToLaidOutMs.median < 100, "within the 100 ms budget");
      assert.ok(report.pointerDownToAnswerEventMs.median < 50, "within the 50 ms budget");
    }));
});
