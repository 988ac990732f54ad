// toolgate/mcp with the real MCP TypeScript SDK: a server and a client over an in-memory
// transport; tools/call gated by the broker, elicitation answered through it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

import { PKG } from "../corpus.mjs";

const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));
const { createMcpGate } = await import(new URL("web/adapters/mcp.js", PKG));

async function connect(ran) {
  const server = new McpServer({ name: "tracker", version: "1.0.0" });
  server.registerTool("list_issues", { description: "Lists issues", inputSchema: { repo: z.string() }, annotations: { readOnlyHint: true } },
    async ({ repo }) => { ran.push(`list ${repo}`); return { content: [{ type: "text", text: "[]" }] }; });
  server.registerTool("delete_repo", { description: "Deletes a repository", inputSchema: { repo: z.string() }, annotations: { destructiveHint: true } },
    async ({ repo }) => { ran.push(`delete ${repo}`); return { content: [{ type: "text", text: "gone" }] }; });
  server.registerTool("create_issue", { description: "Creates an issue", inputSchema: { title: z.string() } },
    async ({ title }) => {
      const answer = await server.server.elicitInput({ message: "Which label?", requestedSchema: { type: "object", properties: { label: { type: "string" } } } });
      ran.push(`create ${title} ${answer.action} ${answer.content?.label ?? ""}`);
      return { content: [{ type: "text", text: "ok" }] };
    });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, server };
}

describe("toolgate/mcp", () => {
  test("tools/call is gated; a denied call never reaches the server and the model reads why", async () => {
    const ran = [];
    const { client } = await connect(ran);
    const broker = new ApprovalBroker({ policy: { permissions: { allow: ["mcp__tracker__list_issues"], deny: ["mcp__tracker__delete_repo"] } } });
    const gate = createMcpGate(client, { broker, sessionId: "s", server: "tracker" });
    assert.deepEqual((await gate.registerTools()).sort(), ["mcp__tracker__create_issue", "mcp__tracker__delete_repo", "mcp__tracker__list_issues"]);
    const listed = await gate.callTool({ name: "list_issues", arguments: { repo: "a" } });
    assert.equal(listed.content[0].text, "[]");
    const denied = await gate.callTool({ name: "delete_repo", arguments: { repo: "a" } });
    assert.equal(denied.isError, true);
    assert.match(denied.content[0].text, /Permission denied/);
    assert.deepEqual(ran, ["list a"]);
  });

  test("an untrusted server's readOnlyHint loosens nothing: the call asks", async () => {
    const ran = [];
    const { client } = await connect(ran);
    const broker = new ApprovalBroker({ policy: {} });
    const asked = [];
    broker.onRequest((a) => { asked.push(a.tool); broker.respond(a.id, { kind: "deny", message: "not now" }); });
    const gate = createMcpGate(client, { broker, sessionId: "s", server: "tracker" });
    await gate.registerTools();
    const result = await gate.callTool({ name: "list_issues", arguments: { repo: "a" } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /not now/);
    assert.deepEqual(asked, ["mcp__tracker__list_issues"]);
    assert.deepEqual(ran, []);
  });

  test("an edited call is checked again; elicitation is answered through the broker", async () => {
    const ran = [];
    const { client } = await connect(ran);
    const broker = new ApprovalBroker({ policy: { permissions: { allow: ["mcp__tracker__create_issue"] } } });
    const gate = createMcpGate(client, { broker, sessionId: "s", server: "tracker" });
    await gate.registerTools();
    client.setRequestHandler(ElicitRequestSchema, (request) => gate.elicitationHandler(request));
    broker.onRequest((a) => {
      if (a.tool === "mcp_elicitation") broker.respond(a.id, { kind: "allow", scope: "once", editedInput: { ...a.input, content: { label: "bug" } } });
    });
    const result = await gate.callTool({ name: "create_issue", arguments: { title: "crash" } });
    assert.equal(result.content[0].text, "ok");
    assert.deepEqual(ran, ["create crash accept bug"]);
  });

  test("nobody answering in time denies", async () => {
    const ran = [];
    const { client } = await connect(ran);
    let clock = 1_000_000;
    const broker = new ApprovalBroker({ policy: {}, now: () => clock });
    broker.onRequest(() => { setTimeout(() => { clock += 10 * 60 * 1000; broker.deadlines.tick(); }, 5); });
    const gate = createMcpGate(client, { broker, sessionId: "s", server: "tracker" });
    await gate.registerTools();
    const result = await gate.callTool({ name: "delete_repo", arguments: { repo: "a" } });
    assert.match(result.content[0].text, /not approved in time/);
    assert.deepEqual(ran, []);
  });

  test("a stopped request cancels the pending approval; the call never reaches the server", async () => {
    const ran = [];
    const { client } = await connect(ran);
    const broker = new ApprovalBroker({ policy: {} });
    const cards = [];
    broker.onRequest((a) => cards.push(a));
    const gate = createMcpGate(client, { broker, sessionId: "s", server: "tracker" });
    await gate.registerTools();
    const stop = new AbortController();
    const result = gate.callTool({ name: "delete_repo", arguments: { repo: "a" } }, undefined, { signal: stop.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(cards.length, 1);
    stop.abort();
    const out = await result;
    assert.equal(out.isError, true);
    assert.match(out.content[0].text, /stopped the request/);
    assert.equal(broker.pending().length, 0);
    assert.throws(() => broker.respond(cards[0].id, { kind: "allow", scope: "once" }));
    const already = await gate.callTool({ name: "list_issues", arguments: { repo: "a" } }, "c2", { signal: AbortSignal.abort() });
    assert.equal(already.isError, true);
    assert.deepEqual(ran, []);
    broker.shutdown();
  });
});
