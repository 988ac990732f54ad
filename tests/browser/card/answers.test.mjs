// How people answer the card: each answer by mouse and by keyboard, the
// remember checkboxes, edited arguments, deny messages, batches, focus.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { events, launch, withPage } from "./browser.mjs";

/** @type {Awaited<ReturnType<typeof launch>>} */
let env;
before(async () => (env = await launch()));
after(async () => env?.close());

const card = (/** @type {number} */ n) => `toolgate-approval-card >> nth=${n}`;
const answer = (/** @type {string} */ id, /** @type {object} */ answer) => ({ type: "toolgate-answer", detail: { id, answer } });

describe("answers by mouse", () => {
  test("Allow sends allow once and leaves a record", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      await page.locator(card(0)).getByRole("button", { name: "Allow", exact: true }).click();
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "allow", scope: "once" })]);
      assert.equal(await page.locator(card(0)).innerText(), "Allowed once: Bash(npm test && rm -rf build)");
      assert.equal(await page.locator(card(0)).getAttribute("data-state"), "settled");
    }));

  test("Remember for this session sends the session scope", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      const c = page.locator(card(0));
      await c.getByLabel("Remember for this session").check();
      await c.getByRole("button", { name: "Allow", exact: true }).click();
      assert.deepEqual(await events(page), [answer("apr-write-1", { kind: "allow", scope: "session" })]);
      assert.equal(await c.innerText(), "Allowed for this session: Write(src/app.ts) — remembers Write(//home/ada/proj/src/app.ts)");
    }));

  test("Always allow sends the always scope", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      const c = page.locator(card(0));
      await c.getByLabel("Always allow (saved rule)").check();
      await c.getByRole("button", { name: "Allow", exact: true }).click();
      assert.deepEqual(await events(page), [answer("apr-write-1", { kind: "allow", scope: "always" })]);
      assert.equal(await c.innerText(), "Always allowed: Write(src/app.ts) — remembers Write(//home/ada/proj/src/app.ts)");
    }));

  test("Deny sends the message for the model", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      const c = page.locator(card(0));
      await c.getByLabel("Message to the agent if you deny (optional)").fill("  keep the build folder \n");
      await c.getByRole("button", { name: "Deny", exact: true }).click();
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "deny", message: "keep the build folder" })]);
      assert.equal(await c.innerText(), "Denied: Bash(npm test && rm -rf build) — “keep the build folder”");
    }));

  test("Allow all and Deny all appear only with a pending batch", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => {
        window.harness.show("bash");
        window.harness.show("write", { batch: true });
      });
      assert.equal(await page.locator(card(0)).getByRole("button", { name: "Allow all" }).count(), 0);
      // `write` does not list allowAll / denyAll: no batch buttons even with `batch`.
      assert.equal(await page.locator(card(1)).getByRole("button", { name: "Allow all" }).count(), 0);
      assert.equal(await page.locator(card(0)).locator(".tg-keys").innerText(), "Enter allow Esc deny");
      await page.evaluate(() => (document.querySelector("toolgate-approval-card").batch = true));
      assert.equal(await page.locator(card(0)).locator(".tg-keys").innerText(), "Enter allow Esc deny Alt+Enter allow all Alt+Esc deny all");
      await page.locator(card(0)).getByRole("button", { name: "Allow all" }).click();
      assert.deepEqual(await events(page), [{ type: "toolgate-answer-all", detail: { kind: "allowAll" } }]);
      await page.evaluate(() => {
        window.harness.reset();
        window.harness.show("bash", { batch: true });
      });
      await page.locator(card(0)).getByRole("button", { name: "Deny all" }).click();
      assert.deepEqual(await events(page), [{ type: "toolgate-answer-all", detail: { kind: "denyAll" } }]);
    }));

  test("edited arguments are checked as JSON before the allow is sent", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash", { editable: true }));
      const c = page.locator(card(0));
      const edit = c.getByRole("button", { name: "Edit arguments" });
      await edit.click();
      assert.equal(await edit.getAttribute("aria-expanded"), "true");
      const area = c.getByLabel("Arguments to send (JSON)");
      await area.fill('{"command": "npm test",');
      await c.getByRole("button", { name: "Allow", exact: true }).click();
      assert.deepEqual(await events(page), [], "invalid JSON sends nothing");
      assert.match(await c.locator(".tg-editor .tg-error").innerText(), /^the arguments are not valid JSON \(.+\): fix them/);
      assert.equal(await area.getAttribute("aria-invalid"), "true");
      assert.equal(await page.evaluate(() => document.activeElement?.id.endsWith("-edit")), true);

      await area.fill('["npm test"]');
      await c.getByRole("button", { name: "Allow", exact: true }).click();
      assert.deepEqual(await events(page), []);
      assert.match(await c.locator(".tg-editor .tg-error").innerText(), /must be a JSON object/);

      await area.fill('{"command": "npm test", "timeout": 60000}');
      await c.getByRole("button", { name: "Allow", exact: true }).click();
      assert.deepEqual(await events(page), [
        answer("apr-bash-1", { kind: "allow", scope: "once", editedInput: { command: "npm test", timeout: 60000 } }),
      ]);
    }));

  test("unchanged arguments in an open editor send no editedInput", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write", { editable: true }));
      const c = page.locator(card(0));
      await c.getByRole("button", { name: "Edit arguments" }).click();
      await c.getByRole("button", { name: "Allow", exact: true }).click();
      assert.deepEqual(await events(page), [answer("apr-write-1", { kind: "allow", scope: "once" })]);
    }));

  test("a host that prevents the event settles the card itself", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write", { hold: true }));
      const c = page.locator(card(0));
      await c.getByLabel("Remember for this session").check();
      await c.getByRole("button", { name: "Allow", exact: true }).click();
      assert.equal(await c.getAttribute("data-state"), "answered");
      assert.equal(await c.locator("button:disabled").count(), await c.locator("button").count());
      await page.evaluate(() => document.querySelector("toolgate-approval-card").settle({ status: "approved", scope: "session" }));
      assert.equal(await c.innerText(), "Allowed for this session: Write(src/app.ts) — remembers Write(//home/ada/proj/src/app.ts)");
      const thrown = await page.evaluate(() => {
        try {
          document.querySelector("toolgate-approval-card").settle({ status: "maybe" });
          return null;
        } catch (error) {
          return `${error.name}: ${error.message}`;
        }
      });
      assert.equal(thrown, "TypeError: unknown status `maybe`: expected `approved`, `denied`, `expired` or `cancelled`");
      await page.evaluate(() => document.querySelector("toolgate-approval-card").settle({ status: "cancelled" }));
      assert.equal(await c.innerText(), "Cancelled: Write(src/app.ts)");
    }));
});

describe("answers by keyboard", () => {
  test("Enter allows the focused card", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("tg-card")), true, "a new card takes focus");
      await page.keyboard.press("Enter");
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "allow", scope: "once" })]);
    }));

  test("Escape denies the focused card", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      await page.keyboard.press("Escape");
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "deny" })]);
    }));

  test("Tab reaches the checkboxes; Space ticks, Enter allows for the session", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("write"));
      const c = page.locator(card(0));
      const session = c.getByLabel("Remember for this session");
      for (let i = 0; i < 12 && !(await session.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press("Tab");
      }
      assert.equal(await session.evaluate((el) => el === document.activeElement), true, "Tab reaches the checkbox");
      await page.keyboard.press("Space");
      await page.keyboard.press("Enter");
      assert.deepEqual(await events(page), [answer("apr-write-1", { kind: "allow", scope: "session" })]);
    }));

  test("Enter on the focused Deny button denies; Enter in the message does not answer", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      const c = page.locator(card(0));
      await c.getByLabel("Message to the agent if you deny (optional)").focus();
      await page.keyboard.type("not now");
      await page.keyboard.press("Enter");
      assert.deepEqual(await events(page), [], "Enter in a textarea types a newline");
      await c.getByRole("button", { name: "Deny", exact: true }).focus();
      await page.keyboard.press("Enter");
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "deny", message: "not now" })]);
    }));

  test("Escape in the message denies with the message", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      await page.locator(card(0)).getByLabel("Message to the agent if you deny (optional)").fill("use make clean");
      await page.keyboard.press("Escape");
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "deny", message: "use make clean" })]);
    }));

  test("Alt+Enter allows all and Alt+Escape denies all, only with a batch", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash"));
      await page.keyboard.press("Alt+Enter");
      await page.keyboard.press("Alt+Escape");
      assert.deepEqual(await events(page), [], "no batch, no batch answers");
      await page.evaluate(() => (document.querySelector("toolgate-approval-card").batch = true));
      await page.keyboard.press("Alt+Enter");
      assert.deepEqual(await events(page), [{ type: "toolgate-answer-all", detail: { kind: "allowAll" } }]);
      await page.evaluate(() => {
        window.harness.reset();
        window.harness.show("bash", { batch: true });
      });
      await page.keyboard.press("Alt+Escape");
      assert.deepEqual(await events(page), [{ type: "toolgate-answer-all", detail: { kind: "denyAll" } }]);
    }));

  test("Enter right after a card appears is ignored for keyGuardMs", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => window.harness.show("bash", { keyGuardMs: 400 }));
      await page.keyboard.press("Enter");
      assert.deepEqual(await events(page), []);
      await page.waitForTimeout(450);
      await page.keyboard.press("Enter");
      assert.equal((await events(page)).length, 1);
    }));

  test("a second Enter right after answering does not allow the card focus moved to", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => {
        window.harness.show("bash", { keyGuardMs: 300 });
        window.harness.show("write", { keyGuardMs: 300 });
      });
      // Both cards were shown long ago: only the guard from focus can hold the second Enter.
      await page.waitForTimeout(400);
      await page.locator(card(0)).locator(".tg-card").focus();
      await page.waitForTimeout(400);
      await page.keyboard.press("Enter");
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "allow", scope: "once" })]);
      assert.equal(await page.evaluate(() => document.activeElement?.closest("toolgate-approval-card")?.approval.id), "apr-write-1", "focus moved to the next card");
      await page.keyboard.press("Enter");
      assert.equal((await events(page)).length, 1, "the second Enter allows nothing");
      await page.waitForTimeout(350);
      await page.keyboard.press("Enter");
      assert.deepEqual((await events(page)).at(-1), answer("apr-write-1", { kind: "allow", scope: "once" }));
    }));

  test("keys act on the focused card only, and answering moves focus to the next card", () =>
    withPage(env, {}, async (page) => {
      await page.evaluate(() => {
        window.harness.show("bash");
        window.harness.show("write");
        window.harness.show("mcp");
      });
      assert.equal(await page.evaluate(() => document.activeElement?.closest("toolgate-approval-card")?.approval.id), "apr-mcp-1", "the newest card has focus");
      await page.locator(card(0)).locator(".tg-card").focus();
      await page.keyboard.press("Escape");
      assert.deepEqual(await events(page), [answer("apr-bash-1", { kind: "deny" })]);
      assert.equal(await page.evaluate(() => document.activeElement?.closest("toolgate-approval-card")?.approval.id), "apr-write-1");
      // Each card that gets focus waits keyGuardMs before Enter allows it.
      await page.waitForTimeout(350);
      await page.keyboard.press("Enter");
      assert.deepEqual((await events(page)).at(-1), answer("apr-write-1", { kind: "allow", scope: "once" }));
      assert.equal(await page.evaluate(() => document.activeElement?.closest("toolgate-approval-card")?.approval.id), "apr-mcp-1");
      await page.waitForTimeout(350);
      await page.keyboard.press("Enter");
      assert.deepEqual((await events(page)).at(-1), answer("apr-mcp-1", { kind: "allow", scope: "once" }));
      assert.deepEqual(await page.locator("toolgate-approval-card").allInnerTexts(), [
        "Denied: Bash(npm test && rm -rf build)",
        "Allowed once: Write(src/app.ts)",
        "Allowed once: mcp__weather__forecast",
      ]);
    }));

  test("a new card does not take focus from the chat input", () =>
    withPage(env, {}, async (page) => {
      await page.locator("#chat").focus();
      await page.keyboard.type("hello");
      await page.evaluate(() => window.harness.show("bash"));
      assert.equal(await page.evaluate(() => document.activeElement?.id), "chat");
      await page.keyboard.press("Enter");
      assert.deepEqual(await events(page), [], "Enter in the chat does not reach the card");
      assert.equal(await page.locator("#chat").inputValue(), "hello\n");
      assert.match(await page.locator("#toolgate-live").textContent(), /^Approval needed: Run a shell command/);
    }));
});
