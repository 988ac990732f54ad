// `npm start`'s page in headless Chromium (Debian's, driven by playwright-core): the server
// script starts as a child process, the page loads the package's browser build under its
// strict CSP, and the values the wasm engine computed are on screen. A screenshot goes to
// tests/output/ (git-ignored).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

const ROOT = new URL("../../", import.meta.url);
const OUTPUT = fileURLToPath(new URL("tests/output/", ROOT));
const corpus = JSON.parse(readFileSync(new URL("tests/smoke/cases.json", ROOT), "utf8"));
const crateVersion = readFileSync(new URL("Cargo.toml", ROOT), "utf8").match(
  /^version = "([^"]+)"/m,
)[1];

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

let server;
let url;
let browser;

/** Starts `node scripts/serve.mjs` on a free port and resolves to the URL it prints. */
function startServer() {
  server = spawn(process.execPath, [fileURLToPath(new URL("scripts/serve.mjs", ROOT))], {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`server printed no URL: ${out}`)), 10_000);
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    server.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

before(async () => {
  url = await startServer();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

test("the page shows values computed by the wasm engine", async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on("console", (msg) => msg.type() === "error" && problems.push(msg.text()));
  page.on("pageerror", (err) => problems.push(String(err)));

  const response = await page.goto(url);
  assert.equal(response.status(), 200);
  assert.match(response.headers()["content-security-policy"], /'wasm-unsafe-eval'/);

  await page.waitForSelector("body[data-ready]", { timeout: 15_000 });
  assert.equal(await page.getAttribute("body", "data-ready"), "true");
  assert.equal(await page.textContent("[data-testid=version]"), crateVersion);

  const bash = corpus.toolDefaults.find((c) => c.name === "Bash").defaults;
  const row = page.locator("tr[data-tool=Bash] td");
  assert.deepEqual(await row.allTextContents(), [
    "Bash",
    "asks a person",
    bash.risk,
    bash.trustable ? "yes" : "no",
  ]);
  assert.match(await page.textContent("[data-testid=error]"), /UNKNOWN_TOOL: unknown tool `bash -c`/);

  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}www-smoke.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});
