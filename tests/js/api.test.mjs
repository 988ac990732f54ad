// The JS API of the built package (pkg/) in Node: Policy, TrustStore, ApprovalBroker
// with promise-returning requestApproval, ToolgateError, and the same names from every entry.
// Every path that settles an approval's promise has a test here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, test } from "node:test";

import { PKG } from "./corpus.mjs";

const require = createRequire(import.meta.url);
const api = await import(new URL("node/index.mjs", PKG));
const { ApprovalBroker, Policy, ToolgateError, TrustStore } = api;

const POLICY = {
  permissions: {
    allow: ["Bash(npm test *)", "Read"],
    deny: ["Read(./.env)", "Bash(curl *)"],
  },
};
const bash = (command, sessionId = "s1", extra = {}) => ({
  sessionId,
  ...extra,
  request: { tool: "Bash", input: { command }, cwd: "/p" },
});
const broker = (options = {}) => new ApprovalBroker({ policy: POLICY, ...options });

/** The error `f` throws (synchronously). */
function thrown(f) {
  try {
    f();
  } catch (err) {
    return err;
  }
  assert.fail("expected a throw");
}

describe("every entry exports the same names", () => {
  const names = [
    "ApprovalBroker", "Policy", "ToolgateError", "TrustStore", "default", "initSync",
    "toolDefaults", "version",
  ];
  test("node ESM, node CommonJS and web", async () => {
    const web = await import(new URL("web/toolgate.js", PKG));
    const cjs = require(new URL("node/toolgate.cjs", PKG).pathname);
    for (const name of names) {
      assert.equal(typeof api[name], "function", `ESM ${name}`);
      assert.equal(typeof cjs[name], "function", `CJS ${name}`);
      assert.equal(typeof web[name], "function", `web ${name}`);
    }
    assert.equal(api.Policy, cjs.Policy, "ESM and CJS share one instance");
  });

  test("the web entry throws NOT_INITIALIZED before init, then works after initSync", async () => {
    const web = await import(new URL("web/toolgate.js", PKG));
    const err = thrown(() => new web.Policy({}));
    assert.ok(err instanceof web.ToolgateError);
    assert.equal(err.code, "NOT_INITIALIZED");
    web.initSync(readFileSync(new URL("web/toolgate_bg.wasm", PKG)));
    assert.equal(new web.Policy(POLICY).evaluate({ tool: "Read", input: { file_path: "/p/a" } }).effect, "allow");
    await web.default(); // a second init does nothing
  });

  test("init and initSync resolve at once in Node", async () => {
    await api.default();
    api.initSync(new Uint8Array());
  });
});

describe("ToolgateError", () => {
  test("is a real class: instanceof, name, code, path, hint, message", () => {
    const err = thrown(() => new Policy({ permissions: { deny: ["Bash(rm"] } }));
    assert.ok(err instanceof ToolgateError);
    assert.ok(err instanceof Error);
    assert.equal(err.name, "ToolgateError");
    assert.equal(err.code, "INVALID_RULE");
    assert.equal(err.path, "permissions.deny[0]");
    assert.equal(typeof err.hint, "string");
    assert.match(err.message, /Bash\(rm/);
    assert.ok(err.stack.includes("ToolgateError"));
  });

  test("unknown keys and bad JSON text are typed errors with paths", () => {
    assert.equal(thrown(() => new Policy({ permisions: {} })).code, "UNKNOWN_FIELD");
    assert.equal(thrown(() => new Policy("{not json")).code, "INVALID_JSON");
    const err = thrown(() => new Policy(POLICY).evaluate({ tool: "Bash", inptu: {} }));
    assert.equal(err.code, "UNKNOWN_FIELD");
    assert.equal(thrown(() => new Policy(undefined)).code, "INVALID_JSON");
  });

  test("toolDefaults throws a ToolgateError for unknown tools", () => {
    const err = thrown(() => api.toolDefaults("Nope"));
    assert.ok(err instanceof ToolgateError);
    assert.equal(err.code, "UNKNOWN_TOOL");
  });
});

describe("Policy", () => {
  const engine = new Policy(POLICY);
  test("evaluate gives whole decisions", () => {
    const d = engine.evaluate({ tool: "Bash", input: { command: "npm test -- --ci" }, cwd: "/p" });
    assert.equal(d.effect, "allow");
    assert.equal(d.reason.decider.kind, "rule");
    assert.equal(d.reason.decider.rule, "Bash(npm test *)");
    assert.equal(engine.evaluate({ tool: "Read", input: { file_path: ".env" }, cwd: "/p" }).effect, "deny");
    assert.equal(engine.evaluate({ tool: "Write", input: { file_path: "/p/x" }, cwd: "/p" }).effect, "ask");
  });

  test("accepts JSON text as well as objects", () => {
    const fromText = new Policy(JSON.stringify(POLICY));
    const req = { tool: "Bash", input: { command: "curl x" } };
    assert.deepEqual(fromText.evaluate(req), engine.evaluate(req));
  });

  test("explain lists the consulted rules", () => {
    const e = engine.explain({ tool: "Bash", input: { command: "curl x" } });
    assert.equal(e.decision.effect, "deny");
    assert.ok(e.rules.some((r) => r.rule === "Bash(curl *)" && r.matched));
  });

  test("warnings is an array", () => {
    assert.ok(Array.isArray(engine.warnings));
    const w = new Policy({ permissions: { allow: ["mcp__*"] } }).warnings;
    assert.ok(Array.isArray(w));
  });
});

describe("TrustStore", () => {
  test("grant, list, revoke, clearSession, export, import round trip", () => {
    const store = new TrustStore({ now: () => 1000 });
    const g = store.grant({ rule: "Bash(npm run lint)", scope: "always" });
    assert.match(g.id, /^g-[0-9a-f]{16}$/);
    store.grant({ rule: "Write", scope: "session", sessionId: "s1" });
    assert.equal(store.list().length, 2);
    assert.equal(store.clearSession("s1"), 1);
    store.setAgentBypass("copilot", true);
    assert.deepEqual(store.bypassAgents(), ["copilot"]);
    const doc = store.export();
    assert.equal(doc.version, 1);
    assert.match(doc.checksum, /^sha256:/);
    const other = new TrustStore({ trust: doc });
    assert.deepEqual(other.export(), doc);
    assert.equal(other.exportText(), store.exportText());
    assert.ok(store.revoke(g.id));
    assert.equal(store.revoke(g.id), false);
  });

  test("refused grants and tampered documents throw and change nothing", () => {
    const store = new TrustStore();
    assert.equal(thrown(() => store.grant({ rule: "Bash", scope: "always" })).code, "GRANT_REFUSED");
    store.grant({ rule: "Bash(npm run lint)", scope: "always" });
    const before = store.exportText();
    const doc = JSON.parse(before);
    doc.grants[0].rule = "Bash(npm run build)";
    const err = thrown(() => store.import(doc));
    assert.ok(err instanceof ToolgateError);
    assert.equal(err.code, "TAMPERED");
    assert.equal(store.exportText(), before);
    assert.equal(thrown(() => store.import("{")).code, "INVALID_TRUST_DOCUMENT");
  });
});

describe("ApprovalBroker: every path settles the promise", () => {
  test("a person's answer", async () => {
    const b = broker();
    const seen = [];
    b.onRequest((a) => seen.push(a));
    const p = b.requestApproval(bash("git push"));
    assert.equal(seen.length, 1);
    assert.deepEqual(b.pending().map((a) => a.id), [seen[0].id]);
    b.respond(seen[0].id, { kind: "allow", scope: "once" });
    const o = await p;
    assert.equal(o.status, "approved");
    assert.equal(o.by, "person");
    assert.deepEqual(o.input, { command: "git push" });
    assert.equal(b.pending().length, 0);
  });

  test("a denial carries the message and model feedback", async () => {
    const b = broker();
    const p = b.requestApproval(bash("git push"));
    b.respond(b.pending()[0].id, { kind: "deny", message: "not today" });
    const o = await p;
    assert.equal(o.status, "denied");
    assert.equal(o.message, "not today");
    assert.equal(o.feedback.code, "USER_DENIED");
  });

  test("the policy at once: allow and deny", async () => {
    const b = broker();
    const allowed = await b.requestApproval(bash("npm test"));
    assert.equal(allowed.status, "approved");
    assert.equal(allowed.by, "policy");
    const denied = await b.requestApproval(bash("curl http://x"));
    assert.equal(denied.status, "denied");
    assert.equal(denied.feedback.code, "PERMISSION_DENIED");
  });

  test("the registry at once: an unknown tool", async () => {
    const o = await broker().requestApproval({ sessionId: "s1", request: { tool: "Frobnicate", input: {} } });
    assert.equal(o.status, "denied");
    assert.equal(o.by, "registry");
    assert.equal(o.feedback.code, "UNKNOWN_TOOL");
  });

  test("a grant at once, then persisted by an always answer", async () => {
    const b = broker();
    const first = b.requestApproval(bash("npm run lint"));
    b.respond(b.pending()[0].id, { kind: "allow", scope: "always" });
    const o = await first;
    assert.deepEqual(o.grants, ["Bash(npm run lint)"]);
    const second = await b.requestApproval(bash("npm run lint", "s2"));
    assert.equal(second.by, "trust");
    assert.equal(b.trust.list().length, 1);
    assert.equal(b.trust.export().grants.length, 1);
  });

  test("the timeout, through the broker's own timer", async () => {
    const b = broker();
    const keep = setInterval(() => {}, 1000);
    try {
      const o = await b.requestApproval(bash("git push", "s1", { timeoutMs: 20 }));
      assert.equal(o.status, "expired");
      assert.equal(o.by, "timeout");
      assert.equal(o.feedback.code, "APPROVAL_TIMEOUT");
    } finally {
      clearInterval(keep);
    }
  });

  test("the earliest deadline is rescheduled as approvals come and go", async () => {
    const b = broker();
    const keep = setInterval(() => {}, 1000);
    try {
      const slow = b.requestApproval(bash("git push", "s1", { timeoutMs: 60_000 }));
      const fast = b.requestApproval(bash("git pull", "s1", { timeoutMs: 15 }));
      assert.equal((await fast).status, "expired");
      b.cancel(b.pending()[0].id);
      assert.equal((await slow).status, "cancelled");
    } finally {
      clearInterval(keep);
    }
  });

  test("cancel", async () => {
    const b = broker();
    const p = b.requestApproval(bash("git push"));
    b.cancel(b.pending()[0].id);
    const o = await p;
    assert.equal(o.status, "cancelled");
    assert.equal(o.by, "cancel");
    assert.equal(o.feedback.recoverable, false);
  });

  test("cancelSession cancels that session only", async () => {
    const b = broker();
    const a = b.requestApproval(bash("git push", "s1"));
    const c = b.requestApproval(bash("git pull", "s1"));
    const other = b.requestApproval(bash("git push", "s2"));
    assert.equal(b.sessions.cancel("s1").length, 2);
    assert.equal((await a).status, "cancelled");
    assert.equal((await c).status, "cancelled");
    assert.equal(b.pending().length, 1);
    b.shutdown();
    assert.equal((await other).by, "shutdown");
  });

  test("approveAll and denyAll", async () => {
    const b = broker();
    const [a, c] = b.requestApprovals([bash("git push", "s1"), bash("git pull", "s1")]);
    const d = b.requestApproval(bash("git push", "s2"));
    assert.equal(b.approveAll("s1").length, 2);
    assert.equal((await a).status, "approved");
    assert.equal((await c).status, "approved");
    assert.deepEqual(b.denyAll("s2", "no").length, 1);
    assert.equal((await d).message, "no");
  });

  test("shutdown settles everything cancelled; later calls reject SHUT_DOWN", async () => {
    const b = broker();
    const ps = [b.requestApproval(bash("git push")), b.requestApproval(bash("git pull"))];
    b.shutdown();
    for (const o of await Promise.all(ps)) {
      assert.equal(o.status, "cancelled");
      assert.equal(o.by, "shutdown");
    }
    await assert.rejects(b.requestApproval(bash("git push")), (err) => {
      assert.ok(err instanceof ToolgateError);
      return err.code === "SHUT_DOWN";
    });
  });

  test("a policy change settles calls at once with the new rules", async () => {
    const b = broker();
    const p = b.requestApproval(bash("git push"));
    b.setPolicy({ permissions: { allow: ["Bash(git push)"] } });
    assert.equal((await b.requestApproval(bash("git push", "s2"))).by, "policy");
    b.respond(b.pending()[0].id, { kind: "deny" });
    assert.equal((await p).status, "denied");
    b.setPolicy(new Policy(POLICY));
  });

  test("an answer from inside onRequest (re-entrant) settles the promise", async () => {
    const b = broker();
    b.onRequest((a) => b.respond(a.id, { kind: "allow", scope: "once" }));
    const o = await b.requestApproval(bash("git push"));
    assert.equal(o.status, "approved");
  });
});

describe("ApprovalBroker: answers, listeners, audit", () => {
  test("rejected answers are typed errors", async () => {
    const b = broker();
    const p = b.requestApproval(bash("python3 x.py"));
    const id = b.pending()[0].id;
    assert.equal(thrown(() => b.respond("forged", { kind: "deny" })).code, "UNKNOWN_APPROVAL");
    assert.equal(thrown(() => b.respond(id, { kind: "allow", scope: "session" })).code, "ANSWER_NOT_OFFERED");
    assert.equal(thrown(() => b.respond(id, { kind: "maybe" })).code, "INVALID_JSON");
    b.respond(id, { kind: "deny" });
    assert.equal(thrown(() => b.respond(id, { kind: "deny" })).code, "ALREADY_SETTLED");
    await p;
  });

  test("bad calls reject; a bad batch creates none", async () => {
    const b = broker();
    await assert.rejects(b.requestApproval({ sessionId: "", request: { tool: "Bash" } }), { code: "INVALID_REQUEST", path: "sessionId" });
    const err = thrown(() => b.requestApprovals([bash("git push"), { sessionId: "s", request: {} }]));
    assert.equal(err.path.startsWith("[1]"), true);
    assert.equal(b.pending().length, 0);
  });

  test("onTransition, onEvent and unsubscribe", async () => {
    const b = broker();
    const transitions = [];
    const events = [];
    const offT = b.audit.onTransition((t) => transitions.push(`${t.from}->${t.to}`));
    const offE = b.audit.onEvent((e) => events.push(e.kind));
    const p = b.requestApproval(bash("git push"));
    const id = b.pending()[0].id;
    b.respond(id, { kind: "allow", scope: "once" });
    await p;
    b.runs.start(id);
    b.runs.complete(id);
    assert.deepEqual(transitions, ["null->pendingApproval", "pendingApproval->approved", "approved->executing", "executing->completed"]);
    assert.ok(events.includes("decision") && events.includes("transition"));
    offT();
    offE();
    await b.requestApproval(bash("npm test"));
    assert.equal(transitions.length, 4);
  });

  test("a throwing listener goes to onError and breaks nothing", async () => {
    const errors = [];
    const b = broker({ onError: (e) => errors.push(e) });
    b.onRequest(() => {
      throw new Error("listener bug");
    });
    const p = b.requestApproval(bash("git push"));
    b.respond(b.pending()[0].id, { kind: "deny" });
    assert.equal((await p).status, "denied");
    assert.equal(errors.length, 1);
  });

  test("fail gives model feedback; audit and exportAudit", async () => {
    const b = broker();
    const o = await b.requestApproval(bash("npm test"));
    b.runs.start(o.id);
    assert.equal(b.runs.fail(o.id, "exit 1").code, "EXECUTION_ERROR");
    const events = b.audit.query({ approvalId: o.id });
    assert.ok(events.length >= 3);
    assert.deepEqual(events[0].input, { command: "<string:8>" });
    const lines = b.audit.toJsonLines().trim().split("\n");
    assert.equal(lines.length, b.audit.query().length);
    assert.equal(JSON.parse(lines[0]).seq, 1);
  });

  test("registry options: tools and MCP servers", async () => {
    const b = broker({
      registry: {
        mcpServers: [{
          server: "github",
          trusted: true,
          tools: [{ name: "list_issues", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
        }],
      },
    });
    assert.ok(b.tools.names().includes("mcp__github__list_issues"));
    const p = b.requestApproval({ sessionId: "s1", request: { tool: "mcp__github__list_issues", input: {} } });
    const card = b.pending()[0];
    assert.ok(card.answers.includes("allowToolForSession"));
    b.respond(card.id, { kind: "allowToolForSession" });
    assert.equal((await p).status, "approved");
  });

  test("trust option and the broker's own store", async () => {
    const store = new TrustStore();
    store.grant({ rule: "Bash(git push)", scope: "always" });
    const b = broker({ trust: store.export() });
    assert.equal((await b.requestApproval(bash("git push"))).by, "trust");
    b.trust.grant({ rule: "Bash(git fetch)", scope: "session", sessionId: "s9" });
    assert.equal((await b.requestApproval(bash("git fetch", "s9"))).by, "trust");
  });

  test("savePending and resume", async () => {
    const b = broker();
    const call = bash("git push", "s1", { callId: "c1" });
    b.requestApproval(call);
    const saved = b.saved.save(b.pending()[0].id);
    b.shutdown();
    const again = broker();
    const p = again.saved.resume(saved, call);
    assert.equal(again.pending()[0].id, saved.approval.id);
    again.respond(saved.approval.id, { kind: "allow", scope: "once" });
    assert.equal((await p).status, "approved");
  });
});
