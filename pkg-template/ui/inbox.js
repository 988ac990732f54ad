// The approval inbox page: pending approvals from every agent (each with where it comes from)
// answered with the approval card, the trust each project holds (revocable), and the audit
// trail with filters. It talks to its host only through a transport, so a browser tab
// (inbox-http.js), a VS Code webview or an Electron renderer can show it:
//
//   transport.subscribe(onEvent)      onEvent({type: "snapshot"|"add"|"settled"|"status", ...})
//   transport.answer(id, answer)      -> Promise; rejects with an Error whose message says why
//   transport.trust()                 -> Promise<[{project, session, grant}]>
//   transport.revoke(project, id)     -> Promise
//   transport.audit(filters)          -> Promise<[audit entries, newest first]>

import "./approval-card.js";
import { h } from "./dom.js";

const short = (s, n = 12) => (s && s.length > n ? `${s.slice(0, n)}…` : s || "–");
const when = (ms) => (typeof ms === "number" ? new Date(ms).toLocaleTimeString() : "");

/**
 * Mounts the inbox in `root`.
 *
 * @param {HTMLElement} root
 * @param {object} transport see the head of this file
 * @param {{ notify?: (title: string, body: string) => void }} [options]
 */
export function mountInbox(root, transport, options = {}) {
  const notify = options.notify ?? browserNotify;
  const count = h("span", { class: "tgi-count", text: "0" });
  const status = h("span", { class: "tgi-status", role: "status", text: "connecting…" });
  const list = h("div", { class: "tgi-list", role: "log", "aria-label": "Pending approvals" });
  const empty = h("p", { class: "tgi-empty", text: "Nothing waiting. Approvals from your agents appear here." });
  const notifyButton =
    typeof Notification !== "undefined" && Notification.permission === "default"
      ? h("button", { type: "button", class: "tgi-button", text: "Notify me", onclick: () => Notification.requestPermission().then(() => notifyButton.remove()) })
      : null;
  const trustBody = h("tbody");
  const trustError = h("p", { class: "tgi-error", role: "alert" });
  const auditBody = h("tbody");
  const auditError = h("p", { class: "tgi-error", role: "alert" });
  const filters = {
    agent: h("input", { type: "search", placeholder: "agent", "aria-label": "Filter by agent", name: "agent" }),
    verdict: h("select", { "aria-label": "Filter by verdict", name: "verdict" }, ...["", "allow", "ask", "deny", "defer"].map((v) => h("option", { value: v, text: v || "any verdict" }))),
    tool: h("input", { type: "search", placeholder: "tool", "aria-label": "Filter by tool", name: "tool" }),
    text: h("input", { type: "search", placeholder: "any text", "aria-label": "Filter by any text", name: "text" }),
  };
  /** @type {Map<string, HTMLElement>} */
  const cards = new Map();

  root.replaceChildren(
    h("header", { class: "tgi-header" }, h("h1", { text: "toolgate inbox" }), h("span", { class: "tgi-pending" }, count, " waiting"), status, notifyButton),
    h("section", { class: "tgi-panel", "aria-labelledby": "tgi-pending-h" }, h("h2", { id: "tgi-pending-h", text: "Waiting for you" }), empty, list),
    h(
      "section",
      { class: "tgi-panel", "aria-labelledby": "tgi-trust-h" },
      h("h2", { id: "tgi-trust-h", text: "Trust" }),
      h("button", { type: "button", class: "tgi-button", text: "Refresh", onclick: () => loadTrust() }),
      trustError,
      h("div", { class: "tgi-scroll" }, h("table", { class: "tgi-table" }, h("thead", {}, h("tr", {}, ...["Project", "Scope", "Rule", "Agent", "Granted", ""].map((t) => h("th", { text: t })))), trustBody)),
    ),
    h(
      "section",
      { class: "tgi-panel", "aria-labelledby": "tgi-audit-h" },
      h("h2", { id: "tgi-audit-h", text: "Audit trail" }),
      h("form", { class: "tgi-filters", onsubmit: (e) => (e.preventDefault(), loadAudit()), oninput: () => loadAudit() }, ...Object.values(filters)),
      auditError,
      h("div", { class: "tgi-scroll" }, h("table", { class: "tgi-table" }, h("thead", {}, h("tr", {}, ...["Time", "Agent", "Session", "Tool", "Verdict", "Decided by"].map((t) => h("th", { text: t })))), auditBody)),
    ),
  );

  const recount = () => {
    const n = [...cards.values()].filter((c) => c.dataset.state === "pending").length;
    count.textContent = String(n);
    empty.hidden = cards.size > 0;
    document.title = n > 0 ? `(${n}) toolgate inbox` : "toolgate inbox";
  };

  const add = (approval, quiet) => {
    if (cards.has(approval.id)) return;
    const p = approval.provenance ?? {};
    const card = document.createElement("toolgate-approval-card");
    card.focusOnShow = false;
    if (p.editable) card.setAttribute("editable", "");
    card.approval = approval;
    const item = h(
      "article",
      { class: "tgi-item", "data-id": approval.id, "data-state": "pending", "data-agent": approval.agent ?? "" },
      h(
        "dl",
        { class: "tgi-provenance" },
        ...[
          ["Agent", approval.agent],
          ["Project", p.project],
          // Where the call runs, when the call names another directory than the project.
          // A directory whose links lead elsewhere shows where they lead.
          ...(p.cwd && (p.cwd !== p.project || p.cwdResolved) ? [["Runs in", p.cwdResolved ? `${p.cwd} → ${p.cwdResolved}` : p.cwd]] : []),
          ["Session", short(approval.sessionId, 16)],
          ["Event", p.event],
          ["Asked because", approval.reason],
          ["Would remember", (p.rules ?? []).join(", ") || "–"],
        ].flatMap(([k, v]) => [h("dt", { text: k }), h("dd", { text: v ?? "–", title: v ?? "" })]),
      ),
      card,
      h("p", { class: "tgi-error", role: "alert" }),
    );
    cards.set(approval.id, item);
    list.prepend(item);
    recount();
    if (!quiet) {
      item.dataset.shownAt = String(performance.now());
      if (document.hidden) notify(`${approval.agent ?? "An agent"} asks: ${approval.tool}`, approval.description);
    }
  };

  const settled = (id, record) => {
    const item = cards.get(id);
    if (!item || item.dataset.state !== "pending") return;
    item.dataset.state = "settled";
    const card = item.querySelector("toolgate-approval-card");
    if (card && card.record === null) card.settle(record);
    recount();
  };

  root.addEventListener("toolgate-answer", (event) => {
    event.preventDefault();
    const { id, answer } = event.detail;
    const item = cards.get(id);
    transport.answer(id, answer).then(
      () => settled(id, answer.kind === "deny" ? { status: "denied", message: answer.message } : { status: "approved", scope: answer.scope ?? "toolSession" }),
      (e) => {
        const err = item?.querySelector(".tgi-error");
        if (err) err.textContent = e.message;
        settled(id, { status: "cancelled" });
      },
    );
  });

  const loadTrust = () =>
    transport.trust().then(
      (grants) => {
        trustError.textContent = "";
        trustBody.replaceChildren(
          ...grants.map(({ project, session, grant }) =>
            h(
              "tr",
              { "data-grant": grant.id },
              h("td", { text: project }),
              h("td", { text: session ? `session ${short(session, 16)}` : "always" }),
              h("td", {}, h("code", { text: grant.rule })),
              h("td", { text: grant.agent ?? "any" }),
              h("td", { text: when(grant.createdAt) }),
              h("td", {}, h("button", { type: "button", class: "tgi-button", text: "Revoke", "aria-label": `Revoke ${grant.rule}`, onclick: () => transport.revoke(project, grant.id).then(loadTrust, (e) => (trustError.textContent = e.message)) })),
            ),
          ),
        );
      },
      (e) => (trustError.textContent = e.message),
    );

  let auditTimer = 0;
  const loadAudit = () => {
    clearTimeout(auditTimer);
    auditTimer = setTimeout(() => {
      const f = Object.fromEntries(Object.entries(filters).map(([k, el]) => [k, el.value]));
      transport.audit(f).then((entries) => {
        auditError.textContent = "";
        auditBody.replaceChildren(
          ...entries.map((e) =>
            h(
              "tr",
              { "data-verdict": e.verdict ?? "" },
              h("td", { text: new Date(e.at).toLocaleString() }),
              h("td", { text: e.agent ?? "–" }),
              h("td", { text: short(e.sessionId, 12), title: e.sessionId ?? "" }),
              h("td", {}, h("code", { text: e.tool ?? "–" })),
              h("td", { text: e.verdict ?? "–" }),
              h("td", { text: decidedBy(e) }),
            ),
          ),
        );
      }, (e) => (auditError.textContent = e.message));
    }, 150);
  };

  transport.subscribe((event) => {
    if (event.type === "snapshot") {
      for (const a of event.approvals) add(a, true);
      status.textContent = "connected";
    } else if (event.type === "add") add(event.approval, false);
    else if (event.type === "settled") {
      const a = event.answer;
      settled(event.id, a === null ? { status: event.why === "the hook stopped waiting" ? "expired" : "cancelled" } : a.kind === "deny" ? { status: "denied", message: a.message } : a.kind === "ask" ? { status: "cancelled" } : { status: "approved", scope: a.scope });
      loadAudit();
      if (a?.scope && a.scope !== "once") loadTrust();
    } else if (event.type === "status") status.textContent = event.text;
  });
  loadTrust();
  loadAudit();
  return { refresh: () => (loadTrust(), loadAudit()) };
}

/**
 * Who decided an audit entry: a person in the inbox (the answer, its scope, whether edited
 * arguments ran instead), else the policy's reason or the hook's error.
 */
function decidedBy(e) {
  const inbox = e.inbox;
  if (inbox?.answeredBy !== "inbox") return e.decidedBy ?? e.error ?? "";
  const scope = inbox.scope ? ` (${inbox.scope})` : "";
  return `inbox: ${inbox.answer}${scope}${inbox.inputReplaced ? ", edited arguments ran instead" : ""}`;
}

/** A browser notification, when the page may show them. */
function browserNotify(title, body) {
  if (typeof Notification !== "undefined" && Notification.permission === "granted") new Notification(title, { body, tag: "toolgate-inbox" });
}
