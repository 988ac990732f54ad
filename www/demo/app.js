// The chat demo: a scripted agent asks for tool calls through the broker, a person answers on
// approval cards in the chat, and the side panels edit the rules, show the grants and the
// audit trail, all live.
import { auditPanel } from "./audit.js";
import { runAgent } from "./agent.js";
import { Chat, timings } from "./chat.js";
import { byId } from "./dom.js";
import { describeError, loadEngine, makeBroker, settings } from "./engine.js";
import { rulesPanel } from "./rules.js";
import { START_POLICY } from "./script.js";
import { trustPanel } from "./trust.js";

async function main() {
  const setup = settings();
  await loadEngine();
  /** @type {any} */
  let current;
  const broker = () => current;
  const chat = new Chat(byId("chat-log"), broker, setup.session);
  const report = (/** @type {string} */ message) => chat.say("error", message);

  const timeoutField = /** @type {HTMLInputElement} */ (byId("timeout"));
  timeoutField.value = String(setup.timeoutMs / 1000);
  const timeoutMs = () => {
    const seconds = Number(timeoutField.value);
    return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : setup.timeoutMs;
  };

  current = await makeBroker({ policy: JSON.stringify(START_POLICY), timeoutMs: setup.timeoutMs, report });
  const rules = rulesPanel({
    root: byId("rules"),
    policy: START_POLICY,
    apply: (engine) => {
      try {
        broker().setPolicy(engine);
      } catch (error) {
        report(`the broker refused the policy: ${describeError(error)}`);
      }
    },
  });
  const trust = trustPanel({ root: byId("trust"), broker, session: setup.session, report });
  const audit = auditPanel({ root: byId("audit"), broker });

  // The grants are listed again once the answer that added one has finished.
  broker().onRequest((/** @type {any} */ approval) => chat.show(approval));
  broker().audit.onEvent((/** @type {any} */ event) => {
    audit.add(event);
    if (event.kind === "grant") queueMicrotask(() => trust.render());
  });

  const start = /** @type {HTMLButtonElement} */ (byId("start"));
  async function run() {
    start.disabled = true;
    try {
      await runAgent({ broker, chat, session: setup.session, timeoutMs, paceMs: setup.paceMs });
    } catch (error) {
      report(`the agent stopped: ${describeError(error)}`);
    } finally {
      start.disabled = false;
      start.textContent = "Run the agent again";
      document.body.dataset.agent = "done";
      trust.render();
    }
  }
  start.addEventListener("click", () => void run());

  const form = /** @type {HTMLFormElement} */ (byId("chat-form"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const field = /** @type {HTMLTextAreaElement} */ (form.elements.namedItem("message"));
    if (field.value.trim() === "") return;
    chat.say("user", field.value.trim());
    chat.say("note", "The scripted agent does not read replies: answer it on the cards.");
    field.value = "";
  });

  Object.assign(window, { demo: { broker, chat, timings, rules, trust } });
  document.body.dataset.ready = "true";
  if (setup.autostart) void run();
}

main().catch((error) => {
  byId("chat-log").append(`The engine failed to load: ${describeError(error)}`);
  document.body.dataset.ready = "error";
});
