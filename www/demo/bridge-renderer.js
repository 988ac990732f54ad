// Renderer side of the bridge demo: no engine runs here (the wasm is never loaded), only the
// card and the package's bridge client. Approvals arrive over the port the main page hands
// over; answers go back the same way.
import "/pkg/ui/approval-card.js";
import { createApprovalClient } from "/pkg/web/toolgate.js";
import { byId, h } from "./dom.js";

const root = byId("cards");
/** @type {Map<string, any>} */
const cards = new Map();

window.addEventListener("message", (event) => {
  if (event.source !== window.parent || event.origin !== location.origin) return;
  if (event.data?.type === "toolgate-demo/hello") {
    window.parent.postMessage({ type: "toolgate-demo/ready" }, location.origin);
    return;
  }
  if (event.data?.type !== "toolgate-demo/connect" || document.body.dataset.ready === "true") return;
  const port = event.ports[0];
  if (port === undefined) return;
  const report = (/** @type {any} */ error) => root.append(h("p", { class: "msg msg-error", text: `Refused: ${error.code}: ${error.message}` }));
  const client = createApprovalClient(port, { onError: report });
  const send = (/** @type {string} */ id, /** @type {unknown} */ a) => {
    try {
      client.respond(id, /** @type {any} */ (a));
    } catch (error) {
      report(error);
    }
  };
  // Several waiting requests make a batch: every card then offers Allow all / Deny all.
  const syncBatch = () => {
    const batch = client.pending().length > 1;
    for (const card of cards.values()) card.batch = batch;
  };
  client.onRequest((approval) => {
    const card = document.createElement("toolgate-approval-card");
    /** @type {any} */ (card).approval = approval;
    cards.set(approval.id, card);
    root.append(card);
    syncBatch();
  });
  client.onSettled((id, outcome) => {
    const card = cards.get(id);
    if (card === undefined || card.record !== null) return;
    cards.delete(id);
    card.settle({ status: outcome.status, ...(outcome.scope ? { scope: outcome.scope } : {}), ...(outcome.message ? { message: outcome.message } : {}) });
    syncBatch();
  });
  client.onRejected((_id, error) => report(error));
  root.addEventListener("toolgate-answer", (e) => {
    e.preventDefault();
    const { id, answer } = /** @type {CustomEvent} */ (e).detail;
    send(id, answer);
  });
  root.addEventListener("toolgate-answer-all", (e) => {
    e.preventDefault();
    // Allow all / Deny all go to the host as one message for the card's session; the host
    // approves only the requests this renderer has shown.
    const sessionId = /** @type {any} */ (e.target).approval?.sessionId;
    if (typeof sessionId !== "string") return;
    try {
      if (/** @type {CustomEvent} */ (e).detail.kind === "allowAll") client.approveAll(sessionId);
      else client.denyAll(sessionId);
    } catch (error) {
      report(error);
    }
  });
  Object.assign(window, { demo: { client, port } });
  document.body.dataset.ready = "true";
});
window.parent.postMessage({ type: "toolgate-demo/ready" }, location.origin);
