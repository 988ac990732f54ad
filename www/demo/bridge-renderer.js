// Renderer side of the bridge demo: no engine here, only the card. Approvals arrive over the
// port the main page hands over; answers go back the same way.
import "/pkg/ui/approval-card.js";
import { demoApprovalClient } from "./bridge-protocol.js";
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
  const client = demoApprovalClient(port);
  client.onRequest((approval) => {
    const card = document.createElement("toolgate-approval-card");
    /** @type {any} */ (card).approval = approval;
    cards.set(approval.id, card);
    root.append(card);
  });
  client.onSettled(({ id, outcome }) => {
    const card = cards.get(id);
    if (card === undefined || card.record !== null) return;
    cards.delete(id);
    card.settle({ status: outcome.status, ...(outcome.scope ? { scope: outcome.scope } : {}), ...(outcome.message ? { message: outcome.message } : {}) });
  });
  client.onRefused(({ error }) => root.append(h("p", { class: "msg msg-error", text: `Refused: ${error.code}: ${error.message}` })));
  root.addEventListener("toolgate-answer", (e) => {
    e.preventDefault();
    const { id, answer } = /** @type {CustomEvent} */ (e).detail;
    client.respond(id, answer);
  });
  root.addEventListener("toolgate-answer-all", (e) => {
    e.preventDefault();
    if (/** @type {CustomEvent} */ (e).detail.kind === "allowAll") client.approveAll();
    else client.denyAll();
  });
  Object.assign(window, { demo: { client } });
  document.body.dataset.ready = "true";
});
window.parent.postMessage({ type: "toolgate-demo/ready" }, location.origin);
