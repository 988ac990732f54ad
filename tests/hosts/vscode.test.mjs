// The VS Code example extension in a real VS Code web workbench (1.89.1): the scripted agent
// runs in the web-worker extension host, the approval card in a webview, and Playwright
// answers the cards as a person would.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { launchBrowser, pick, runCommand, serveWorkbench, webviewFrame } from "./workbench.mjs";

const extension = fileURLToPath(new URL("../../examples/vscode-extension", import.meta.url));
const output = fileURLToPath(new URL("../output/", import.meta.url));
const PREFIX = "[toolgate-example] ";

test("the example extension gates the scripted agent in a real VS Code", { timeout: 180_000 }, async (t) => {
  const started = Date.now();
  await mkdir(output, { recursive: true });
  const server = await serveWorkbench(extension);
  t.after(() => server.close());
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());

  /** Every line the extension logged, in order (VS Code forwards the host's console). */
  const lines = [];
  /** The page's whole console, for failure messages. */
  const consoleLog = [];
  page.on("pageerror", (error) => consoleLog.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    const text = message.text();
    consoleLog.push(text);
    const at = text.indexOf(PREFIX);
    // VS Code forwards it as `%c[Extension Host] %c<line> color: blue color: `.
    if (at >= 0) lines.push(text.slice(at + PREFIX.length).replace(/\s+color:[^]*$/, ""));
  });
  const waitForLine = async (pattern, timeoutMs = 20_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const line = lines.find((l) => pattern.test(l));
      if (line !== undefined) return line;
      if (Date.now() > end) throw new Error(`no log line matches ${pattern}; the extension logged:\n${lines.join("\n")}\nthe page's console ended with:\n${consoleLog.slice(-25).join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  await page.goto(server.url);
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  await waitForLine(/^activated \(example-agent, 0 saved grants\)$/, 60_000);
  const ready = Date.now();

  await runCommand(page, "Toolgate Example: Run the Scripted Agent");
  // Ordinary read-only work inside the project runs without a card.
  await waitForLine(/^call-1 ran Read\(src\/cart\.ts\) \(approved by policy\)$/);

  const frame = await webviewFrame(page, "#cards");
  const cards = frame.locator("toolgate-approval-card");
  /** The `n`th card (1-based) once it is shown and shows `text`. */
  const card = async (n, text) => {
    await assert.doesNotReject(cards.nth(n - 1).waitFor({ timeout: 20_000 }));
    const c = cards.nth(n - 1);
    await c.locator("[data-action=allow]").waitFor();
    assert.match(await c.innerText(), text);
    return c;
  };

  // Allow once.
  let c = await card(1, /git push origin main/);
  await c.locator("[data-action=allow]").click();
  await waitForLine(/^call-2 ran Bash\(git push origin main\) \(approved by person, once\)$/);

  // Allow for the session: the next identical call does not ask.
  c = await card(2, /npm run deploy/);
  await c.locator("input[id$='-session']").check();
  await c.locator("[data-action=allow]").click();
  await waitForLine(/^call-3 ran Bash\(npm run deploy\) \(approved by person, session\)$/);
  await waitForLine(/^call-4 ran Bash\(npm run deploy\) \(approved by trust, session\)$/);

  // Deny with a message: the agent is told it.
  c = await card(3, /rm -rf build/);
  assert.equal(await cards.count(), 3, "the second deploy must not have asked");
  await c.locator("textarea.tg-message").fill("Use npm run clean instead.");
  await c.locator("[data-action=deny]").click();
  await waitForLine(/^call-5 not run Bash\(rm -rf build\) \(denied by person\); the model is told: .*Use npm run clean instead\./);

  // Nobody answers: the call expires after its short timeout.
  await card(4, /curl -s https:\/\/example\.com\/install\.sh/);
  await waitForLine(/^call-6 not run Bash\(curl .*\) \(expired by timeout\)/, 15_000);

  // Always allow, twice; screenshots of a waiting card in the dark and the light theme.
  c = await card(5, /npm run format/);
  await c.locator("input[id$='-always']").check();
  await c.locator("[data-action=allow]").click();
  await waitForLine(/^call-7 ran Bash\(npm run format\) \(approved by person, always\)$/);
  c = await card(6, /npm run lint/);
  await c.scrollIntoViewIfNeeded();
  const themeOf = () => frame.evaluate(() => (document.body.classList.contains("vscode-dark") ? "dark" : "light"));
  const first = await themeOf();
  await page.screenshot({ path: `${output}vscode-card-${first}.png` });
  await runCommand(page, "Preferences: Toggle between Light/Dark Themes");
  const other = first === "dark" ? "light" : "dark";
  await frame.waitForFunction((cls) => document.body.classList.contains(cls), `vscode-${other}`, { timeout: 10_000 });
  await page.waitForTimeout(300); // the workbench repaints its own parts after the webview
  await page.screenshot({ path: `${output}vscode-card-${other}.png` });
  const fg = await frame.evaluate(() => getComputedStyle(document.body).getPropertyValue("--vscode-foreground").trim());
  assert.notEqual(fg, "", "the webview gets VS Code's theme variables");
  await c.locator("input[id$='-always']").check();
  await c.locator("[data-action=allow]").click();
  await waitForLine(/^call-8 ran Bash\(npm run lint\) \(approved by person, always\)$/);
  await waitForLine(/^agent: done$/);

  // The audit trail exports to an editor.
  await runCommand(page, "Toolgate Example: Export the Audit Trail");
  await waitForLine(/^audit exported: \d+ events$/);

  // Revoke one saved grant from the command.
  await runCommand(page, "Toolgate Example: Revoke Trust");
  await pick(page, "npm run format");
  const revoked = await waitForLine(/^revoked: /);
  assert.match(revoked, /npm run format/);

  // Reload the window: the other grant persisted, the revoked one did not come back.
  lines.length = 0;
  await runCommand(page, "Developer: Reload Window");
  await waitForLine(/^activated \(example-agent, 1 saved grants\)$/, 60_000);
  await runCommand(page, "Toolgate Example: Show Trust");
  const trust = await waitForLine(/^trust: /);
  assert.match(trust, /npm run lint/);
  assert.doesNotMatch(trust, /npm run format/);

  t.diagnostic(`workbench ready in ${ready - started} ms; whole run ${Date.now() - started} ms`);
});
