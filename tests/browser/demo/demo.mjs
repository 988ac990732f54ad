// Shared set-up for the demo's browser tests: the real demo server (scripts/serve.mjs, started
// as a child process on a free port), Debian's Chromium through playwright-core, and pages
// that record console errors, page errors and CSP violations.
//
// TOOLGATE_DEMO_URL=http://127.0.0.1:8080/ runs the tests against a server that is already up.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { launchChromium, startDemoServer } from "../chromium.mjs";

const ROOT = new URL("../../../", import.meta.url);
export const OUTPUT = fileURLToPath(new URL("tests/output/", ROOT));
mkdirSync(OUTPUT, { recursive: true });

/** The demo server, or the one `TOOLGATE_DEMO_URL` names. */
function startServer() {
  if (process.env.TOOLGATE_DEMO_URL) return Promise.resolve({ url: process.env.TOOLGATE_DEMO_URL, stop() {} });
  return startDemoServer();
}

/** Starts the server and the browser; `close()` stops both. */
export async function launch() {
  const server = await startServer();
  const browser = await launchChromium();
  return {
    url: server.url,
    browser,
    /**
     * Opens `path` (relative to the server, e.g. `demo/?pace=0`) in a fresh context, or in
     * `options.context` to keep its localStorage, and waits for `body[data-ready]`.
     *
     * @param {string} path
     * @param {{ colorScheme?: "light" | "dark", context?: import("playwright-core").BrowserContext }} [options]
     */
    async open(path, options = {}) {
      const context =
        options.context ??
        (await browser.newContext({ colorScheme: options.colorScheme ?? "light", viewport: { width: 1280, height: 900 }, acceptDownloads: true }));
      const page = await context.newPage();
      /** @type {string[]} */
      const problems = [];
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      const response = await page.goto(new URL(path, server.url).href);
      await page.waitForSelector("body[data-ready]", { state: "attached", timeout: 20_000 });
      const ready = await page.getAttribute("body", "data-ready");
      if (ready !== "true") throw new Error(`the page did not start (${ready}): ${problems.join("; ")} ${await page.innerText("body")}`);
      return { page, context, response, problems };
    },
    async close() {
      await browser.close();
      server.stop();
    },
  };
}

/** The pending card of `tool` (the first one if several). */
export function pendingCard(page, tool) {
  const selector = tool ? `toolgate-approval-card[data-tool="${tool}"]` : "toolgate-approval-card";
  return page.locator(`${selector}:not([data-state="settled"]):not([data-state="answered"])`).first();
}

/** The chat line that reports how the `n`th call that ended (0-based, in order) settled. */
export function outcomeLines(page) {
  return page.locator("#chat-log .msg[data-status]");
}

/** Waits past the card's key guard (Enter is ignored for 300 ms after a card appears). */
export const KEY_GUARD_MS = 350;
