// The wasm engine in headless Chromium (the package's web entry, `init()` fetching the wasm)
// decides every case of the corpus and of the generated corpus exactly as the native engine
// did, and every corpus case meets its expectations.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { launchChromium } from "../browser/chromium.mjs";

import { loadCorpus, loadGenerated } from "./load.mjs";
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

/** Runs `body(api, replay, arg)` in a fresh page with the web entry loaded. */
async function inPage(body, arg) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(String(err)));
  await page.goto(`${server.url}blank.html`);
  const result = await page.evaluate(
    async ({ source, arg }) => {
      const api = await import("/pkg/web/toolgate.js");
      await api.default();
      const replay = await import("/tests/differential/replay.mjs");
      return new Function(`return (${source})`)()(api, replay, arg);
    },
    { source: body.toString(), arg },
  );
  await page.close();
  assert.deepEqual(problems, []);
  return result;
}

test("wasm in Chromium: every corpus case is decided as natively and meets its expectations", async (t) => {
  const corpus = loadCorpus();
  const result = await inPage((api, replay, text) => replay.replayCorpus(api, JSON.parse(text)), JSON.stringify(corpus));
  t.diagnostic(`chromium: ${result.cases} cases in ${result.files} files decided in ${result.ms.toFixed(1)} ms`);
  assert.deepEqual(result.mismatches, []);
  assert.deepEqual(result.failures, []);
  assert.equal(result.cases, corpus.cases);
});

test("wasm in Chromium agrees with native on every generated decision", async () => {
  const generated = loadGenerated();
  const { compared, mismatches } = await inPage(async (api, replay) => {
    const corpus = await (await fetch("/tests/output/differential.json")).json();
    return replay.replayGenerated(api.Policy, corpus);
  });
  assert.deepEqual(mismatches, []);
  assert.equal(compared, generated.cases.reduce((n, c) => n + c.requests.length, 0));
});
