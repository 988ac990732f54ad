// `npm start`'s page in headless Chromium (Debian's, driven by playwright-core): the server
// script starts as a child process, the page loads the package's browser build under its
// strict CSP, and the values the wasm engine computed are on screen. A screenshot goes to
// tests/output/ (git-ignored).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { launchChromium, startDemoServer } from "./chromium.mjs";

const ROOT = new URL("../../", import.meta.url);
const OUTPUT = fileURLToPath(new URL("tests/output/", ROOT));
const corpus = JSON.parse(readFileSync(new URL("tests/smoke/cases.json", ROOT), "utf8"));
const crateVersion = readFileSync(new URL("Cargo.toml", ROOT), "utf8").match(
  /^version = "([^"]+)"/m,
)[1];

let server;
let url;
let browser;

before(async () => {
  server = await startDemoServer();
  url = server.url;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.stop();
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
