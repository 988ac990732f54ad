// A tiny JSON highlighter that builds DOM nodes (never markup): objects and
// arrays become <details> elements that fold, values are coloured by type.

import { h } from "./dom.js";

/** Strings longer than this are cut in the view (the value sent is untouched). */
export const MAX_STRING_CHARS = 2000;
/** At most this many values are drawn; the rest are summarised. */
export const MAX_NODES = 1500;
/** Containers nested deeper than this are summarised instead of drawn. */
export const MAX_DEPTH = 40;

/**
 * Renders a JSON value as a foldable, highlighted tree.
 *
 * @param {unknown} value a value that came from JSON
 * @param {{ openDepth?: number }} [options] containers shallower than
 *   `openDepth` start unfolded (default 2)
 * @returns {HTMLElement}
 */
export function renderJson(value, options = {}) {
  const budget = { left: MAX_NODES };
  const root = h("div", { class: "tg-json" });
  root.append(node(value, null, true, 0, options.openDepth ?? 2, budget));
  return root;
}

/**
 * @param {unknown} value
 * @param {string | null} key
 * @param {boolean} last
 * @param {number} depth
 * @param {number} openDepth
 * @param {{ left: number }} budget
 * @returns {HTMLElement}
 */
function node(value, key, last, depth, openDepth, budget) {
  budget.left--;
  const label = key === null ? [] : [span("tg-j-key", JSON.stringify(key)), span("tg-j-punct", ": ")];
  const comma = last ? [] : [span("tg-j-punct", ",")];
  const container = containerOf(value);
  if (container === null || container.entries.length === 0) {
    return h("div", { class: "tg-json-line" }, label, scalar(value), comma);
  }
  const { open, close, entries, noun } = container;
  const count = `${entries.length} ${noun}${entries.length === 1 ? "" : "s"}`;
  if (depth >= MAX_DEPTH) {
    return h("div", { class: "tg-json-line" }, label, span("tg-j-punct", `${open}…${close}`), span("tg-j-note", ` ${count}, nested too deep to show`), comma);
  }
  const details = h("details", { class: "tg-json-node", open: depth < openDepth });
  const summary = h(
    "summary",
    { class: "tg-json-line" },
    label,
    span("tg-j-punct", open),
    h("span", { class: "tg-json-folded" }, span("tg-j-punct", "…"), span("tg-j-punct", close), comma),
    h("span", { class: "tg-json-count", text: ` ${count}` }),
  );
  const children = h("div", { class: "tg-json-children" });
  entries.forEach(([childKey, childValue], index) => {
    if (budget.left <= 0) return;
    children.append(node(childValue, childKey, index === entries.length - 1, depth + 1, openDepth, budget));
    if (budget.left <= 0 && index < entries.length - 1) {
      children.append(h("div", { class: "tg-json-line tg-j-note", text: `… ${entries.length - index - 1} more not shown` }));
    }
  });
  details.append(summary, children, h("div", { class: "tg-json-line tg-json-close" }, span("tg-j-punct", close), comma));
  return details;
}

/**
 * @param {unknown} value
 * @returns {{ open: string, close: string, noun: string, entries: [string | null, unknown][] } | null}
 */
function containerOf(value) {
  if (Array.isArray(value)) {
    return { open: "[", close: "]", noun: "item", entries: value.map((item) => [null, item]) };
  }
  if (value !== null && typeof value === "object") {
    return { open: "{", close: "}", noun: "key", entries: Object.entries(value) };
  }
  return null;
}

/**
 * @param {unknown} value
 * @returns {HTMLElement}
 */
function scalar(value) {
  if (Array.isArray(value)) return span("tg-j-punct", "[]");
  if (value === null) return span("tg-j-null", "null");
  switch (typeof value) {
    case "string": {
      if (value.length <= MAX_STRING_CHARS) return span("tg-j-str", JSON.stringify(value));
      const shown = JSON.stringify(value.slice(0, MAX_STRING_CHARS)).slice(0, -1);
      return h(
        "span",
        { class: "tg-j-str" },
        shown,
        h("span", { class: "tg-j-note", text: `… ${value.length - MAX_STRING_CHARS} more characters` }),
        '"',
      );
    }
    case "number":
      return span("tg-j-num", String(value));
    case "boolean":
      return span("tg-j-bool", String(value));
    case "object":
      return span("tg-j-punct", "{}");
    default:
      // Not JSON (undefined, a function, …): shown for what it is.
      return span("tg-j-note", `(${typeof value})`);
  }
}

/**
 * @param {string} cls
 * @param {string} text
 */
function span(cls, text) {
  return h("span", { class: cls, text });
}
