// The webview page: the broker and the card in one strict-CSP page, as in a VS Code extension's
// webview. One shell command is asked for on load; "Ask again" asks for it once more.
import "/pkg/ui/approval-card.js";
import { describeError, loadEngine, toolgate } from "./engine.js";
import { h, byId } from "./dom.js";
import { CWD } from "./script.js";

const SESSION = "webview-1";

async function main() {
  await loadEngine();
  const broker = new toolgate.ApprovalBroker({ policy: { permissions: { allow: ["Bash(git status)"] } } });
  const log = byId("log");
  const say = (text, status) => log.append(h("p", { class: "msg", "data-status": status, text }));
  const cards = new Map();

  broker.onRequest((/** @type {any} */ approval) => {
    const card = /** @type {any} */ (document.createElement("toolgate-approval-card"));
    card.approval = approval;
    cards.set(approval.id, card);
    log.append(card);
  });
  log.addEventListener("toolgate-answer", (event) => {
    const { id, answer } = /** @type {CustomEvent} */ (event).detail;
    event.preventDefault();
    try {
      broker.respond(id, answer);
    } catch (error) {
      say(`The broker refused the answer: ${describeError(error)}`, "error");
    }
  });

  let n = 0;
  async function ask() {
    n += 1;
    const outcome = await broker.requestApproval({
      sessionId: SESSION,
      callId: `webview-${n}`,
      request: { tool: "Bash", input: { command: "npm run build && git push origin main" }, cwd: CWD, agent: "copilot" },
    });
    const card = cards.get(outcome.id);
    if (card && card.record === null) card.settle({ status: outcome.status, ...(outcome.scope ? { scope: outcome.scope } : {}) });
    say(outcome.status === "approved" ? `Ran (${outcome.by}).` : `Not run: ${outcome.feedback?.aiMessage ?? outcome.status}`, outcome.status);
  }
  byId("ask").addEventListener("click", () => void ask());
  document.body.dataset.ready = "true";
  await ask();
}

main().catch((error) => {
  byId("log").append(`The engine failed to load: ${describeError(error)}`);
  document.body.dataset.ready = "error";
});
