// <toolgate-approval-card>: the approval card of toolgate, a framework-free
// custom element. Give it a `PendingApproval` (the broker's wire type) through
// the `approval` property; it emits `toolgate-answer` / `toolgate-answer-all`
// events and, once answered or settled, leaves a one-line record.
//
// The card builds its DOM with createElement and Text nodes only (never
// markup from data), sets no inline styles and evaluates no code, so it runs
// under `default-src 'none'; script-src 'self'; style-src 'self'` with
// approval-card.css loaded by a <link>.

import { h, icon } from "./dom.js";
import { renderJson } from "./json-view.js";
import { diffLines, foldUnchanged } from "./line-diff.js";
import { approvalProblems, callLabel } from "./approval-check.js";

export { diffLines, foldUnchanged } from "./line-diff.js";
export { renderJson } from "./json-view.js";
export { approvalProblems, callLabel } from "./approval-check.js";

/** The tag name the card is defined under. */
export const TAG = "toolgate-approval-card";

const RISK = {
  low: { text: "Low risk", icon: "check" },
  medium: { text: "Medium risk", icon: "warn" },
  high: { text: "High risk", icon: "stop" },
};
const EFFECT = {
  allow: { text: "allowed", icon: "check" },
  ask: { text: "asks", icon: "question" },
  deny: { text: "denied", icon: "stop" },
};
const STATUS = {
  approved: { icon: "check" },
  denied: { icon: "cross" },
  expired: { icon: "clock" },
  cancelled: { icon: "cross" },
};
const SCOPE_TEXT = { once: "Allowed once", session: "Allowed for this session", always: "Always allowed" };

/** Diff rows drawn at most; the rest is summarised. */
const MAX_DIFF_ROWS = 400;

let sequence = 0;

/**
 * Says `text` through the page's polite live region (created on first use,
 * shared by all cards).
 *
 * @param {string} text
 */
export function announce(text) {
  let region = document.getElementById("toolgate-live");
  if (region === null) {
    region = h("div", { id: "toolgate-live", class: "tg-visually-hidden", role: "status", "aria-live": "polite" });
    document.body.append(region);
  }
  region.textContent = text;
}

/** True when the user is typing in a text field that is not part of a card. */
function typingOutsideCards() {
  /** @type {Element | null} */
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (active === null || active === document.body || active.closest(TAG) !== null) return false;
  if (active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement) return true;
  if (active instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"].includes(active.type);
  }
  return active instanceof HTMLElement && active.isContentEditable;
}

/** True for controls that act on Enter by themselves (buttons, fold toggles, links). */
function activatesOnEnter(/** @type {EventTarget | null} */ target) {
  return target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement || (target instanceof HTMLElement && target.localName === "summary");
}

function isTextEntry(/** @type {EventTarget | null} */ target) {
  if (target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "reset"].includes(target.type);
}

/**
 * Formats a remaining time as `m:ss` (or `h:mm:ss`), rounding up.
 *
 * @param {number} ms
 */
export function formatRemaining(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const s = String(total % 60).padStart(2, "0");
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}:${s}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}:${s}`;
}

export class ToolgateApprovalCard extends HTMLElement {
  static get observedAttributes() {
    return ["batch", "modal", "editable"];
  }

  /** The clock, in Unix milliseconds; replace it to test the countdown. */
  now = () => Date.now();
  /** Enter is ignored this long (ms) after the card appears, so a keystroke meant for the chat cannot allow. */
  keyGuardMs = 300;
  /** Whether the card may take focus when it appears (never from a text field outside the cards). */
  autoFocus = true;

  /** @type {import("./approval-card").PendingApproval | null} */
  #approval = null;
  /** @type {string[]} */
  #problems = [];
  /** @type {import("./approval-card").SettledRecord | null} */
  #record = null;
  #active = false;
  #busy = false;
  #shownAt = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  #timer = undefined;
  /** @type {Record<string, HTMLElement>} */
  #els = {};
  #id = `tg-card-${++sequence}`;

  constructor() {
    super();
    this.addEventListener("keydown", (event) => this.#onKey(event));
  }

  /** The pending approval shown, or null. Setting it draws the card anew. */
  get approval() {
    return this.#approval;
  }
  set approval(value) {
    this.#stop();
    this.#approval = value;
    this.#problems = value === null ? [] : approvalProblems(value);
    this.#record = null;
    this.#busy = false;
    this.#active = false;
    this.#render();
    if (this.isConnected) this.#activate();
  }

  /** The record left once settled, or null while pending. */
  get record() {
    return this.#record;
  }

  /** Whether a batch is pending (shows Allow all / Deny all where offered). */
  get batch() {
    return this.hasAttribute("batch");
  }
  set batch(on) {
    this.toggleAttribute("batch", Boolean(on));
  }
  /** Whether the card shows as a modal dialog instead of inline. */
  get modal() {
    return this.hasAttribute("modal");
  }
  set modal(on) {
    this.toggleAttribute("modal", Boolean(on));
  }
  /** Whether the arguments may be edited before allowing. */
  get editable() {
    return this.hasAttribute("editable");
  }
  set editable(on) {
    this.toggleAttribute("editable", Boolean(on));
  }

  connectedCallback() {
    if (this.#approval !== null && this.#record === null) this.#activate();
  }

  disconnectedCallback() {
    this.#stop();
    this.#active = false;
  }

  /**
   * @param {string} name
   * @param {string | null} before
   * @param {string | null} after
   */
  attributeChangedCallback(name, before, after) {
    if ((before === null) === (after === null)) return;
    if (name === "batch") this.#syncBatch();
    else if (this.#approval !== null && this.#record === null) this.approval = this.#approval;
  }

  /** Moves focus to the card (its group, or the record once settled). */
  focus(/** @type {FocusOptions | undefined} */ options) {
    (this.#els.root ?? this.#els.record)?.focus(options);
  }

  /** Recomputes the countdown now; the card's own timer calls it twice a second. */
  tick() {
    const approval = this.#approval;
    if (approval === null || this.#record !== null || this.#problems.length > 0) return;
    const left = approval.deadline - this.now();
    if (left <= 0) {
      this.#expire();
      return;
    }
    const countdown = this.#els.countdown;
    if (countdown) {
      countdown.textContent = `Auto-deny in ${formatRemaining(left)}`;
      this.#els.timer?.classList.toggle("tg-urgent", left <= 10_000);
    }
  }

  /**
   * Replaces the card with a one-line record of how the request ended.
   *
   * @param {import("./approval-card").SettledRecord} record
   */
  settle(record) {
    if (record === null || typeof record !== "object" || !Object.hasOwn(STATUS, record.status)) {
      throw new TypeError(
        `unknown status \`${String(record?.status)}\`: expected \`approved\`, \`denied\`, \`expired\` or \`cancelled\``,
      );
    }
    const hadFocus = this.contains(document.activeElement);
    this.#stop();
    this.#record = { ...record };
    const line = recordText(this.#approval, this.#problems, record);
    const dialog = this.#els.dialog;
    if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
    const element = h(
      "p",
      { class: "tg-record", "data-status": record.status, tabindex: "-1" },
      icon(STATUS[record.status].icon),
      h("span", { text: line }),
    );
    this.#els = { record: element };
    this.dataset.state = "settled";
    this.replaceChildren(element);
    if (this.#active) announce(line);
    this.#active = false;
    if (hadFocus) {
      const cards = [...document.querySelectorAll(TAG)].filter(
        (card) => card instanceof ToolgateApprovalCard && card.approval !== null && card.record === null,
      );
      const next = cards.find((card) => this.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING) ?? cards.at(-1);
      (next ?? element).focus();
    }
  }

  #stop() {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #activate() {
    if (this.#active || this.#approval === null || this.#record !== null) return;
    this.#active = true;
    this.#shownAt = performance.now();
    const approval = this.#approval;
    if (this.#problems.length === 0) {
      this.tick();
      if (this.#record !== null) return;
      this.#timer = setInterval(() => this.tick(), 500);
      announce(`Approval needed: ${approval.title}. ${approval.description}. ${RISK[approval.risk].text}.`);
    } else {
      announce("Approval needed: a request that cannot be shown");
    }
    const dialog = this.#els.dialog;
    if (dialog instanceof HTMLDialogElement) {
      if (!dialog.open) dialog.showModal();
      this.#els.root?.focus();
    } else if (this.autoFocus && !typingOutsideCards()) {
      this.#els.root?.focus({ preventScroll: false });
    }
  }

  #expire() {
    const approval = this.#approval;
    if (approval === null || this.#record !== null) return;
    this.dispatchEvent(new CustomEvent("toolgate-expired", { detail: { id: approval.id }, bubbles: true, composed: true }));
    if (this.#record === null) this.settle({ status: "expired" });
  }

  #syncBatch() {
    for (const key of ["allowAll", "denyAll"]) {
      const button = this.#els[key];
      if (button) button.hidden = !this.batch;
    }
  }

  /** @param {KeyboardEvent} event */
  #onKey(event) {
    if (event.defaultPrevented || event.isComposing || this.#record !== null || this.#approval === null) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (event.key === "Enter") {
      if (isTextEntry(target)) return;
      if (!event.altKey && activatesOnEnter(target)) return;
      event.preventDefault();
      if (performance.now() - this.#shownAt < this.keyGuardMs) return;
      if (event.altKey) {
        if (this.#offersBatch("allowAll")) this.#answerAll("allowAll");
      } else this.#allow();
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (event.altKey) {
        if (this.#offersBatch("denyAll")) this.#answerAll("denyAll");
      } else this.#deny();
    }
  }

  /** @param {"allowAll" | "denyAll"} kind */
  #offersBatch(kind) {
    return this.batch && this.#problems.length === 0 && (this.#approval?.answers.includes(kind) ?? false);
  }

  #render() {
    this.#els = {};
    this.dataset.state = this.#approval === null ? "empty" : "pending";
    if (this.#approval === null) {
      this.replaceChildren();
      return;
    }
    const body = this.#problems.length === 0 ? this.#body(this.#approval) : this.#broken();
    const ids = { title: `${this.#id}-title`, describe: body.describedBy.join(" ") };
    const props = {
      class: "tg-card",
      tabindex: "-1",
      "aria-labelledby": ids.title,
      "aria-describedby": ids.describe,
      "data-risk": this.#problems.length === 0 ? this.#approval.risk : "high",
    };
    let root;
    if (this.modal) {
      root = h("dialog", { ...props, class: "tg-card tg-modal", role: "alertdialog", "aria-modal": "true" }, body.nodes);
      root.addEventListener("cancel", (event) => event.preventDefault());
      this.#els.dialog = root;
    } else {
      root = h("div", { ...props, role: "group" }, body.nodes);
    }
    this.#els.root = root;
    this.replaceChildren(root);
    this.#syncBatch();
  }

  /** The card for a request that failed the shape check: the problems and Deny. */
  #broken() {
    const approval = /** @type {Record<string, unknown>} */ (this.#approval);
    const canDeny = typeof approval.id === "string" && approval.id !== "";
    const nodes = [
      h("div", { class: "tg-head" }, h("span", { class: "tg-risk" }, icon("stop"), "Cannot show this request")),
      h("p", { id: `${this.#id}-title`, class: "tg-title", role: "heading", "aria-level": "3", text: "This approval request is malformed" }),
      h(
        "div",
        { id: `${this.#id}-desc`, class: "tg-problems" },
        h("p", { text: "It cannot be allowed from here. What is wrong:" }),
        h("ul", {}, this.#problems.map((text) => h("li", { text }))),
      ),
      h(
        "div",
        { class: "tg-actions" },
        h("span", { class: "tg-spacer" }),
        canDeny && this.#button("deny", "Deny", "tg-danger", () => this.#deny()),
      ),
    ];
    return { nodes, describedBy: [`${this.#id}-desc`] };
  }

  /** @param {import("./approval-card").PendingApproval} a */
  #body(a) {
    const id = this.#id;
    const offered = new Set(a.answers);
    const canOnce = offered.has("allowOnce");
    const canSession = a.trustable && offered.has("allowSession");
    const canAlways = a.trustable && offered.has("allowAlways");
    const canAllow = canOnce || canSession || canAlways;
    const canDeny = offered.has("deny");
    const risk = RISK[a.risk];
    /** @type {string[]} */
    const describedBy = [`${id}-desc`];

    const timer = h("p", { class: "tg-timer" }, icon("clock"), (this.#els.countdown = h("span", { role: "timer" })));
    this.#els.timer = timer;
    const head = h(
      "div",
      { class: "tg-head" },
      h("span", { class: "tg-risk", "data-risk": a.risk }, icon(risk.icon), risk.text),
      h("code", { class: "tg-tool", text: a.tool }),
      timer,
    );
    const title = h("p", { id: `${id}-title`, class: "tg-title", role: "heading", "aria-level": "3", text: a.title });
    const agent = a.agent !== null && h("p", { class: "tg-agent" }, "Requested by ", h("strong", { text: a.agent }));
    const description = h("p", { id: `${id}-desc`, class: "tg-description", text: a.description });
    let warning = null;
    if (a.risk === "high") {
      describedBy.push(`${id}-warn`);
      warning = h(
        "p",
        { id: `${id}-warn`, class: "tg-warning" },
        icon("warn"),
        h("span", { text: "This cannot be undone. Check it before you allow it." }),
      );
    }
    describedBy.push(`${id}-why`);
    const reason = h("p", { id: `${id}-why`, class: "tg-reason" }, h("span", { class: "tg-label", text: "Why it asks: " }), a.reason);

    const parts = a.decision.parts ?? [];
    const partList =
      parts.length > 0 &&
      h(
        "div",
        { class: "tg-parts" },
        h("p", { class: "tg-label", id: `${id}-parts`, text: "Parts of the command" }),
        h(
          "ul",
          { "aria-labelledby": `${id}-parts` },
          parts.map((part) =>
            h(
              "li",
              { "data-effect": part.effect },
              h("span", { class: "tg-effect", "data-effect": part.effect }, icon(EFFECT[part.effect].icon), EFFECT[part.effect].text),
              h("code", { text: part.part }),
              h("span", { class: "tg-part-reason", text: part.reason.text }),
            ),
          ),
        ),
      );

    const args = h(
      "details",
      { class: "tg-args", open: JSON.stringify(a.input).length <= 400 },
      h("summary", { text: "Arguments" }),
      renderJson(a.input),
    );

    let content = null;
    if (a.diff !== null) content = diffView(a.diff, id);
    else if (a.preview !== null) {
      content = h(
        "div",
        { class: "tg-preview" },
        h("p", { class: "tg-label", id: `${id}-preview`, text: a.preview.truncated ? "Content preview (truncated)" : "Content preview" }),
        h("pre", { tabindex: "0", "aria-labelledby": `${id}-preview`, text: a.preview.text }),
      );
    }

    let editor = null;
    if (this.editable && canAllow) editor = this.#editor(a);

    const note =
      canDeny &&
      h(
        "div",
        { class: "tg-field" },
        h("label", { for: `${id}-msg`, text: "Message to the agent if you deny (optional)" }),
        (this.#els.message = h("textarea", { id: `${id}-msg`, rows: "1", class: "tg-message" })),
      );

    const remember =
      (canSession || canAlways) &&
      h(
        "div",
        { class: "tg-remember" },
        canSession && checkbox(`${id}-session`, "Remember for this session", !canOnce, (el) => (this.#els.session = el)),
        canAlways && checkbox(`${id}-always`, "Always allow (saved rule)", false, (el) => (this.#els.always = el)),
      );

    const status = h("p", { class: "tg-error", role: "alert", id: `${id}-status` });
    this.#els.status = status;

    const actions = h(
      "div",
      { class: "tg-actions" },
      offered.has("allowAll") && (this.#els.allowAll = this.#button("allow-all", "Allow all", "tg-secondary", () => this.#answerAll("allowAll"))),
      offered.has("denyAll") && (this.#els.denyAll = this.#button("deny-all", "Deny all", "tg-secondary", () => this.#answerAll("denyAll"))),
      h("span", { class: "tg-spacer" }),
      canDeny && this.#button("deny", "Deny", "tg-danger", () => this.#deny()),
      canAllow && this.#button("allow", "Allow", "tg-primary", () => this.#allow()),
    );
    const keys = h(
      "p",
      { class: "tg-keys" },
      canAllow && [h("kbd", { text: "Enter" }), " allow "],
      canDeny && [h("kbd", { text: "Esc" }), " deny"],
    );

    const nodes = [head, title, agent, description, warning, reason, partList, args, content, editor, note, remember, status, actions, keys];
    return { nodes, describedBy };
  }

  /**
   * @param {string} action
   * @param {string} text
   * @param {string} cls
   * @param {() => void} onclick
   */
  #button(action, text, cls, onclick) {
    return h("button", { type: "button", class: `tg-button ${cls}`, "data-action": action, text, onclick });
  }

  /** @param {import("./approval-card").PendingApproval} a */
  #editor(a) {
    const id = this.#id;
    const original = JSON.stringify(a.input, null, 2);
    const area = h("textarea", {
      id: `${id}-edit`,
      class: "tg-edit",
      rows: String(Math.min(12, original.split("\n").length + 1)),
      spellcheck: "false",
      "aria-describedby": `${id}-edit-error`,
    });
    /** @type {HTMLTextAreaElement} */ (area).value = original;
    const error = h("p", { id: `${id}-edit-error`, class: "tg-error", role: "alert" });
    const panel = h(
      "div",
      { class: "tg-field tg-editor", id: `${id}-editor`, hidden: true },
      h("label", { for: `${id}-edit`, text: "Arguments to send (JSON)" }),
      area,
      error,
    );
    const toggle = h("button", {
      type: "button",
      class: "tg-button tg-secondary tg-edit-toggle",
      "data-action": "edit",
      "aria-expanded": "false",
      "aria-controls": `${id}-editor`,
      text: "Edit arguments",
      onclick: () => {
        panel.hidden = !panel.hidden;
        toggle.setAttribute("aria-expanded", String(!panel.hidden));
        if (!panel.hidden) area.focus();
      },
    });
    Object.assign(this.#els, { editPanel: panel, editArea: area, editError: error });
    return h("div", { class: "tg-edit-block" }, toggle, panel);
  }

  /** The edited arguments, `undefined` when unchanged, or null after showing an error. */
  #editedInput() {
    const panel = this.#els.editPanel;
    const area = this.#els.editArea;
    const error = this.#els.editError;
    if (!panel || panel.hidden || !(area instanceof HTMLTextAreaElement) || !error || this.#approval === null) return undefined;
    /** @type {unknown} */
    let value;
    try {
      value = JSON.parse(area.value);
    } catch (fault) {
      const why = fault instanceof Error ? fault.message : String(fault);
      return this.#editFailed(area, error, `the arguments are not valid JSON (${why}): fix them, or close the editor to send the original`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return this.#editFailed(area, error, "the arguments must be a JSON object such as `{\"command\": \"npm test\"}`");
    }
    error.textContent = "";
    area.removeAttribute("aria-invalid");
    return JSON.stringify(value) === JSON.stringify(this.#approval.input) ? undefined : value;
  }

  /**
   * @param {HTMLTextAreaElement} area
   * @param {HTMLElement} error
   * @param {string} text
   * @returns {null}
   */
  #editFailed(area, error, text) {
    error.textContent = text;
    area.setAttribute("aria-invalid", "true");
    area.focus();
    return null;
  }

  #allow() {
    if (this.#busy || this.#record !== null || this.#approval === null || this.#problems.length > 0) return;
    const offered = this.#approval.answers;
    const always = this.#els.always;
    const session = this.#els.session;
    /** @type {"once" | "session" | "always" | null} */
    let scope = null;
    if (always instanceof HTMLInputElement && always.checked) scope = "always";
    else if (session instanceof HTMLInputElement && session.checked) scope = "session";
    else if (offered.includes("allowOnce")) scope = "once";
    if (scope === null) {
      if (this.#els.status) this.#els.status.textContent = "choose how long to allow this call: tick `Remember for this session`";
      return;
    }
    const edited = this.#editedInput();
    if (edited === null) return;
    /** @type {import("./approval-card").AllowAnswer} */
    const answer = { kind: "allow", scope };
    if (edited !== undefined) answer.editedInput = /** @type {Record<string, unknown>} */ (edited);
    this.#emit(answer, { status: "approved", scope });
  }

  #deny() {
    if (this.#busy || this.#record !== null || this.#approval === null) return;
    if (this.#problems.length === 0 && !this.#approval.answers.includes("deny")) return;
    const field = this.#els.message;
    const message = field instanceof HTMLTextAreaElement ? field.value.trim() : "";
    /** @type {import("./approval-card").DenyAnswer} */
    const answer = { kind: "deny" };
    if (message !== "") answer.message = message;
    this.#emit(answer, message === "" ? { status: "denied" } : { status: "denied", message });
  }

  /** @param {"allowAll" | "denyAll"} kind */
  #answerAll(kind) {
    if (this.#busy || this.#record !== null || !this.#offersBatch(kind)) return;
    this.#busy = true;
    const event = new CustomEvent("toolgate-answer-all", { detail: { kind }, bubbles: true, composed: true, cancelable: true });
    if (this.dispatchEvent(event)) this.settle(kind === "allowAll" ? { status: "approved", scope: "once" } : { status: "denied" });
    else this.#markBusy();
  }

  /**
   * @param {import("./approval-card").Answer} answer
   * @param {import("./approval-card").SettledRecord} record
   */
  #emit(answer, record) {
    const approval = this.#approval;
    if (approval === null) return;
    this.#busy = true;
    const detail = { id: approval.id, answer };
    const event = new CustomEvent("toolgate-answer", { detail, bubbles: true, composed: true, cancelable: true });
    if (this.dispatchEvent(event)) {
      if (this.#record === null) this.settle(record);
    } else this.#markBusy();
  }

  /** The host took over settling: freeze the controls until it calls settle(). */
  #markBusy() {
    if (this.#record !== null) return;
    this.dataset.state = "answered";
    for (const control of this.querySelectorAll("button, textarea, input")) {
      control.setAttribute("disabled", "");
    }
    this.#els.root?.focus();
  }
}

/**
 * @param {string} id
 * @param {string} text
 * @param {boolean} checked
 * @param {(el: HTMLElement) => void} keep
 */
function checkbox(id, text, checked, keep) {
  const input = h("input", { type: "checkbox", id, checked });
  keep(input);
  return h("label", { class: "tg-check", for: id }, input, text);
}

/**
 * @param {{ oldText: string, newText: string }} diff
 * @param {string} id
 */
function diffView(diff, id) {
  const lines = diffLines(diff.oldText, diff.newText);
  const added = lines.filter((line) => line.op === "add").length;
  const removed = lines.filter((line) => line.op === "del").length;
  const rows = foldUnchanged(lines);
  const pre = h("pre", { class: "tg-diff-lines", tabindex: "0", "aria-labelledby": `${id}-diff` });
  rows.slice(0, MAX_DIFF_ROWS).forEach((row) => {
    if (row.op === "skip") {
      pre.append(h("span", { class: "tg-diff-skip", text: `⋯ ${row.count} unchanged line${row.count === 1 ? "" : "s"}\n` }));
    } else {
      const tag = row.op === "add" ? "ins" : row.op === "del" ? "del" : "span";
      const sign = row.op === "add" ? "+ " : row.op === "del" ? "- " : "  ";
      pre.append(h(tag, { class: `tg-diff-${row.op}` }, h("span", { class: "tg-diff-sign", text: sign }), `${row.text}\n`));
    }
  });
  if (rows.length > MAX_DIFF_ROWS) {
    pre.append(h("span", { class: "tg-diff-skip", text: `⋯ ${rows.length - MAX_DIFF_ROWS} more rows not shown\n` }));
  }
  return h(
    "div",
    { class: "tg-diff" },
    h("p", { class: "tg-label", id: `${id}-diff`, text: `Changes: ${added} line${added === 1 ? "" : "s"} added, ${removed} removed` }),
    pre,
  );
}

/**
 * @param {import("./approval-card").PendingApproval | null} approval
 * @param {string[]} problems
 * @param {import("./approval-card").SettledRecord} record
 */
function recordText(approval, problems, record) {
  const label =
    approval === null
      ? "request"
      : problems.length === 0
        ? callLabel(approval)
        : typeof approval.tool === "string"
          ? approval.tool
          : "request";
  switch (record.status) {
    case "approved": {
      const head = SCOPE_TEXT[/** @type {keyof typeof SCOPE_TEXT} */ (record.scope)] ?? "Allowed";
      return `${head}: ${label}`;
    }
    case "denied":
      return record.message ? `Denied: ${label} — “${record.message}”` : `Denied: ${label}`;
    case "expired":
      return `Timed out — denied automatically: ${label}`;
    default:
      return `Cancelled: ${label}`;
  }
}

if (!customElements.get(TAG)) customElements.define(TAG, ToolgateApprovalCard);
