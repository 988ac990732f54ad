// The Electron example without Electron (its binary cannot be downloaded here): the sources
// type-check against Electron's real declarations, the main-process service runs in Node over
// a real MessageChannel and over a stand-in for ipcMain, and the renderer page runs in
// Chromium under its CSP with the preload replaced by the package's bridge over a
// MessageChannel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel } from "node:worker_threads";
import { chromium } from "playwright-core";
import { CHROMIUM } from "./workbench.mjs";

const example = fileURLToPath(new URL("../../examples/electron-app/", import.meta.url));
const output = fileURLToPath(new URL("../output/", import.meta.url));
const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));
const require = createRequire(join(example, "package.json"));

const until = async (check, what, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test("the example type-checks against Electron's declarations (main, preload, renderer)", () => {
  const electronTypes = join(example, "node_modules", "electron", "electron.d.ts");
  assert.ok(require.resolve("electron/package.json"), `install the example first: ${electronTypes}`);
  // tsc writes out/ (the Node tests below load it); the renderer is checked without output.
  execFileSync(process.execPath, [tsc, "-p", example], { stdio: "inherit" });
  execFileSync(process.execPath, [tsc, "-p", join(example, "renderer")], { stdio: "inherit" });
});

test("the main-process service: asks over a real MessageChannel, remembers always grants across restarts", async (t) => {
  const { createApprovalService } = require("./out/approvals.js");
  const { createApprovalClient } = require("toolgate");
  const dir = await mkdtemp(join(tmpdir(), "toolgate-electron-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const trustFile = join(dir, "trust.json");
  const call = (callId, command) => ({
    sessionId: "s1",
    callId,
    request: { tool: "Bash", input: { command }, cwd: "/home/ada/shop", agent: "electron-example" },
  });

  const service = createApprovalService({ trustFile });
  await service.ready;
  const { port1, port2 } = new MessageChannel();
  const detach = service.attach(port1);
  const client = createApprovalClient(port2);
  const seen = [];
  client.onRequest((a) => seen.push(a));

  const read = await service.broker.requestApproval({
    sessionId: "s1",
    request: { tool: "Read", input: { file_path: "src/cart.ts" }, cwd: "/home/ada/shop" },
  });
  assert.equal(read.status, "approved");
  assert.equal(read.by, "policy", "read-only work in the project runs without a prompt");

  const build = service.broker.requestApproval(call("c1", "npm run build"));
  await until(() => seen.length === 1, "the request in the renderer");
  client.respond(seen[0].id, { kind: "allow", scope: "always" });
  assert.deepEqual([(await build).status, (await build).scope], ["approved", "always"]);

  const push = service.broker.requestApproval(call("c2", "git push origin main"));
  await until(() => seen.length === 2, "the second request");
  client.denyAll("s1", "not now");
  const denied = await push;
  assert.equal(denied.status, "denied");
  assert.match(denied.feedback.aiMessage, /not now/);

  detach();
  client.close();
  port1.close();
  await service.close();

  const again = createApprovalService({ trustFile });
  await again.ready;
  const remembered = await again.broker.requestApproval(call("c3", "npm run build"));
  assert.deepEqual([remembered.status, remembered.by], ["approved", "trust"]);
  await again.close();
});

test("the IPC channel: one channel per message type, only from its own window", async () => {
  const { createApprovalService } = require("./out/approvals.js");
  const { ipcChannel } = require("./out/ipc.js");
  const { TO_MAIN } = require("./out/channels.js");
  const dir = await mkdtemp(join(tmpdir(), "toolgate-electron-"));
  const service = createApprovalService({ trustFile: join(dir, "trust.json") });
  await service.ready;
  const ipcMain = new EventEmitter();
  const sent = [];
  const webContents = { send: (channel, message) => sent.push([channel, message]), mainFrame: { url: "app://toolgate/" } };
  const otherWindow = { send: () => {}, mainFrame: {} };
  const fromPage = { sender: webContents, senderFrame: webContents.mainFrame };
  const channel = ipcChannel(ipcMain, webContents);
  const detach = service.attach(channel);

  const pending = service.broker.requestApproval({
    sessionId: "s1",
    request: { tool: "Bash", input: { command: "npm publish" }, cwd: "/p" },
  });
  await until(() => sent.some(([c]) => c === "toolgate:approval-request"), "the request on its channel");
  const requestId = sent.find(([c]) => c === "toolgate:approval-request")[1].requestId;
  const allow = { toolgate: 1, type: "approval-response", requestId, answer: { kind: "allow", scope: "once" } };

  ipcMain.emit("toolgate:approval-response", { sender: otherWindow, senderFrame: otherWindow.mainFrame }, allow);
  ipcMain.emit("toolgate:approval-response", { sender: webContents, senderFrame: { url: "https://ads.example/" } }, allow);
  ipcMain.emit("toolgate:approve-all", fromPage, allow);
  assert.equal(service.broker.pending().length, 1, "another window's, an embedded frame's and a mislabelled answer are ignored");

  ipcMain.emit("toolgate:approval-response", fromPage, allow);
  assert.equal((await pending).status, "approved");
  assert.ok(sent.some(([c, m]) => c === "toolgate:approval-settled" && m.requestId === requestId));
  assert.throws(() => channel.postMessage({ toolgate: 1, type: "hello" }), /sends only/);

  detach();
  channel.close();
  for (const type of TO_MAIN) assert.equal(ipcMain.listenerCount(`toolgate:${type}`), 0);
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

// The preload's stand-in: window.toolgate (send, onMessage) over a MessagePort the harness
// page hands over, as a real preload would over ipcRenderer.
const PRELOAD = `
let port; const queue = []; const listeners = new Set();
addEventListener("message", (e) => {
  if (e.source !== parent || e.origin !== location.origin || e.ports[0] === undefined || port) return;
  port = e.ports[0];
  port.onmessage = (m) => { for (const l of listeners) l(m.data); };
  for (const m of queue.splice(0)) port.postMessage(m);
});
window.toolgate = {
  send(m) { if (port) port.postMessage(m); else queue.push(m); },
  onMessage(l) { listeners.add(l); return () => listeners.delete(l); },
};`;

// The main process's stand-in: the broker (web build) and the bridge host on the other port.
const HARNESS = `
import init, { ApprovalBroker, createBrokerHost } from "/node_modules/toolgate/web/toolgate.js";
await init();
const broker = new ApprovalBroker({ policy: { permissions: { allow: ["Read"] } } });
const { port1, port2 } = new MessageChannel();
createBrokerHost(broker, port1);
const frame = document.querySelector("iframe");
const connect = () => frame.contentWindow.postMessage("connect", location.origin, [port2]);
if (frame.contentDocument?.readyState === "complete") connect(); else frame.addEventListener("load", connect);
const outcomes = [];
window.harness = {
  ask(calls) {
    for (const c of calls) {
      broker.requestApproval({ sessionId: "s1", callId: c.callId, request: { tool: "Bash", input: { command: c.command }, cwd: "/p" } })
        .then((o) => outcomes.push({ callId: c.callId, status: o.status, by: o.by }));
    }
  },
  outcomes,
};
document.body.dataset.ready = "true";`;

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

async function serveRenderer() {
  const { CSP } = require("./out/csp.js");
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    try {
      if (path === "/harness.html") {
        res.writeHead(200, { "content-type": "text/html", "content-security-policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'" });
        return res.end(`<!doctype html><title>main process</title><iframe src="/renderer/index.html" width="900" height="760" title="renderer"></iframe><script type="module" src="/harness.js"></script>`);
      }
      if (path === "/harness.js" || path === "/preload.js") {
        res.writeHead(200, { "content-type": "text/javascript" });
        return res.end(path === "/harness.js" ? HARNESS : PRELOAD);
      }
      const file = resolve(example, `.${decodeURIComponent(path)}`);
      const allowed = [join(example, "renderer") + sep, join(example, "node_modules", "toolgate") + sep];
      if (!allowed.some((dir) => file.startsWith(dir))) throw new Error("not served");
      let body = await readFile(file);
      if (path === "/renderer/index.html") {
        // The preload runs before the page's scripts.
        body = Buffer.from(body.toString().replace("<script ", `<script src="/preload.js"></script>\n    <script `));
      }
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-security-policy": CSP });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

test("the renderer page in Chromium: cards under the CSP, answers over the bridge", { timeout: 60_000 }, async (t) => {
  const server = await serveRenderer();
  t.after(() => server.close());
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 920, height: 780 } });
  const violations = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${server.url}/harness.html`);
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  const frame = page.frames().find((f) => f.url().endsWith("/renderer/index.html"));
  assert.ok(frame, "the renderer frame");
  await frame.waitForFunction(() => document.body.dataset.ready === "true");
  const cards = frame.locator("toolgate-approval-card");
  const outcomes = () => page.evaluate(() => window.harness.outcomes);
  const settled = async (n) => {
    await page.waitForFunction((k) => window.harness.outcomes.length >= k, n);
    return outcomes();
  };

  await page.evaluate(() => window.harness.ask([{ callId: "one", command: "npm run build" }]));
  await cards.nth(0).locator("[data-action=allow]").waitFor();
  await page.screenshot({ path: `${output}electron-renderer-card.png` });
  await cards.nth(0).locator("[data-action=allow]").click();
  assert.deepEqual((await settled(1))[0], { callId: "one", status: "approved", by: "person" });

  await page.evaluate(() => window.harness.ask([{ callId: "a", command: "git push" }, { callId: "b", command: "npm publish" }]));
  await cards.nth(2).locator("[data-action=deny-all]").waitFor();
  await cards.nth(2).locator("[data-action=deny-all]").click();
  const afterDeny = (await settled(3)).slice(1).map((o) => `${o.callId}:${o.status}`).sort();
  assert.deepEqual(afterDeny, ["a:denied", "b:denied"]);

  await page.evaluate(() => window.harness.ask([{ callId: "c", command: "git push" }, { callId: "d", command: "npm publish" }]));
  await cards.nth(4).locator("[data-action=allow-all]").waitFor();
  await cards.nth(4).locator("[data-action=allow-all]").click();
  const afterAllow = (await settled(5)).slice(3).map((o) => `${o.callId}:${o.status}`).sort();
  assert.deepEqual(afterAllow, ["c:approved", "d:approved"]);

  const inlineRan = await frame.evaluate(() => {
    const s = document.createElement("script");
    s.textContent = "window.inlineRan = true";
    document.head.append(s);
    return /** @type {any} */ (window).inlineRan === true;
  });
  assert.equal(inlineRan, false, "the renderer's CSP blocks inline script");
  assert.deepEqual(violations.filter((v) => !/inline/.test(v)), [], "nothing but the probe was refused");
});
