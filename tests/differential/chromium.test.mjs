// The wasm engine in headless Chromium (the package's web entry, `init()` fetching the wasm)
// decides the differential corpus exactly as the native engine did.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { launchChromium } from "../browser/chromium.mjs";

import { loadCorpus, replay } from "./corpus.mjs";
import { serveRoot } from "./serve.mjs";

let server;
let browser;

before(async () => {
  server = await serveRoot();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
});

test("wasm in Chromium agrees with native on every generated decision", async () => {
  const corpus = loadCorpus();
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(String(err)));
  await page.goto(`${server.url}blank.html`);
  const { compared, mismatches } = await page.evaluate(
    async ({ replaySource }) => {
      const api = await import("/pkg/web/toolgate.js");
      await api.default();
      const corpus = await (await fetch("/tests/output/differential.json")).json();
      const replay = new Function(`return (${replaySource})`)();
      return replay(api.PolicyEngine, corpus);
    },
    { replaySource: replay.toString() },
  );
  assert.deepEqual(mismatches, []);
  assert.equal(compared, corpus.cases.reduce((n, c) => n + c.requests.length, 0));
  assert.deepEqual(problems, []);
  await page.close();
});
