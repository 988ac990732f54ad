// The packed package in headless Chromium: installed from its tarball into a scratch project
// that a small static server serves, then loaded by a plain `<script type="module">` page,
// by a page under a strict (VS Code webview style) Content-Security-Policy, and used to
// decide every corpus case (equal to the native decisions).
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";

import { launchChromium } from "./chromium.mjs";

import { loadCorpus } from "../differential/load.mjs";
import { scratchProject } from "../js/package/scratch.mjs";

const ROOT = new URL("../../", import.meta.url);
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
// A VS Code webview's policy: nothing but the extension's own scripts and the wasm compile.
export const STRICT_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'";

let dir;
let server;
let origin;
let browser;

before(async () => {
  ({ dir } = scratchProject());
  copyFileSync(new URL("tests/differential/replay.mjs", ROOT), join(dir, "replay.mjs"));
  writeFileSync(
    join(dir, "module.html"),
    `<!doctype html><meta charset="utf-8"><title>module</title>
<script type="module">
import init, { Policy, version } from "./node_modules/toolgate/web/toolgate.js";
await init();
const engine = new Policy({ permissions: { deny: ["Bash(curl *)"] } });
document.body.dataset.effect = engine.evaluate({ tool: "Bash", input: { command: "curl x" } }).effect;
document.body.dataset.version = version();
</script><body></body>`,
  );
  writeFileSync(
    join(dir, "strict.html"),
    `<!doctype html><meta charset="utf-8"><title>strict</title><body><script type="module" src="./strict.js"></script></body>`,
  );
  writeFileSync(
    join(dir, "strict.js"),
    `import init, { ApprovalBroker } from "./node_modules/toolgate/web/toolgate.js";
await init(new URL("./node_modules/toolgate/web/toolgate_bg.wasm", import.meta.url));
const broker = new ApprovalBroker({ policy: {} });
broker.onRequest((a) => broker.respond(a.id, { kind: "deny", message: "no" }));
const outcome = await broker.requestApproval({ sessionId: "s", request: { tool: "Bash", input: { command: "git push" } } });
document.body.dataset.status = outcome.status;
`,
  );
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path.includes("..")) return res.writeHead(403).end();
    if (path === "/favicon.ico") return res.writeHead(204).end();
    let body;
    try {
      body = readFileSync(join(dir, path));
    } catch {
      return res.writeHead(404).end();
    }
    const headers = { "Content-Type": TYPES[extname(path)] ?? "application/octet-stream" };
    if (path.startsWith("/strict") || path === "/parity.html") headers["Content-Security-Policy"] = STRICT_CSP;
    res.writeHead(200, headers).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  writeFileSync(join(dir, "parity.html"), "<!doctype html><title>parity</title><body></body>");
  writeFileSync(
    join(dir, "bridge-worker.js"),
    `import { createApprovalClient } from "./node_modules/toolgate/web/toolgate.js";
const client = createApprovalClient(self);
client.onRequest((a) => client.respond(a.id, { kind: "deny", message: "from the worker" }));
`,
  );
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function open(path) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(String(err)));
  page.on("console", (msg) => msg.type() === "error" && problems.push(msg.text()));
  await page.goto(`${origin}/${path}`);
  return { page, problems };
}

test("a plain <script type=module> page loads the package with init()", async () => {
  const { page, problems } = await open("module.html");
  await page.waitForSelector("body[data-effect]", { state: "attached", timeout: 15_000 }).catch((e) => assert.fail(`${e}: ${problems}`));
  assert.equal(await page.getAttribute("body", "data-effect"), "deny");
  assert.match(await page.getAttribute("body", "data-version"), /^\d+\.\d+\.\d+/);
  assert.deepEqual(problems, []);
});

test("a page under a strict CSP runs the broker", async () => {
  const { page, problems } = await open("strict.html");
  await page.waitForSelector("body[data-status]", { state: "attached", timeout: 15_000 }).catch((e) => assert.fail(`${e}: ${problems}`));
  assert.equal(await page.getAttribute("body", "data-status"), "denied");
  assert.deepEqual(problems, []);
});

test("every corpus case in Chromium equals the native decision", async () => {
  const corpus = JSON.stringify(loadCorpus());
  const { page } = await open("parity.html");
  const result = await page.evaluate(async (text) => {
    const api = await import("/node_modules/toolgate/web/toolgate.js");
    const { replayCorpus } = await import("/replay.mjs");
    await api.default();
    const { cases, mismatches, failures } = replayCorpus(api, JSON.parse(text));
    return { cases, mismatches, failures };
  }, corpus);
  assert.ok(result.cases >= 1000, `${result.cases} cases`);
  assert.deepEqual(result.mismatches, []);
  assert.deepEqual(result.failures, []);
});

test("localStorage and IndexedDB storage keep grants; tampered data is refused", async () => {
  const { page } = await open("parity.html");
  const result = await page.evaluate(async () => {
    const api = await import("/node_modules/toolgate/web/toolgate.js");
    await api.default();
    const out = {};
    const bash = (command) => ({ sessionId: "s", request: { tool: "Bash", input: { command }, cwd: "/p" } });
    for (const [name, make] of [
      ["localStorage", () => api.localStorageTrustStorage("toolgate.test")],
      ["indexedDb", () => api.indexedDbTrustStorage({ database: "toolgate-test" })],
    ]) {
      const first = new api.ApprovalBroker({ policy: {}, storage: make() });
      await first.ready;
      const p = first.requestApproval(bash("npm run lint"));
      first.respond(first.pending()[0].id, { kind: "allow", scope: "always" });
      await p;
      await first.trust.flushStorage();
      const second = new api.ApprovalBroker({ policy: {}, storage: make() });
      await second.ready;
      const by = (await second.requestApproval(bash("npm run lint"))).by;
      // Tamper with the stored text, then load it again.
      const doc = second.trust.export();
      doc.grants[0].rule = "Bash(npm run build)";
      await make().save(JSON.stringify(doc));
      const third = new api.ApprovalBroker({ policy: {}, storage: make(), onError: () => {} });
      const code = await third.ready.then(() => "loaded", (err) => `${err instanceof api.ToolgateError}:${err.code}`);
      out[name] = { by, code, grants: third.trust.list().length };
    }
    return out;
  });
  assert.deepEqual(result, {
    localStorage: { by: "trust", code: "true:TAMPERED", grants: 0 },
    indexedDb: { by: "trust", code: "true:TAMPERED", grants: 0 },
  });
});

test("the bridge in Chromium: the UI in a real module Worker answers the page's broker", async () => {
  const { page, problems } = await open("parity.html");
  const result = await page.evaluate(async () => {
    const api = await import("/node_modules/toolgate/web/toolgate.js");
    await api.default();
    const broker = new api.ApprovalBroker({ policy: {} });
    const worker = new Worker("/bridge-worker.js", { type: "module" });
    const detach = api.createBrokerHost(broker, worker);
    const outcome = await broker.requestApproval({ sessionId: "s", request: { tool: "Bash", input: { command: "git push" } } });
    detach();
    worker.terminate();
    return { status: outcome.status, message: outcome.message };
  });
  assert.deepEqual(result, { status: "denied", message: "from the worker" });
  assert.deepEqual(problems, []);
});
