// toolgate/copilot: the Copilot SDK permission handler (Path A, with the SDK's request
// shapes) and the `copilot` CLI arguments and denial lines (Path B, from the CLI's recorded
// behaviour).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PKG } from "../corpus.mjs";

const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));
const { copilotCliArgs, copilotDenials, copilotToolRequest, createCopilotPermissionHandler } =
  await import(new URL("web/adapters/copilot.js", PKG));

const POLICY = { permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)", "Read(./.env)"] } };
const shell = (fullCommandText, toolCallId = "t1") => ({
  kind: "shell", fullCommandText, toolCallId, canOfferSessionApproval: true, commands: [], possiblePaths: [],
  possibleUrls: [], hasWriteFileRedirection: false, intention: "run",
});

describe("toolgate/copilot Path A: the SDK's permission handler", () => {
  test("requests map to toolgate tools", () => {
    assert.deepEqual(copilotToolRequest(shell("git status")), { tool: "bash", input: { command: "git status" } });
    assert.equal(copilotToolRequest({ kind: "read", path: "a", resolvedPath: "/p/a", intention: "" }).input.file_path, "/p/a");
    assert.equal(copilotToolRequest({ kind: "url", url: "https://x.example", intention: "" }).tool, "fetch");
    assert.equal(copilotToolRequest({ kind: "mcp", serverName: "gh", toolName: "create_issue", readOnly: false, toolTitle: "" }).tool,
      "mcp__gh__create_issue");
    assert.equal(copilotToolRequest({ kind: "memory" }).tool, "copilot_other");
  });

  test("allow approves once; deny rejects with the model's feedback; other kinds ask", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    const asked = [];
    broker.onRequest((a) => { asked.push(a.tool); broker.respond(a.id, { kind: "deny", message: "no" }); });
    const handler = createCopilotPermissionHandler({ broker, cwd: "/p" });
    assert.deepEqual(await handler(shell("npm test"), { sessionId: "s" }), { kind: "approve-once" });
    const denied = await handler(shell("curl https://x.example", "t2"), { sessionId: "s" });
    assert.equal(denied.kind, "reject");
    assert.match(denied.feedback, /Permission denied/);
    assert.equal((await handler({ kind: "memory", toolCallId: "t3" }, { sessionId: "s" })).kind, "reject");
    assert.deepEqual(asked, ["copilot_other"]);
  });

  test("an edit cannot run through the SDK: rejected, naming the edit; a session answer does not ask twice", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    let asked = 0;
    broker.onRequest((a) => {
      asked += 1;
      broker.respond(a.id, a.input.command === "make"
        ? { kind: "allow", scope: "once", editedInput: { command: "make -n" } }
        : { kind: "allow", scope: "session" });
    });
    const handler = createCopilotPermissionHandler({ broker, cwd: "/p" });
    const edited = await handler(shell("make"), { sessionId: "s" });
    assert.equal(edited.kind, "reject");
    assert.match(edited.feedback, /make -n/);
    assert.deepEqual(await handler(shell("npm run lint", "t2"), { sessionId: "s" }), { kind: "approve-once", approvedInteractively: true });
    assert.deepEqual(await handler(shell("npm run lint", "t3"), { sessionId: "s" }), { kind: "approve-once" });
    assert.equal(asked, 2);
  });

  test("a shell call is judged in the directory it runs in; the handler's cwd is the project", async () => {
    const broker = new ApprovalBroker({ policy: { permissions: { allow: ["Bash(cat *)"] } } });
    const asked = [];
    broker.onRequest((a) => { asked.push(a.input.command); broker.respond(a.id, { kind: "deny", message: "no" }); });
    const handler = createCopilotPermissionHandler({ broker, cwd: "/home/ada/proj" });
    const elsewhere = { ...shell("cat credentials"), resolvedWorkingDirectory: "/home/ada/.aws" };
    assert.equal((await handler(elsewhere, { sessionId: "s" })).kind, "reject");
    const inside = { ...shell("cat README.md", "t2"), resolvedWorkingDirectory: "/home/ada/proj/docs" };
    assert.deepEqual(await handler(inside, { sessionId: "s" }), { kind: "approve-once" });
    assert.deepEqual(asked, ["cat credentials"]);
    broker.shutdown();
  });

  test("a managed approval is answered only by a person, never by a rule or a grant", async () => {
    const broker = new ApprovalBroker({ policy: POLICY });
    broker.onRequest((a) => broker.respond(a.id, { kind: "allow", scope: "session" }));
    const handler = createCopilotPermissionHandler({ broker, cwd: "/p" });
    const managed = (command, id) => ({ ...shell(command, id), managedApprovalRequired: true });
    const byRule = await handler(managed("npm test", "t1"), { sessionId: "s" });
    assert.equal(byRule.kind, "reject");
    assert.match(byRule.feedback, /requires a person/);
    assert.deepEqual(await handler(managed("npm run lint", "t2"), { sessionId: "s" }), { kind: "approve-once", approvedInteractively: true });
    assert.equal((await handler(managed("npm run lint", "t3"), { sessionId: "s" })).kind, "reject", "a grant answered a managed approval");
    assert.deepEqual(await handler(shell("npm run lint", "t4"), { sessionId: "s" }), { kind: "approve-once" });
  });

  test("nobody answering in time rejects", async () => {
    let clock = 1_000_000;
    const broker = new ApprovalBroker({ policy: POLICY, now: () => clock });
    broker.onRequest(() => { setTimeout(() => { clock += 10 * 60 * 1000; broker.deadlines.tick(); }, 5); });
    const result = await createCopilotPermissionHandler({ broker })(shell("npm run lint"), { sessionId: "s" });
    assert.equal(result.kind, "reject");
    assert.match(result.feedback, /not approved in time/);
  });
});

describe("toolgate/copilot Path B: the copilot CLI", () => {
  test("only what the CLI can express without allowing more", () => {
    const grants = [
      { id: "g1", rule: "Bash(npm run lint *)", scope: "session", sessionId: "s", createdAt: 0 },
      { id: "g2", rule: "Bash(npm test)", scope: "session", sessionId: "s", createdAt: 0 },
      { id: "g3", rule: "WebFetch(domain:docs.rs)", scope: "always", createdAt: 0 },
      { id: "g4", rule: "WebFetch(domain:*.example.com)", scope: "always", createdAt: 0 },
      { id: "g5", rule: "Bash(git * main)", scope: "always", createdAt: 0 },
      { id: "g6", rule: "Bash(git status; rm -rf / *)", scope: "always", createdAt: 0 },
    ];
    const { args, skipped } = copilotCliArgs({ grants, sessionId: "s", policy: { permissions: { allow: ["shell(git:*)"], deny: ["Bash(curl *)", "Bash(git * main)"] } } });
    assert.deepEqual(args, ["--deny-tool", "shell(curl)", "--deny-tool", "shell(git)", "--allow-url", "docs.rs"]);
    assert.deepEqual(skipped.map((s) => s.rule), ["Bash(npm run lint *)", "Bash(npm test)", "WebFetch(domain:*.example.com)",
      "Bash(git * main)", "Bash(git status; rm -rf / *)", "shell(git:*)"]);
    // `shell(npm run lint)` is `npm run lint` with any arguments: the hook decides shell calls.
    assert.match(skipped[0].why, /with any arguments.*toolgate install --agent copilot/);
  });

  // The CLI reads `shell(x)` as `x` with any arguments: `shell(cp)` would plant a git hook
  // (`cp hook.sh .git/hooks/pre-commit`) and `shell(cat)` read `.env`, which toolgate asks about.
  test("no shell allow is passed: the CLI would run what toolgate asks about", () => {
    const allow = ["Bash(cp *)", "Bash(cat *)", "Bash(git diff *)", "Bash(ls *)"];
    const { args, skipped } = copilotCliArgs({
      policy: { permissions: { allow } },
      grants: [{ id: "g1", rule: "Bash(cp *)", scope: "always", createdAt: 0 }],
    });
    assert.deepEqual(args, []);
    assert.deepEqual(skipped.map((s) => s.rule), ["Bash(cp *)", ...allow]);
    for (const s of skipped) assert.match(s.why, /protected paths .*secret files/);
  });

  test("never looser than toolgate: asks, denies without a spelling, other agents', sessions' and expired grants", () => {
    const now = 1_000_000;
    const grants = [
      { id: "g1", rule: "Bash(git push *)", scope: "session", sessionId: "other", agent: "copilot", createdAt: 0 },
      { id: "g2", rule: "Bash(rm -rf build *)", scope: "always", agent: "claude", createdAt: 0 },
      { id: "g3", rule: "Bash(make *)", scope: "always", createdAt: 0, expiresAt: now - 1 },
      { id: "g4", rule: "Bash(npm test *)", scope: "session", sessionId: "s", agent: "copilot", createdAt: 0, expiresAt: now + 1 },
      { id: "g5", rule: "Bash(ls *)", scope: "session", sessionId: "s", createdAt: 0 },
    ];
    const policy = { permissions: {
      allow: ["Bash(npm run *)", "WebFetch(domain:github.com)", "WebFetch(domain:docs.rs)"],
      ask: ["Bash(npm run deploy *)", "WebFetch(domain:api.docs.rs)"],
      deny: ["WebFetch(domain:gist.github.com)", "mcp__github__delete_repository", "mcp__shell_server"],
    } };
    const { args, skipped } = copilotCliArgs({ grants, policy, sessionId: "s", now });
    assert.deepEqual(args, ["--deny-url", "gist.github.com", "--deny-tool", "github(delete_repository)", "--deny-tool", "shell_server",
      "--allow-url", "github.com"]);
    assert.deepEqual(skipped.map((s) => s.rule), ["Bash(git push *)", "Bash(rm -rf build *)", "Bash(make *)", "Bash(npm test *)",
      "Bash(ls *)", "Bash(npm run *)", "WebFetch(domain:docs.rs)"]);
    assert.match(skipped[0].why, /session `other`/);
    assert.match(skipped[6].why, /api\.docs\.rs/);
  });

  test("a deny is never narrower in the CLI's reading: exact commands as they are, wildcards deny the program", () => {
    const deny = ["Bash(touch denied.txt)", "Bash(touch secret *)", "Bash(npm:*)", "shell(git push)", "Bash($SHELL -c x)", "Read(./.env)"];
    assert.deepEqual(copilotCliArgs({ policy: { permissions: { deny } } }).args, [
      "--deny-tool", "shell(touch denied.txt)", "--deny-tool", "shell(touch)", "--deny-tool", "shell(npm)",
      "--deny-tool", "shell(git)", "--deny-tool", "shell",
    ]);
  });

  test("the CLI's permission-denied lines are recognised", () => {
    const out = [
      "Denied by preToolUse hook: touching out.txt needs approval",
      "Denied by preToolUse hook (unable to ask user for confirmation): asks",
      "Permission denied by a PermissionRequest hook: not now",
      "Permission denied because no interactive user response was available.",
      "Permission to run this tool was denied due to the following rules: `shell(touch)`",
      "all good",
    ].join("\n");
    assert.deepEqual(copilotDenials(out).map((d) => [d.by, d.reason]), [
      ["preToolUse", "touching out.txt needs approval"], ["preToolUse", "asks"],
      ["permissionRequest", "not now"], ["noUser", "."], ["rules", "`shell(touch)`"],
    ]);
  });
});
