// The chat stream: the agent's messages, approval cards inline, results, and what the model is
// told when a call is denied. Answers from the cards go to the broker; the broker's outcome,
// not the card, decides what the card's record says.
import "/pkg/ui/approval-card.js";
import { describeError } from "./engine.js";
import { h } from "./dom.js";

const CARD = "toolgate-approval-card";

/** Words for who settled a call. */
const BY = {
  policy: "by the policy",
  trust: "by a remembered grant",
  person: "by you",
  timeout: "automatically: nobody answered in time",
  cancel: "because it was cancelled",
  shutdown: "because the broker shut down",
  registry: "by the tool registry",
};

/** Timings measured in the page, in milliseconds (read by the tests as `window.demoTimings`). */
export const timings = { requestToCard: [], requestToFrame: [], answerToResolve: [] };

export class Chat {
  /** @type {Map<string, HTMLElement & { approval: any, record: any, batch: boolean, settle(r: unknown): void }>} */
  #cards = new Map();
  /** callId → performance.now() when the agent asked */
  #asked = new Map();
  /** approval id → event time of the click or key that answered it */
  #answered = new Map();

  /**
   * @param {HTMLElement} log the chat's `role="log"` element
   * @param {() => any} broker the current broker
   * @param {string} session the chat's session id
   */
  constructor(log, broker, session) {
    this.log = log;
    this.broker = broker;
    this.session = session;
    log.addEventListener("toolgate-answer", (event) => this.#onAnswer(/** @type {CustomEvent} */ (event)));
    log.addEventListener("toolgate-answer-all", (event) => this.#onAnswerAll(/** @type {CustomEvent} */ (event)));
    // The moment of the click or key press that answers a card, for the timings.
    const mark = (/** @type {Event} */ event) => {
      const card = event.target instanceof Element ? event.target.closest(CARD) : null;
      if (card === null || !("approval" in card) || card.approval === null) return;
      const button = event.target instanceof Element ? event.target.closest("button") : null;
      const all = event instanceof KeyboardEvent ? event.altKey : / all$/i.test(button?.textContent?.trim() ?? "");
      const ids = all ? [...this.#cards.keys()] : [/** @type {any} */ (card).approval.id];
      for (const id of ids) this.#answered.set(id, event.timeStamp);
    };
    log.addEventListener("click", mark, true);
    log.addEventListener("keydown", mark, true);
  }

  /** Adds a message; `role` is `agent`, `user`, `tool`, `model` or `error`. */
  say(role, text, ...more) {
    const label = { agent: "Agent", user: "You", tool: "Tool", model: "To the model", error: "Problem", note: "Note" }[role] ?? role;
    const message = h("div", { class: `msg msg-${role}`, "data-role": role }, h("span", { class: "who", text: label }), h("p", { text }), ...more);
    this.log.append(message);
    message.scrollIntoView({ block: "nearest" });
    return message;
  }

  /** Notes that the agent is about to ask for `callId` (starts the request → card timer). */
  asking(callId) {
    this.#asked.set(callId, performance.now());
  }

  /** Shows a pending approval as a card in the stream. */
  show(approval) {
    const card = /** @type {any} */ (document.createElement(CARD));
    card.approval = approval;
    card.editable = true;
    card.dataset.id = approval.id;
    card.dataset.tool = approval.tool;
    this.log.append(card);
    this.#cards.set(approval.id, card);
    this.#syncBatch();
    card.scrollIntoView({ block: "nearest" });
    const started = approval.callId === null ? undefined : this.#asked.get(approval.callId);
    if (started !== undefined && card.getBoundingClientRect().height > 0) {
      timings.requestToCard.push(performance.now() - started);
      requestAnimationFrame(() => timings.requestToFrame.push(performance.now() - started));
    }
  }

  /** Settles the card of `outcome.id` (if it has one) with the broker's outcome. */
  settle(outcome) {
    const answeredAt = this.#answered.get(outcome.id);
    if (answeredAt !== undefined) {
      timings.answerToResolve.push(performance.now() - answeredAt);
      this.#answered.delete(outcome.id);
    }
    const card = this.#cards.get(outcome.id);
    if (card === undefined) return;
    this.#cards.delete(outcome.id);
    const record = { status: outcome.status };
    if (outcome.scope !== undefined) record.scope = outcome.scope;
    if (outcome.message !== undefined) record.message = outcome.message;
    card.settle(record);
    card.dataset.status = outcome.status;
    this.#syncBatch();
  }

  /** Reports how a call ended: who decided, the tool's result, or what the model is told. */
  result(outcome, resultText) {
    const who = BY[outcome.by] ?? outcome.by;
    if (outcome.status === "approved") {
      const scope = outcome.by === "person" && outcome.scope ? ` (${outcome.scope})` : "";
      const grants = outcome.grants?.length ? ` Remembered: ${outcome.grants.join(", ")}.` : "";
      const line = this.say("tool", `Allowed ${who}${scope}.${grants} ${resultText ?? ""}`.trim());
      line.dataset.status = "approved";
      line.dataset.by = outcome.by;
      return line;
    }
    const feedback = outcome.feedback;
    const line = this.say(
      "model",
      feedback?.aiMessage ?? `The call was ${outcome.status}.`,
      h("p", { class: "sub", text: `${statusWord(outcome.status)} ${who}${feedback ? ` · ${feedback.code}` : ""}` }),
    );
    line.dataset.status = outcome.status;
    line.dataset.by = outcome.by;
    if (feedback) line.dataset.code = feedback.code;
    return line;
  }

  /** The cards still waiting for an answer. */
  pendingCards() {
    return [...this.#cards.values()];
  }

  #syncBatch() {
    const batch = this.#cards.size > 1;
    for (const card of this.#cards.values()) card.batch = batch;
  }

  /** @param {CustomEvent} event */
  #onAnswer(event) {
    event.preventDefault();
    const { id, answer } = event.detail;
    try {
      this.broker().respond(id, answer);
    } catch (error) {
      this.#refused(id, error);
    }
  }

  /** @param {CustomEvent} event */
  #onAnswerAll(event) {
    event.preventDefault();
    try {
      if (event.detail.kind === "allowAll") this.broker().approveAll(this.session);
      else this.broker().denyAll(this.session);
    } catch (error) {
      this.say("error", `The broker refused the answer: ${describeError(error)}`);
    }
  }

  /** The broker refused an answer: say why and, while the call still waits, ask again. */
  #refused(id, error) {
    this.say("error", `The broker refused the answer: ${describeError(error)}`);
    const card = this.#cards.get(id);
    const still = this.broker().pending().find((/** @type {any} */ p) => p.id === id);
    if (card !== undefined && still !== undefined) card.approval = still;
  }
}

function statusWord(status) {
  return { denied: "Denied", expired: "Timed out, denied", cancelled: "Cancelled" }[status] ?? status;
}
