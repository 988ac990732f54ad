// Debian's Chromium through playwright-core, launched the one way every browser test (and the
// benchmark) uses, and the demo server started as a child process.
//
// The background-networking flags matter: the network here is closed, and without them
// Chromium floods it with refused connections. `CHROMIUM` (or `CHROMIUM_PATH`) names another
// browser binary.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

const ROOT = new URL("../../", import.meta.url);

export const CHROMIUM_PATH = process.env.CHROMIUM ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Launches headless Chromium; `extraArgs` are added to the common flags. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Starts `node scripts/serve.mjs` on a free port and resolves to `{ url, stop }`. */
export function startDemoServer() {
  const child = spawn(process.execPath, [fileURLToPath(new URL("scripts/serve.mjs", ROOT))], {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the server printed no URL: ${out}`)), 10_000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[0], stop: () => child.kill() });
      }
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
  });
}
