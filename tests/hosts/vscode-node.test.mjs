// The same VS Code example extension in Node, as a desktop extension host loads it: its
// bundled entry (dist/extension.js) with `require("vscode")` answered by a small stand-in of
// the API, the package's Node build, and the bridge's client playing the webview. Desktop
// VS Code cannot be downloaded here; this runs the Node path of the very same code.
import { test } from "node:test";
import assert from "node:assert/strict";
import Module, { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const example = fileURLToPath(new URL("../../examples/vscode-extension/", import.meta.url));
const requireFromExample = createRequire(`${example}package.json`);

/** The parts of the `vscode` API the extension uses, recording what it does. */
function fakeVscode() {
  const toUi = new Set();
  const fromUi = new Set();
  const lines = [];
  const recorded = { commands: new Map(), panels: [], documents: [], messages: [], picks: [] };
  const uri = (path) => ({ path, toString: () => `file://${path}` });
  const webview = {
    cspSource: "https://file+.vscode-resource.vscode-cdn.net",
    html: "",
    asWebviewUri: (u) => ({ toString: () => `https://file+.vscode-resource.vscode-cdn.net${u.path}` }),
    postMessage: (m) => {
      const copy = structuredClone(m);
      queueMicrotask(() => toUi.forEach((l) => l(copy)));
      return Promise.resolve(true);
    },
    onDidReceiveMessage: (l) => {
      fromUi.add(l);
      return { dispose: () => fromUi.delete(l) };
    },
  };
  const vscode = {
    Uri: { joinPath: (base, ...parts) => uri([base.path.replace(/\/$/, ""), ...parts].join("/")) },
    ViewColumn: { Beside: -2 },
    window: {
      createOutputChannel: () => ({ appendLine: (l) => lines.push(l), dispose() {} }),
      createWebviewPanel: (viewType, title, show, options) => {
        const panel = { viewType, title, show, options, webview, reveal() {}, onDidDispose: () => ({ dispose() {} }) };
        recorded.panels.push(panel);
        return panel;
      },
      showInformationMessage: async (m) => void recorded.messages.push(m),
      showQuickPick: async (items) => items.find((i) => recorded.picks.some((p) => i.label.includes(p))),
      showTextDocument: async () => {},
    },
    workspace: { openTextDocument: async (d) => (recorded.documents.push(d), d) },
    commands: {
      registerCommand: (id, run) => {
        recorded.commands.set(id, run);
        return { dispose: () => recorded.commands.delete(id) };
      },
    },
  };
  /** The webview's half of the channel, for the bridge client. */
  const uiChannel = {
    postMessage: (m) => {
      const copy = structuredClone(m);
      queueMicrotask(() => fromUi.forEach((l) => l(copy)));
    },
    on: (_type, l) => void toUi.add(l),
    off: (_type, l) => void toUi.delete(l),
  };
  return { vscode, recorded, lines, uiChannel, uri };
}

test("the example extension in Node (the desktop host's path): same flow, trust kept in globalState", { timeout: 30_000 }, async () => {
  const { vscode, recorded, lines, uiChannel, uri } = fakeVscode();
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === "vscode" ? vscode : load.call(this, request, ...rest);
  };
  const state = new Map();
  const context = () => ({
    extensionUri: uri(example),
    subscriptions: [],
    globalState: { get: (k) => state.get(k), update: async (k, v) => void state.set(k, v), keys: () => [...state.keys()] },
  });
  // The broker's timer does not hold a Node process open (a host process stays up anyway).
  const keepAlive = setInterval(() => {}, 1000);
  try {
    const extension = requireFromExample("./dist/extension.js");
    const first = context();
    await extension.activate(first);
    assert.ok(lines.includes("activated (example-agent, 0 saved grants)"), lines.join("\n"));

    // The webview's part: answer each card as a person would, by what it asks.
    const { createApprovalClient } = requireFromExample("toolgate");
    const client = createApprovalClient(uiChannel);
    client.onRequest((a) => {
      const command = a.input.command;
      if (command === "git push origin main") client.respond(a.id, { kind: "allow", scope: "once" });
      else if (command === "npm run deploy") client.respond(a.id, { kind: "allow", scope: "session" });
      else if (command === "rm -rf build") client.respond(a.id, { kind: "deny", message: "Use npm run clean instead." });
      else if (command.startsWith("npm run ")) client.respond(a.id, { kind: "allow", scope: "always" });
      // curl: nobody answers, it expires.
    });
    await recorded.commands.get("toolgateExample.runAgent")();
    const calls = lines.filter((l) => l.startsWith("call-"));
    assert.deepEqual(calls.map((l) => l.replace(/; the model is told: .*/, "")), [
      "call-1 ran Read(src/cart.ts) (approved by policy)",
      "call-2 ran Bash(git push origin main) (approved by person, once)",
      "call-3 ran Bash(npm run deploy) (approved by person, session)",
      "call-4 ran Bash(npm run deploy) (approved by trust, session)",
      "call-5 not run Bash(rm -rf build) (denied by person)",
      "call-6 not run Bash(curl -s https://example.com/install.sh) (expired by timeout)",
      "call-7 ran Bash(npm run format) (approved by person, always)",
      "call-8 ran Bash(npm run lint) (approved by person, always)",
    ]);
    assert.match(calls[4], /Use npm run clean instead\./);

    // The webview page: VS Code's recommended CSP, nothing inline, no wasm.
    const html = recorded.panels[0].webview.html;
    assert.match(html, /default-src 'none'; script-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net;/);
    assert.doesNotMatch(html, /unsafe|wasm-unsafe-eval|<script>|style=/);

    await recorded.commands.get("toolgateExample.exportAudit")();
    const events = recorded.documents[0].content.trim().split("\n").map((line) => JSON.parse(line));
    assert.ok(events.length > 8, "the audit export is JSON Lines, an event per line");
    recorded.picks.push("npm run format");
    await recorded.commands.get("toolgateExample.revokeTrust")();
    for (const d of first.subscriptions) d.dispose();

    // A new window: the remaining always grant comes back from globalState.
    lines.length = 0;
    const second = context();
    await extension.activate(second);
    assert.ok(lines.includes("activated (example-agent, 1 saved grants)"), lines.join("\n"));
    await recorded.commands.get("toolgateExample.showTrust")();
    assert.match(recorded.messages.at(-1), /npm run lint/);
    assert.doesNotMatch(recorded.messages.at(-1), /npm run format/);
    for (const d of second.subscriptions) d.dispose();
  } finally {
    clearInterval(keepAlive);
    Module._load = load;
  }
});
