// Shared set-up for the card's browser tests: Debian's Chromium through
// playwright-core, the harness server, and per-page checks for CSP violations.

import { launchChromium } from "../chromium.mjs";
import { startServer } from "./server.mjs";

/** Starts the server and the browser; `close()` stops both. */
export async function launch() {
  const server = await startServer();
  const browser = await launchChromium();
  return {
    server,
    browser,
    /**
     * Opens the harness in a fresh context and records CSP violations and
     * console errors on `page.problems`.
     *
     * @param {{ colorScheme?: "light" | "dark", theme?: "light" | "dark" }} [options]
     */
    async open(options = {}) {
      const context = await browser.newContext({
        colorScheme: options.colorScheme ?? "light",
        viewport: { width: 900, height: 900 },
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      /** @type {string[]} */
      const problems = [];
      await page.addInitScript(() => {
        /** @type {any} */ (window).cspViolations = [];
        document.addEventListener("securitypolicyviolation", (event) => {
          /** @type {any} */ (window).cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()} (${message.location().url})`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await page.goto(`${server.url}/`);
      await page.waitForSelector("html[data-ready=true]", { state: "attached", timeout: 10_000 }).catch(async (error) => {
        throw new Error(`harness did not start: ${problems.join("; ")}`, { cause: error });
      });
      if (options.theme) await page.evaluate((theme) => (document.documentElement.dataset.theme = theme), options.theme);
      return {
        page,
        /** Console errors, page errors and CSP violations seen so far. */
        async problems() {
          const csp = await page.evaluate(() => /** @type {any} */ (window).cspViolations);
          return [...problems, ...csp.map((/** @type {string} */ v) => `csp: ${v}`)];
        },
        close: () => context.close(),
      };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Runs `body` on a fresh harness page and fails if the page logged an error
 * or violated its CSP meanwhile.
 *
 * @template T
 * @param {Awaited<ReturnType<typeof launch>>} env
 * @param {Parameters<Awaited<ReturnType<typeof launch>>["open"]>[0]} options
 * @param {(page: import("playwright-core").Page) => Promise<T>} body
 * @returns {Promise<T>}
 */
export async function withPage(env, options, body) {
  const opened = await env.open(options);
  try {
    const result = await body(opened.page);
    const problems = await opened.problems();
    if (problems.length > 0) throw new Error(`the page reported problems:\n${problems.join("\n")}`);
    return result;
  } finally {
    await opened.close();
  }
}

/** The last event the harness recorded, or undefined. */
export function lastEvent(/** @type {import("playwright-core").Page} */ page) {
  return page.evaluate(() => /** @type {any} */ (window).harness.events.at(-1));
}

/** All events the harness recorded. */
export function events(/** @type {import("playwright-core").Page} */ page) {
  return page.evaluate(() => /** @type {any} */ (window).harness.events.map((/** @type {any} */ e) => ({ type: e.type, detail: e.detail })));
}
