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
import { approvalProblems } from "./approval-check.js";
import { RISK, renderBody, renderBroken } from "./card-body.js";
import { STATUS, recordText } from "./card-record.js";

export { diffLines, foldUnchanged } from "./line-diff.js";
export { renderJson } from "./json-view.js";
export { approvalProblems } from "./approval-check.js";

/** The tag name the card is defined under. */
export const TAG = "toolgate-approval-card";

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
    return ["batch", "modal", "editable", "heading-level"];
  }

  /** The clock, in Unix milliseconds; replace it to test the countdown. */
  now = () => Date.now();
  /**
   * Enter is ignored this long (ms) after the card appears and after focus enters it (from
   * outside the card: answering one card moves focus to the next), so a keystroke meant for
   * the chat, or a second Enter meant for the card above, cannot allow a card nobody read.
   */
  keyGuardMs = 300;
  /** Whether the card may take focus when it appears (never from a text field outside the cards). */
  focusOnShow = true;

  /** @type {import("./approval-card").PendingApproval | null} */
  #approval = null;
  /** @type {string[]} */
  #problems = [];
  /** @type {import("./approval-card").SettledRecord | null} */
  #record = null;
  #active = false;
  /** Whether this approval was already announced (and offered focus): moving the card in the DOM does not repeat it. */
  #introduced = false;
  #busy = false;
  /** When the Enter guard started: the card appeared, or focus entered it. */
  #guardFrom = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  #timer = undefined;
  /** @type {Record<string, HTMLElement>} */
  #els = {};
  #id = `tg-card-${++sequence}`;

  constructor() {
    super();
    this.addEventListener("keydown", (event) => this.#onKey(event));
    this.addEventListener("focusin", (event) => this.#onFocusIn(event));
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
    this.#introduced = false;
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

  /** The ARIA heading level of the card's title (attribute `heading-level`, 1–6, default 2). */
  get headingLevel() {
    const level = Number(this.getAttribute("heading-level") ?? "2");
    return Number.isInteger(level) && level >= 1 && level <= 6 ? level : 2;
  }
  set headingLevel(level) {
    this.setAttribute("heading-level", String(level));
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
    if (before === after) return;
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
    this.#guardFrom = performance.now();
    const approval = this.#approval;
    if (this.#problems.length === 0) {
      this.tick();
      if (this.#record !== null) return;
      this.#timer = setInterval(() => this.tick(), 500);
    }
    const dialog = this.#els.dialog;
    if (dialog instanceof HTMLDialogElement && !dialog.open) dialog.showModal();
    if (this.#introduced) return;
    this.#introduced = true;
    announce(
      this.#problems.length === 0
        ? `Approval needed: ${approval.title}. ${approval.description}. ${RISK[approval.risk].text}.`
        : "Approval needed: a request that cannot be shown",
    );
    if (dialog !== undefined || (this.focusOnShow && !typingOutsideCards())) this.#els.root?.focus();
  }

  #expire() {
    const approval = this.#approval;
    if (approval === null || this.#record !== null) return;
    this.dispatchEvent(new CustomEvent("toolgate-expired", { detail: { id: approval.id }, bubbles: true, composed: true }));
    if (this.#record === null) this.settle({ status: "expired" });
  }

  #syncBatch() {
    for (const key of ["allowAll", "denyAll", "batchKeys"]) {
      const button = this.#els[key];
      if (button) button.hidden = !this.batch;
    }
  }

  /**
   * Restarts the Enter guard when focus comes into the card from elsewhere.
   *
   * @param {FocusEvent} event
   */
  #onFocusIn(event) {
    const from = event.relatedTarget;
    if (from instanceof Node && this.contains(from)) return;
    this.#guardFrom = performance.now();
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
      if (performance.now() - this.#guardFrom < this.keyGuardMs) return;
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
    const options = {
      id: this.#id,
      editable: this.editable,
      headingLevel: this.headingLevel,
      actions: {
        allow: () => this.#allow(),
        deny: () => this.#deny(),
        answerAll: (/** @type {"allowAll" | "denyAll"} */ kind) => this.#answerAll(kind),
      },
    };
    const body =
      this.#problems.length === 0
        ? renderBody(this.#approval, options)
        : renderBroken(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (this.#approval)), this.#problems, options);
    this.#els = body.els;
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
      root = h("dialog", { ...props, class: "tg-card tg-modal", role: "alertdialog", "aria-modal": "true" }, ...body.nodes);
      root.addEventListener("cancel", (event) => event.preventDefault());
      this.#els.dialog = root;
    } else {
      root = h("div", { ...props, role: "group" }, ...body.nodes);
    }
    this.#els.root = root;
    this.replaceChildren(root);
    this.#syncBatch();
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
    const tool = this.#els.tool;
    if (tool instanceof HTMLInputElement && tool.checked) {
      // The broker's own answer: the tool, any arguments, for the rest of the session.
      this.#emit({ kind: "allowToolForSession" }, { status: "approved", scope: "toolSession" });
      return;
    }
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
    if (edited !== undefined) answer.editedInput = /** @type {{ [key: string]: import("./approval-card").JsonValue }} */ (edited);
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

if (!customElements.get(TAG)) customElements.define(TAG, ToolgateApprovalCard);
