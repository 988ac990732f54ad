// @ts-check
// The renderer: the approval card and the bridge's client over the preload's `window.toolgate`.
// No engine runs here; every answer goes to the main process, which checks it.
import "../node_modules/toolgate/ui/approval-card.js";
import { createApprovalClient } from "../node_modules/toolgate/web/toolgate.js";

const api = window.toolgate;
const cards = /** @type {HTMLElement} */ (document.getElementById("cards"));
const empty = /** @type {HTMLElement} */ (document.getElementById("empty"));
/** @type {Map<string, import("../node_modules/toolgate/ui/approval-card.js").ToolgateApprovalCard>} */
const open = new Map();

/** @type {(() => void) | undefined} */
let unsubscribe;
const client = createApprovalClient({
  postMessage: (message) => api.send(/** @type {any} */ (message)),
  on: (_type, listener) => {
    unsubscribe = api.onMessage(listener);
  },
  off: () => unsubscribe?.(),
});

const refresh = () => {
  empty.hidden = open.size > 0;
  for (const card of open.values()) card.batch = open.size > 1;
};

client.onRequest((approval) => {
  const card = document.createElement("toolgate-approval-card");
  card.approval = /** @type {any} */ (approval);
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
client.onRejected((id, error) => console.warn(`toolgate: ${id}: ${error.code}: ${error.message}`));
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
  answer(() => client.respond(event.detail.id, event.detail.answer));
});
cards.addEventListener("toolgate-answer-all", (event) => {
  event.preventDefault();
  const sessionId = /** @type {any} */ (event.target).approval?.sessionId;
  answer(() => (event.detail.kind === "allowAll" ? client.approveAll(sessionId) : client.denyAll(sessionId)));
});
refresh();
document.body.dataset.ready = "true";
