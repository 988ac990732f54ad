// The card harness: shows fixtures in a chat-like stream, records the events
// the cards emit, and drives a fake clock. Tests reach it as `window.harness`.

import { ToolgateApprovalCard } from "/ui/approval-card.js";
import { fixtures, T0 } from "/fixtures.js";

const stream = /** @type {HTMLElement} */ (document.getElementById("stream"));
const clock = { now: T0 };
/** @type {{ type: string, detail: unknown, at: number, sinceClick: number | null }[]} */
const events = [];
let lastClick = /** @type {number | null} */ (null);

document.addEventListener("pointerdown", (event) => (lastClick = event.timeStamp), true);
document.addEventListener("click", (event) => (lastClick ??= event.timeStamp), true);
for (const type of ["toolgate-answer", "toolgate-answer-all", "toolgate-expired"]) {
  document.addEventListener(type, (event) => {
    const at = performance.now();
    events.push({
      type,
      detail: /** @type {CustomEvent} */ (event).detail,
      at,
      sinceClick: lastClick === null ? null : at - lastClick,
    });
    lastClick = null;
  });
}

/**
 * Shows a fixture (by name) or an approval object as a new card.
 *
 * @param {string | object} what
 * @param {{ batch?: boolean, modal?: boolean, editable?: boolean, keyGuardMs?: number, patch?: object, hold?: boolean }} [options]
 */
function show(what, options = {}) {
  const approval = typeof what === "string" ? { ...fixtures()[what], ...options.patch } : what;
  const card = /** @type {ToolgateApprovalCard} */ (document.createElement("toolgate-approval-card"));
  card.now = () => clock.now;
  card.keyGuardMs = options.keyGuardMs ?? 0;
  if (options.batch) card.batch = true;
  if (options.modal) card.modal = true;
  if (options.editable) card.editable = true;
  if (options.hold) card.addEventListener("toolgate-answer", (event) => event.preventDefault());
  card.approval = /** @type {any} */ (approval);
  stream.append(card);
  return card;
}

/** Time from setting `approval` to the card laid out, and to the next frame. */
async function measureShow(name, runs = 20) {
  const sync = [];
  const frame = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const card = show(name, { patch: { id: `measure-${i}` } });
    const height = card.getBoundingClientRect().height;
    sync.push(performance.now() - start);
    await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    frame.push(performance.now() - start);
    if (height <= 0) throw new Error("card not laid out");
    card.remove();
  }
  return { sync, frame };
}

function reset() {
  stream.replaceChildren();
  events.length = 0;
  clock.now = T0;
  const chat = /** @type {HTMLTextAreaElement} */ (document.getElementById("chat"));
  chat.value = "";
  /** @type {HTMLElement | null} */ (document.activeElement)?.blur?.();
}

Object.assign(window, { harness: { show, reset, measureShow, clock, events, fixtures, T0, ToolgateApprovalCard } });
document.documentElement.dataset.ready = "true";
