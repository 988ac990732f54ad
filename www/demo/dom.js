// Element building for the demo pages: text always goes in through Text nodes, never as markup.

/**
 * `h("p", { class: "x", "data-id": "1" }, "text", child)`. `text` in the attributes sets the
 * text content; `on` maps event names to listeners.
 *
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...(Node | string | null | undefined | false)} children
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") element.textContent = String(value);
    else if (name === "on") {
      for (const [event, listener] of Object.entries(/** @type {Record<string, EventListener>} */ (value))) {
        element.addEventListener(event, listener);
      }
    } else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** The element with this id, or an error naming it. */
export function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no element #${id}`);
  return element;
}

/** Offers `text` as a file download named `name`. */
export function download(name, text, type = "application/x-ndjson") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
