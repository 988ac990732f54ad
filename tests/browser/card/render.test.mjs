// What the approval card shows: every field of a pending approval, the JSON
// view, the diff, the countdown, malformed input and hostile strings.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { launch, withPage } from "./browser.mjs";

/** @type {Awaited<ReturnType<typeof launch>>} */
let env;
before(async () => (env = await launch()));
after(async () => env?.close());

const card = (/** @type {number} */ n) => `toolgate-approval-card >> nth=${n}`;

describe("rendering", () => {
  test("a compound shell command shows every field", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      const c = page.locator(card(0));
      assert.equal(await c.locator(".tg-risk").innerText(), "High risk");
      assert.equal(await c.locator(".tg-risk svg").count(), 1, "the risk has an icon");
      assert.equal(await c.locator(".tg-tool").innerText(), "Bash");
      assert.equal(await c.locator(".tg-title").innerText(), "Run a shell command");
      assert.equal(await c.locator(".tg-agent").innerText(), "Requested by build-helper");
      assert.equal(await c.locator(".tg-description").innerText(), "Execute command: npm test && rm -rf build");
      assert.match(await c.locator(".tg-warning").innerText(), /cannot be undone/);
      assert.match(await c.locator(".tg-reason").innerText(), /`rm -rf build` deletes files/);
      const parts = await c.locator(".tg-parts li").allInnerTexts();
      assert.equal(parts.length, 2);
      assert.match(parts[0], /allowed\s+npm test\s+allowed by rule/);
      assert.match(parts[1], /asks\s+rm -rf build\s+deletes files/);
      assert.equal(await c.locator('.tg-parts li[data-effect="ask"] svg').count(), 1);
      assert.equal(await c.locator(".tg-timer").innerText(), "Auto-deny in 1:00");
      assert.equal(await c.locator(".tg-json .tg-j-key").first().innerText(), '"command"');
      assert.equal(await c.locator(".tg-json .tg-j-num").innerText(), "120000");
      // Allow is the rightmost button and batch buttons stay hidden without `batch`.
      assert.deepEqual(await c.locator(".tg-actions button:visible").allInnerTexts(), ["Deny", "Allow"]);
      assert.equal(await c.locator(".tg-preview, .tg-diff").count(), 0);
    }));

  test("a write shows its diff and offers session and always", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      const c = page.locator(card(0));
      assert.equal(await c.locator(".tg-warning").count(), 0, "no warning below high risk");
      assert.equal(await c.locator(".tg-risk").innerText(), "Medium risk");
      assert.equal(await c.locator(".tg-diff .tg-label").innerText(), "Changes: 2 lines added, 2 removed");
      assert.deepEqual(await c.locator(".tg-diff-lines del").allInnerTexts(), [
        '- export const port = 3000;\n',
        '- export const host = "localhost";\n',
      ]);
      assert.equal(await c.locator(".tg-diff-lines ins").count(), 2);
      assert.equal(await c.locator(".tg-preview").count(), 0, "the diff replaces the preview");
      assert.equal(await c.getByLabel("Remember for this session").count(), 1);
      assert.equal(await c.getByLabel("Always allow (saved rule)").count(), 1);
      assert.equal(await c.locator(".tg-agent").count(), 1);
    }));

  test("a read shows the truncated preview and a countdown past an hour", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("read"));
      const c = page.locator(card(0));
      assert.equal(await c.locator(".tg-preview .tg-label").innerText(), "Content preview (truncated)");
      assert.equal(await c.locator(".tg-preview pre").innerText(), "API_URL=https://example.invalid\nLOG_LEVEL=info\n");
      assert.equal(await c.locator(".tg-risk").innerText(), "Low risk");
      assert.equal(await c.locator(".tg-timer").innerText(), "Auto-deny in 1:01:01");
    }));

  test("a call that is not trustable has no remember checkboxes", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("mcp"));
      const c = page.locator(card(0));
      assert.equal(await c.locator('input[type="checkbox"]').count(), 0);
      assert.equal(await c.locator(".tg-agent").count(), 0, "no agent line without an agent");
      // Nested JSON: the object under `units` folds and unfolds.
      const units = c.locator(".tg-json-children > details.tg-json-node");
      assert.equal(await units.getAttribute("open"), "");
      await units.locator("summary").click();
      assert.equal(await units.getAttribute("open"), null);
      assert.match(await units.locator("summary").innerText(), /"units": \{…\} 2 keys/);
      assert.equal(await c.locator(".tg-j-bool").innerText(), "true");
      assert.equal(await c.locator(".tg-j-null").innerText(), "null");
    }));

  test("answers the broker does not list are not offered", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write", { batch: true, patch: { answers: ["deny"] } }));
      const c = page.locator(card(0));
      assert.deepEqual(await c.locator(".tg-actions button:visible").allInnerTexts(), ["Deny"]);
      assert.equal(await c.locator('input[type="checkbox"]').count(), 0);
    }));

  test("hostile strings are shown as text, never as markup", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("hostile"));
      const c = page.locator(card(0));
      assert.equal(await c.locator("img, script, iframe, svg:not(.tg-icon), a, b, i").count(), 0);
      assert.equal(await c.locator(".tg-title").innerText(), "<script>alert(1)</script>");
      assert.equal(await c.locator(".tg-tool").innerText(), "<b>Bash</b>");
      assert.equal(await c.locator(".tg-preview pre").innerText(), "<iframe src=javascript:alert(4)></iframe>");
      assert.match(await c.locator(".tg-json").innerText(), /"<i>key<\/i>": "<\/pre><img src=x>"/);
    }));

  test("a malformed approval lists its problems and only offers Deny", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash", { patch: { risk: "extreme", answers: ["allowOnce", "yes"], deadline: "soon" } }));
      const c = page.locator(card(0));
      assert.equal(await c.locator(".tg-title").innerText(), "This approval request is malformed");
      const problems = await c.locator(".tg-problems li").allInnerTexts();
      assert.deepEqual(problems, [
        "`risk` must be `low`, `medium` or `high`, got `extreme`",
        "`deadline` must be a time in Unix milliseconds, got `soon`",
        "`answers[1]` must be one of `allowOnce`, `allowSession`, `allowAlways`, `deny`, `allowAll`, `denyAll`, `allowToolForSession`, got `yes`",
      ]);
      assert.deepEqual(await c.locator("button").allInnerTexts(), ["Deny"]);
      await c.locator("button").click();
      const detail = await page.evaluate(() => window.harness.events.at(-1).detail);
      assert.deepEqual(detail, { id: "apr-bash-1", answer: { kind: "deny" } });
    }));

  test("the countdown runs on the injected clock and denies at zero", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("mcp"));
      const c = page.locator(card(0));
      assert.equal(await c.locator(".tg-timer").innerText(), "Auto-deny in 0:30");
      await page.evaluate(() => {
        window.harness.clock.now += 20_500;
        document.querySelector("toolgate-approval-card").tick();
      });
      assert.equal(await c.locator(".tg-timer").innerText(), "Auto-deny in 0:10");
      assert.equal(await c.locator(".tg-timer.tg-urgent").count(), 1, "the last ten seconds stand out");
      // The card's own timer (every 500 ms) notices the deadline without help.
      await page.evaluate(() => (window.harness.clock.now += 9_500));
      await c.locator(".tg-record").waitFor({ timeout: 2_000 });
      assert.equal(await c.innerText(), "Timed out — denied automatically: mcp__weather__forecast");
      assert.deepEqual(await page.evaluate(() => window.harness.events.map((e) => [e.type, e.detail])), [
        ["toolgate-expired", { id: "apr-mcp-1" }],
      ]);
      assert.equal(await page.evaluate(() => document.getElementById("toolgate-live")?.textContent), await c.innerText());
    }));

  test("a card whose deadline has passed settles as expired at once", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash", { patch: { deadline: window.harness.T0 - 1 } }));
      assert.equal(await page.locator(card(0)).innerText(), "Timed out — denied automatically: Bash(npm test && rm -rf build)");
    }));

  test("the card is a labelled group and new requests are announced", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      const group = page.getByRole("group", { name: "Run a shell command" });
      assert.equal(await group.count(), 1);
      const described = await group.evaluate((el) =>
        el.getAttribute("aria-describedby").split(" ").map((id) => document.getElementById(id)?.textContent),
      );
      assert.equal(described.length, 3);
      assert.equal(described[0], "Execute command: npm test && rm -rf build");
      assert.match(described[1], /cannot be undone/);
      assert.match(described[2], /Why it asks/);
      const live = page.locator("#toolgate-live");
      assert.equal(await live.getAttribute("aria-live"), "polite");
      assert.equal(await live.textContent(), "Approval needed: Run a shell command. Execute command: npm test && rm -rf build. High risk.");
    }));

  test("heading-level sets the title's level; focusOnShow = false leaves focus alone", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => {
        const card = document.createElement("toolgate-approval-card");
        card.setAttribute("heading-level", "4");
        card.focusOnShow = false;
        card.now = () => window.harness.clock.now;
        card.approval = window.harness.fixtures().write;
        document.getElementById("stream").append(card);
      });
      assert.equal(await page.getByRole("heading", { level: 4, name: "Write a file" }).count(), 1);
      assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
    }));

  test("moving a card in the page neither repeats its announcement nor stops its countdown", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => {
        window.harness.show("write");
        window.harness.show("bash");
        document.getElementById("toolgate-live").textContent = "";
        const stream = document.getElementById("stream");
        stream.prepend(stream.lastElementChild);
        window.harness.clock.now += 5_000;
      });
      assert.equal(await page.locator("#toolgate-live").textContent(), "");
      await page.waitForFunction(() => document.querySelector(".tg-timer").textContent === "Auto-deny in 0:55", null, { timeout: 2_000 });
    }));

  test("the modal option opens an alertdialog", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write", { modal: true }));
      const dialog = page.getByRole("alertdialog", { name: "Write a file" });
      assert.equal(await dialog.evaluate((el) => el instanceof HTMLDialogElement && el.open && el.matches(":modal")), true);
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "alertdialog");
      await page.keyboard.press("Escape");
      assert.equal(await page.locator(card(0)).innerText(), "Denied: Write(src/app.ts)");
      assert.equal(await page.evaluate(() => document.querySelector("dialog")), null);
    }));
});

describe("line diff and JSON view (pure parts)", () => {
  test("diffLines and foldUnchanged", () =>
    withPage(env, {}, async (page) => {
      const result = await page.evaluate(async () => {
        const { diffLines, foldUnchanged } = await import("/ui/line-diff.js");
        const ops = (/** @type {any[]} */ lines) => lines.map((l) => (l.op === "skip" ? `~${l.count}` : `${l.op[0]}${l.text}`)).join(" ");
        const many = Array.from({ length: 20 }, (_, i) => `l${i}`);
        const changed = many.map((l, i) => (i === 10 ? "X" : l));
        return {
          same: ops(diffLines("a\nb\n", "a\nb")),
          empty: ops(diffLines("", "x\ny")),
          removed: ops(diffLines("x\ny\n", "")),
          middle: ops(diffLines("a\nb\nc\nd", "a\nc\nB\nd")),
          crlf: ops(diffLines("a\r\nb\r\n", "a\nb\n")),
          fallback: ops(diffLines("a\nb\nc", "x\nb\ny", 4)),
          folded: ops(foldUnchanged(diffLines(many.join("\n"), changed.join("\n")))),
          allSame: ops(foldUnchanged(diffLines(many.join("\n"), many.join("\n")))),
        };
      });
      assert.deepEqual(result, {
        same: "sa sb",
        empty: "ax ay",
        removed: "dx dy",
        middle: "sa db sc aB sd",
        crlf: "sa sb",
        fallback: "da db dc ax ab ay",
        folded: "~7 sl7 sl8 sl9 dl10 aX sl11 sl12 sl13 ~6",
        allSame: "~20",
      });
    }));

  test("long strings and wide inputs are cut in the view only", () =>
    withPage(env, {}, async (page) => {
      const result = await page.evaluate(async () => {
        const { renderJson, MAX_STRING_CHARS, MAX_NODES, MAX_DEPTH } = await import("/ui/json-view.js");
        /** @type {unknown} */
        let deep = "bottom";
        for (let i = 0; i < MAX_DEPTH + 5; i++) deep = { a: deep };
        const nested = renderJson(deep);
        const long = renderJson({ text: "x".repeat(MAX_STRING_CHARS + 5) });
        const wide = renderJson(Array.from({ length: MAX_NODES + 10 }, (_, i) => i));
        return {
          note: long.querySelector(".tg-j-str .tg-j-note")?.textContent,
          drawn: wide.querySelectorAll(".tg-j-num").length,
          more: wide.querySelector(".tg-j-note")?.textContent,
          deep: nested.querySelectorAll("details").length,
          deepNote: nested.querySelector(".tg-j-note")?.textContent,
        };
      });
      assert.equal(result.note, "… 5 more characters");
      assert.ok(result.drawn < 1510 && result.drawn > 1400, `drew ${result.drawn} numbers`);
      assert.match(result.more, /^… \d+ more not shown$/);
      assert.equal(result.deep, 40);
      assert.equal(result.deepNote, " 1 key, nested too deep to show");
    }));
  test("a shell command is shown whole and wrapped, marked when long", () =>
    withPage(env, {}, async (page) => {
      const command = `curl -d @report.json http://a/reports ${"-H 'X: y' ".repeat(300)}http://b/x`;
      await page.evaluate((command) => window.harness.show("bash", { patch: { input: { command } } }), command);
      const c = page.locator(card(0));
      const pre = c.locator(".tg-command pre");
      assert.equal(await pre.innerText(), command, "every character of the command");
      assert.equal(await pre.getAttribute("data-long"), "");
      assert.match(await c.locator(".tg-command .tg-label").innerText(), /^Command, shown in full \(long: \d+ characters\)$/);
      const box = await pre.boundingBox();
      assert.ok(box !== null && box.width < 1000, "wrapped, not scrolled");
      await page.evaluate(() => window.harness.show("bash"));
      assert.equal(await page.locator(card(1)).locator(".tg-command .tg-label").innerText(), "Command");
    }));

  test("remember answers name the exact rule they save, and are not offered without one", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      const c = page.locator(card(0));
      assert.equal(await c.locator(".tg-rules").innerText(), "Remembering saves the rule Write(//home/ada/proj/src/app.ts)");
      await page.evaluate(() => window.harness.show("write", { patch: { rules: [] } }));
      const none = page.locator(card(1));
      assert.equal(await none.getByLabel("Remember for this session").count(), 0);
      assert.equal(await none.getByLabel("Always allow (saved rule)").count(), 0);
    }));

  test("hidden characters are written out, not obeyed", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() =>
        window.harness.show("write", {
          patch: { title: "Write\u200b", description: "Write to file: docs/\u202etxt.emdaer", input: { file_path: "docs/\u202etxt.emdaer", content: "a\u001b[2Kb" } },
        }),
      );
      const c = page.locator(card(0));
      assert.equal(await c.locator(".tg-description").innerText(), "Write to file: docs/\\u{202e}txt.emdaer");
      assert.equal(await c.locator(".tg-title").innerText(), "Write\\u{200b}");
      const json = await c.locator(".tg-json").innerText();
      assert.match(json, /docs\/\\u\{202e\}txt\.emdaer/);
      assert.ok(!/[\u202e\u200b\u001b]/.test(await c.innerText()), "nothing hidden reaches the page");
    }));
});
