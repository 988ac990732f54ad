// The adapters' declarations against the real frameworks' declarations: what each adapter
// returns is accepted where the framework takes it (tsc --noEmit over the built package and
// the frameworks installed in the workspace).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { ROOT } from "../corpus.mjs";

const root = fileURLToPath(ROOT);
const dir = join(root, "target", "adapters-types");
const adapters = join(root, "pkg", "web", "adapters");

const CHECK = `import { ApprovalBroker } from "${join(root, "pkg", "web", "toolgate.js")}";
import { gateTools } from "${join(adapters, "ai-sdk.js")}";
import { createAgentsGate } from "${join(adapters, "openai-agents.js")}";
import { createLangChainGate } from "${join(adapters, "langchain.js")}";
import { createCopilotPermissionHandler } from "${join(adapters, "copilot.js")}";
import { createMcpGate } from "${join(adapters, "mcp.js")}";
import { generateText, jsonSchema, tool as aiTool, type LanguageModel } from "ai";
import { Agent, tool as agentsTool, type RunState } from "@openai/agents";
import { createAgent, humanInTheLoopMiddleware, tool as lcTool } from "langchain";
import type { PermissionHandler } from "@github/copilot-sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

declare const model: LanguageModel;
const broker = new ApprovalBroker({ policy: {} });
const gate = { broker, sessionId: "s" };

// AI SDK: the gated tool set goes where the tool set went.
const weather = aiTool({
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }),
  execute: async ({ city }) => ({ city, degrees: 21 }),
});
void generateText({ model, tools: gateTools({ weather }, gate), prompt: "hi" });

// OpenAI Agents: the gated tool is a tool; the result's state answers interruptions.
const agentsGate = createAgentsGate(gate);
const shell = agentsTool({ name: "Bash", description: "", parameters: z.object({ command: z.string() }), execute: async ({ command }) => command });
const agent = new Agent({ name: "a", tools: [agentsGate.tool(shell)] });
declare const state: RunState<unknown, typeof agent>;
void agentsGate.resolveInterruptions(state);
agentsGate.approve(state, state.getInterruptions()[0]!, { alwaysApprove: true });

// LangChain: the middleware and the interruptOn configuration.
const lcGate = createLangChainGate(gate);
const bash = lcTool(async ({ command }) => command, { name: "Bash", description: "", schema: z.object({ command: z.string() }) });
createAgent({ model: "openai:gpt-4o", tools: [bash],
  middleware: [humanInTheLoopMiddleware({ interruptOn: lcGate.interruptOn(["Bash"]) }), lcGate.middleware] });

// Copilot SDK: the handler is a PermissionHandler.
const onPermissionRequest: PermissionHandler = createCopilotPermissionHandler({ broker });

// MCP: the SDK's client is a client, the elicitation handler a request handler.
const client = new Client({ name: "host", version: "1" });
const mcp = createMcpGate(client, { ...gate, server: "github" });
client.setRequestHandler(ElicitRequestSchema, (request) => mcp.elicitationHandler(request));
export { onPermissionRequest };
`;

// The Copilot SDK is installed here rather than in the workspace: its lock entries name
// platform packages the registry does not always carry, which `npm ci` refuses.
const COPILOT_SDK = "@github/copilot-sdk@1.0.14";

test("each adapter fits its framework's own declarations", () => {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "node_modules", "@github", "copilot-sdk", "package.json"))) {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true }));
    execFileSync("npm", ["install", "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", COPILOT_SDK],
      { cwd: dir, stdio: "ignore" });
  }
  writeFileSync(join(dir, "check.mts"), CHECK);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, target: "es2022", module: "nodenext",
      moduleResolution: "nodenext", lib: ["es2022", "dom"], types: [] },
    files: ["check.mts"],
  }));
  try {
    execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
  } catch (err) {
    assert.fail(`tsc failed:\n${err.stdout}${err.stderr}`);
  }
});
