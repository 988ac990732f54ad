// Small DOM helpers shared by the approval card: element building without
// markup parsing, and the handful of icons the card draws.
//
// Nothing here ever assigns `innerHTML`: text is added as Text nodes, so data
// from an agent can never become markup. Every text passes through `visible`,
// so characters that would change how it reads (bidi overrides, zero-width
// characters, terminal escapes) are written out instead.

/**
 * Characters written out by `visible`: control characters other than newline
 * and tab, bidirectional overrides and isolates, zero-width and other
 * invisible characters (the engine's `shown` set, so both show the same;
 * tests/shown_characters.rs compares the two over every code point).
 */
const HIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u00a0\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\u{110bd}\u{110cd}\u{13430}-\u{1343f}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;

/**
 * `text` with every hidden character written out, as the engine writes it:
 * `\r`, `\x1b`, `\u{202e}`. Newlines and tabs stay (code and diffs keep
 * their lines).
 *
 * @param {string} text
 * @returns {string}
 */
export function visible(text) {
  return text.replace(HIDDEN, (c) => {
    if (c === "\r") return "\\r";
    const code = /** @type {number} */ (c.codePointAt(0));
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * Builds an element. `props.class` sets the class list, `props.text` the text
 * content, `on*` keys add event listeners and any other key becomes an
 * attribute (`true` gives an empty attribute; `null`, `undefined` and `false`
 * are skipped). Children may be nodes or strings (added as Text nodes).
 *
 * @param {string} tag
 * @param {Record<string, unknown>} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = String(value);
    else if (key === "text") el.textContent = visible(String(value));
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else el.setAttribute(key, value === true ? "" : visible(String(value)));
  }
  append(el, children);
  return el;
}

/**
 * Appends nodes and strings (as Text nodes), skipping empty slots.
 *
 * @param {Element | DocumentFragment} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : visible(String(child)));
  }
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * @typedef {"check" | "warn" | "stop" | "question" | "clock" | "cross"} IconName
 * @typedef {Node | string | null | undefined | false} Child
 */

/**
 * Icon shapes on a 16×16 grid, drawn with strokes in the current colour.
 *
 * @type {Record<IconName, [string, Record<string, string>][]>}
 */
const ICONS = {
  check: [["circle", { cx: "8", cy: "8", r: "6.5" }], ["path", { d: "M5 8.3l2 2 4-4.4" }]],
  warn: [
    ["path", { d: "M8 1.8 15 14H1z" }],
    ["path", { d: "M8 6v3.6" }],
    ["path", { d: "M8 11.8v.1" }],
  ],
  stop: [
    ["path", { d: "M5.2 1.5h5.6l3.7 3.7v5.6l-3.7 3.7H5.2l-3.7-3.7V5.2z" }],
    ["path", { d: "M8 4.6v4.2" }],
    ["path", { d: "M8 11.3v.1" }],
  ],
  question: [
    ["circle", { cx: "8", cy: "8", r: "6.5" }],
    ["path", { d: "M6.2 6.2a1.9 1.9 0 1 1 2.6 1.8c-.5.2-.8.6-.8 1.1v.4" }],
    ["path", { d: "M8 11.6v.1" }],
  ],
  clock: [["circle", { cx: "8", cy: "8", r: "6.5" }], ["path", { d: "M8 4.5V8l2.5 1.6" }]],
  cross: [["circle", { cx: "8", cy: "8", r: "6.5" }], ["path", { d: "M5.6 5.6l4.8 4.8M10.4 5.6l-4.8 4.8" }]],
};

/**
 * A decorative icon (hidden from assistive technology: the text beside it
 * carries the meaning).
 *
 * @param {IconName} name
 * @returns {SVGSVGElement}
 */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries({
    viewBox: "0 0 16 16",
    width: "16",
    height: "16",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": "1.6",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "aria-hidden": "true",
    focusable: "false",
    class: "tg-icon",
  })) {
    svg.setAttribute(key, value);
  }
  for (const [tag, attrs] of ICONS[name]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) shape.setAttribute(key, value);
    svg.append(shape);
  }
  return svg;
}
