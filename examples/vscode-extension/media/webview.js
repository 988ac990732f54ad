// The webview: the approval card and the bridge's client, nothing else (no engine, no wasm).
// Approvals arrive from the extension host; answers go back the same way.
import "../node_modules/toolgate/ui/approval-card.js";
import { createApprovalClient } from "../node_modules/toolgate/web/toolgate.js";

// acquireVsCodeApi is defined by VS Code in every webview (callable once per page).
const vscode = acquireVsCodeApi();
const cards = /** @type {HTMLElement} */ (document.getElementById("cards"));
const empty = /** @type {HTMLElement} */ (document.getElementById("empty"));
/** @type {Map<string, any>} */
const open = new Map();

/** The bridge channel: post with VS Code's API, receive the host's `webview.postMessage`. */
const channel = {
  postMessage: (/** @type {unknown} */ message) => vscode.postMessage(message),
  addEventListener: (/** @type {"message"} */ type, /** @type {(e: MessageEvent) => void} */ l) => window.addEventListener(type, l),
  removeEventListener: (/** @type {"message"} */ type, /** @type {(e: MessageEvent) => void} */ l) => window.removeEventListener(type, l),
};
const client = createApprovalClient(channel);

const refresh = () => {
  empty.hidden = open.size > 0;
  for (const card of open.values()) card.batch = open.size > 1;
};

client.onRequest((approval) => {
  const card = /** @type {any} */ (document.createElement("toolgate-approval-card"));
  card.approval = approval;
  open.set(approval.id, card);
  cards.append(card);
  refresh();
});
client.onSettled((id, outcome) => {
  const card = open.get(id);
  if (card === undefined) return;
  open.delete(id);
  if (card.record === null) {
    card.settle({ status: outcome.status, ...(outcome.scope ? { scope: outcome.scope } : {}), ...(outcome.message ? { message: outcome.message } : {}) });
  }
  refresh();
});
/** Runs an answer; one the client refuses (answered already, or unknown) is logged, not thrown. */
const answer = (/** @type {() => unknown} */ send) => {
  try {
    send();
  } catch (error) {
    console.warn(`toolgate: the answer was refused: ${/** @type {Error} */ (error).message}`);
  }
};
cards.addEventListener("toolgate-answer", (event) => {
  event.preventDefault();
  const { id, answer: a } = /** @type {CustomEvent} */ (event).detail;
  answer(() => client.respond(id, a));
});
cards.addEventListener("toolgate-answer-all", (event) => {
  event.preventDefault();
  const sessionId = /** @type {any} */ (event.target).approval?.sessionId;
  const all = /** @type {CustomEvent} */ (event).detail.kind === "allowAll";
  answer(() => (all ? client.approveAll(sessionId) : client.denyAll(sessionId)));
});
refresh();
document.body.dataset.ready = "true";
