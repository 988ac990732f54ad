// The ACP `session/request_permission` adapter and MCP registration from `tools/list`.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PKG } from "./corpus.mjs";

const api = await import(new URL("node/index.mjs", PKG));
const { ApprovalBroker, acpToolRequest, acpToolRequests, createAcpPermissionHandler } = api;

const OPTIONS = [
  { optionId: "yes", name: "Allow", kind: "allow_once" },
  { optionId: "always", name: "Always", kind: "allow_always" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
];
const params = (toolCall, options = OPTIONS, sessionId = "acp-1") => ({ sessionId, toolCall: { toolCallId: "tc1", ...toolCall }, options });
const POLICY = { permissions: { allow: ["Bash(npm test *)"], deny: ["Bash(curl *)", "Read(./.env)"] } };

describe("ACP session/request_permission", () => {
  test("tool kinds map to toolgate tools", () => {
    assert.deepEqual(acpToolRequest({ toolCallId: "t", kind: "read", locations: [{ path: "/p/a.txt" }] }),
      { tool: "read", input: { file_path: "/p/a.txt" } });
    assert.deepEqual(acpToolRequest({ toolCallId: "t", kind: "execute", rawInput: { command: ["git", "commit", "-m", "a b"] } }).input,
      { command: "git commit -m 'a b'" });
    assert.equal(acpToolRequest({ toolCallId: "t", kind: "edit", rawInput: { old_string: "a", new_string: "b" }, locations: [{ path: "/p/x" }] }).tool, "edit");
    assert.equal(acpToolRequest({ toolCallId: "t", kind: "edit", rawInput: { content: "x" }, locations: [{ path: "/p/x" }] }).tool, "write");
    assert.equal(acpToolRequest({ toolCallId: "t", kind: "delete", locations: [{ path: "/p/x" }] }).tool, "delete");
    assert.deepEqual(acpToolRequest({ toolCallId: "t", kind: "move", locations: [{ path: "/p/a" }, { path: "/p/b c" }] }).input,
      { command: "mv -- /p/a '/p/b c'" });
    assert.equal(acpToolRequest({ toolCallId: "t", kind: "search", rawInput: { pattern: "TODO" } }).tool, "grep");
    assert.equal(acpToolRequest({ toolCallId: "t", kind: "fetch", rawInput: { url: "https://x" } }).tool, "fetch");
    assert.equal(acpToolRequest({ toolCallId: "t", kind: "other", title: "Frob" }).tool, "acp_other");
  });

  test("policy allow and deny pick allow_once and reject_once", async () => {
    const handler = createAcpPermissionHandler(new ApprovalBroker({ policy: POLICY }), { cwd: "/p" });
    assert.deepEqual(await handler.requestPermission(params({ kind: "execute", rawInput: { command: "npm test" } })),
      { outcome: { outcome: "selected", optionId: "yes" } });
    assert.deepEqual(await handler.requestPermission(params({ toolCallId: "tc2", kind: "execute", rawInput: { command: "curl x" } })),
      { outcome: { outcome: "selected", optionId: "no" } });
  });

  test("every location is judged: a deny of any one of them denies the call", async () => {
    const broker = new ApprovalBroker({ policy: { permissions: { deny: ["Read(~/.ssh/**)", "Edit(//etc/**)"] } } });
    const asked = [];
    broker.onRequest((a) => asked.push(a.input.file_path));
    const handler = createAcpPermissionHandler(broker, { cwd: "/home/ada/proj" });
    const read = { kind: "read", rawInput: { paths: ["README.md", "~/.ssh/id_rsa"] },
      locations: [{ path: "/home/ada/proj/README.md" }, { path: "~/.ssh/id_rsa" }] };
    assert.deepEqual(acpToolRequests(read, { cwd: "/home/ada/proj" }).map((r) => r.input.file_path),
      ["/home/ada/proj/README.md", "~/.ssh/id_rsa", "README.md"]);
    assert.deepEqual(await handler.requestPermission(params(read)), { outcome: { outcome: "selected", optionId: "no" } });
    const edit = { toolCallId: "tc2", kind: "edit", rawInput: { old_string: "a", new_string: "b" },
      locations: [{ path: "/home/ada/proj/a.txt" }, { path: "/etc/hosts" }] };
    assert.deepEqual(await handler.requestPermission(params(edit)), { outcome: { outcome: "selected", optionId: "no" } });
    const del = { toolCallId: "tc3", kind: "delete", locations: [{ path: "/home/ada/proj/a.txt" }, { path: "~/.ssh/id_rsa" }] };
    assert.equal(acpToolRequests(del).length, 2);
    const move = { toolCallId: "tc4", kind: "move", locations: [{ path: "/p/a" }, { path: "/p/b" }, { path: "/p/dir" }] };
    assert.equal(acpToolRequest(move).input.command, "mv -- /p/a /p/b /p/dir");
    assert.equal(broker.pending().length, 0, "the other locations' approvals were cancelled");
    broker.shutdown();
  });

  test("a call that names its directory is judged there; the handler's cwd stays the project", async () => {
    const broker = new ApprovalBroker({ policy: { permissions: { allow: ["Bash(cat *)"] } } });
    const asked = [];
    broker.onRequest((a) => { asked.push(a.input.command); broker.respond(a.id, { kind: "deny", message: "no" }); });
    const handler = createAcpPermissionHandler(broker, { cwd: "/home/ada/proj" });
    const gemini = { kind: "execute", rawInput: { command: "cat credentials", dir_path: "/home/ada/.aws" } };
    assert.deepEqual(acpToolRequest(gemini, { cwd: "/home/ada/proj" }),
      { tool: "bash", input: { command: "cat credentials" }, cwd: "/home/ada/.aws", root: "/home/ada/proj" });
    assert.equal(acpToolRequest({ toolCallId: "t", kind: "execute", rawInput: { command: "ls", workdir: "sub" } }, { cwd: "/p" }).cwd, "/p/sub");
    assert.deepEqual(await handler.requestPermission(params(gemini)), { outcome: { outcome: "selected", optionId: "no" } });
    const codex = { toolCallId: "tc2", kind: "execute", rawInput: { command: ["bash", "-lc", "cat hosts.yml"], workdir: "/home/ada/.config/gh" } };
    assert.deepEqual(await handler.requestPermission(params(codex)), { outcome: { outcome: "selected", optionId: "no" } });
    assert.deepEqual(asked, ["cat credentials", "bash -lc 'cat hosts.yml'"]);
    const inside = { toolCallId: "tc3", kind: "execute", rawInput: { command: "cat README.md", directory: "docs" } };
    assert.deepEqual(await handler.requestPermission(params(inside)), { outcome: { outcome: "selected", optionId: "yes" } });
    broker.shutdown();
  });

  test("a call that names several directories is judged in each of them", async () => {
    const broker = new ApprovalBroker({ policy: { permissions: { allow: ["Bash(cat *)"] } } });
    const asked = [];
    broker.onRequest((a) => { asked.push(a.cwd); broker.respond(a.id, { kind: "deny", message: "no" }); });
    const handler = createAcpPermissionHandler(broker, { cwd: "/home/ada/proj" });
    const two = { kind: "execute", rawInput: { command: ["cat", "secret"], workdir: "/home/ada/.aws", dir_path: "." } };
    assert.deepEqual(acpToolRequests(two, { cwd: "/home/ada/proj" }).map((r) => r.cwd), ["/home/ada/proj/.", "/home/ada/.aws"]);
    assert.deepEqual(await handler.requestPermission(params(two)), { outcome: { outcome: "selected", optionId: "no" } });
    const cwdFirst = { toolCallId: "tc2", kind: "execute", rawInput: { command: "cat secret", cwd: "/home/ada/.aws", directory: "." } };
    assert.deepEqual(await handler.requestPermission(params(cwdFirst)), { outcome: { outcome: "selected", optionId: "no" } });
    const same = { kind: "execute", rawInput: { command: "cat README.md", workdir: "docs", dir_path: "docs" } };
    assert.equal(acpToolRequests(same, { cwd: "/home/ada/proj" }).length, 1, "one directory named twice is one request");
    const reads = { kind: "read", rawInput: { path: "a.txt", dir_path: "/x", cwd: "/y" } };
    assert.deepEqual(acpToolRequests(reads, { cwd: "/p" }).map((r) => r.cwd), ["/x", "/y"]);
    broker.shutdown();
  });

  test("every approval answers allow_once: a session, always or grant approval too", async () => {
    // The agent reads `allow_always` as its own, wider rule (Gemini CLI: every later edit
    // unasked), so the grant stays in toolgate and each later call comes back to it.
    const broker = new ApprovalBroker({ policy: { permissions: { deny: ["Write(./.npmrc)"] } } });
    let asked = 0;
    broker.onRequest((a) => { asked += 1; broker.respond(a.id, { kind: "allow", scope: a.callId === "tc1" ? "session" : "always" }); });
    const handler = createAcpPermissionHandler(broker, { cwd: "/p" });
    const write = (id, path) => params({ toolCallId: id, kind: "edit", rawInput: { content: "x" }, locations: [{ path }] });
    const once = { outcome: { outcome: "selected", optionId: "yes" } };
    assert.deepEqual(await handler.requestPermission(write("tc1", "/p/notes.txt")), once, "a person's session answer");
    assert.deepEqual(await handler.requestPermission(write("tc2", "/p/notes.txt")), once, "the grant, with nobody asked");
    assert.deepEqual(await handler.requestPermission(params({ toolCallId: "tc3", kind: "execute", rawInput: { command: "npm run lint" } })), once, "an always answer");
    assert.deepEqual(await handler.requestPermission(params({ toolCallId: "tc4", kind: "execute", rawInput: { command: "npm run lint" } })), once);
    assert.equal(asked, 2);
    // The write toolgate denies comes back to toolgate, and is refused.
    assert.deepEqual(await handler.requestPermission(write("tc5", "/p/.npmrc")), { outcome: { outcome: "selected", optionId: "no" } });
    broker.shutdown();
  });

  test("a kind that is not offered falls back to a refusal, reported; never to allow_always", async () => {
    const fallbacks = [];
    const audited = [];
    const broker = new ApprovalBroker({ policy: POLICY });
    broker.onRequest((a) => broker.respond(a.id, { kind: "allow", scope: "always" }));
    broker.audit.onEvent((e) => { if (e.kind === "fallback") audited.push([e.callId, e.decidedBy]); });
    const handler = createAcpPermissionHandler(broker, { onFallback: (f) => fallbacks.push(`${f.needed}->${f.used}`) });
    const onlyAlways = [{ optionId: "a", name: "Always", kind: "allow_always" }, { optionId: "r", name: "Never", kind: "reject_always" }];
    assert.deepEqual(await handler.requestPermission(params({ kind: "execute", rawInput: { command: "npm test" } }, onlyAlways)),
      { outcome: { outcome: "cancelled" } }, "a policy allow");
    assert.deepEqual(await handler.requestPermission(params({ toolCallId: "t2", kind: "execute", rawInput: { command: "npm run lint" } }, onlyAlways)),
      { outcome: { outcome: "cancelled" } }, "a person's always answer");
    assert.deepEqual(await handler.requestPermission(params({ toolCallId: "t3", kind: "execute", rawInput: { command: "curl x" } }, onlyAlways)),
      { outcome: { outcome: "selected", optionId: "r" } });
    const onlyAllow = [{ optionId: "y", name: "Yes", kind: "allow_once" }];
    assert.deepEqual(await handler.requestPermission(params({ toolCallId: "t4", kind: "execute", rawInput: { command: "curl x" } }, onlyAllow)),
      { outcome: { outcome: "cancelled" } });
    assert.deepEqual(fallbacks, ["allow_once->cancelled", "allow_once->cancelled", "reject_once->reject_always", "reject_once->cancelled"]);
    assert.equal(audited.length, 4, "every fallback is in the audit trail");
    assert.deepEqual(audited.map(([callId]) => callId), ["tc1", "t2", "t3", "t4"]);
    assert.match(audited[0][1], /`allow_once` was not offered .*answered cancelled/);
    assert.match(audited[2][1], /`reject_once` was not offered .*answered reject_always/);
    broker.shutdown();
  });

  test("session/cancel and an aborted signal answer cancelled", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const handler = createAcpPermissionHandler(broker);
    const a = handler.requestPermission(params({ kind: "execute", rawInput: { command: "git push" } }));
    const b = handler.requestPermission(params({ toolCallId: "tc2", kind: "other", title: "Frobnicate" }));
    assert.equal(broker.pending().length, 2, "other kinds ask too");
    handler.cancelSession("acp-1");
    assert.deepEqual(await a, { outcome: { outcome: "cancelled" } });
    assert.deepEqual(await b, { outcome: { outcome: "cancelled" } });

    const controller = new AbortController();
    const c = handler.requestPermission(params({ toolCallId: "tc3", kind: "execute", rawInput: { command: "git push" } }), { signal: controller.signal });
    controller.abort();
    assert.deepEqual(await c, { outcome: { outcome: "cancelled" } });
    assert.equal(broker.pending().length, 0);
  });
});

describe("MCP registration from tools/list", () => {
  const toolsList = { tools: [
    { name: "list_issues", inputSchema: { type: "object", properties: { repo: { type: "string" } } }, annotations: { readOnlyHint: true } },
    { name: "delete_repo", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
  ] };

  test("only a trusted server's read-only tools may be trusted wholesale", async () => {
    for (const [trusted, offered] of [[true, true], [false, false]]) {
      const broker = new ApprovalBroker({ policy: {} });
      const names = broker.tools.registerMcp("gh", trusted, toolsList);
      assert.deepEqual(names, ["mcp__gh__list_issues", "mcp__gh__delete_repo"]);
      const p = broker.requestApproval({ sessionId: "s", request: { tool: "mcp__gh__list_issues", input: { repo: "a" } } });
      assert.equal(broker.pending()[0].answers.includes("allowToolForSession"), offered, `trusted: ${trusted}`);
      broker.shutdown();
      await p;
    }
  });

  test("arguments are checked against the listed schema", async () => {
    const broker = new ApprovalBroker({ policy: {}, registry: { mcpServers: [{ server: "gh", tools: toolsList.tools }] } });
    const o = await broker.requestApproval({ sessionId: "s", request: { tool: "mcp__gh__list_issues", input: { repo: 42 } } });
    assert.equal(o.feedback.code, "INVALID_PARAMS");
    assert.throws(() => broker.tools.registerMcp("gh", false, [{ name: "x", inputSchema: { anyOf: [] } }]), { code: "INVALID_SCHEMA" });
  });
});
