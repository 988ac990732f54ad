// The audit panel: every event as it happens, a filter, and the export as JSON Lines.
import { download, h } from "./dom.js";

/** @param {{ root: HTMLElement, broker: () => any }} options */
export function auditPanel({ root, broker }) {
  const table = /** @type {HTMLTableSectionElement} */ (root.querySelector("#audit-rows"));
  const filter = /** @type {HTMLInputElement} */ (root.querySelector("#audit-filter"));
  const kind = /** @type {HTMLSelectElement} */ (root.querySelector("#audit-kind"));
  const count = /** @type {HTMLElement} */ (root.querySelector("#audit-count"));
  const exportButton = /** @type {HTMLButtonElement} */ (root.querySelector("#audit-export"));

  function matches(row) {
    const text = filter.value.trim().toLowerCase();
    return (kind.value === "" || row.dataset.kind === kind.value) && (text === "" || (row.textContent ?? "").toLowerCase().includes(text));
  }

  function applyFilter() {
    let shown = 0;
    for (const row of table.rows) {
      row.hidden = !matches(row);
      if (!row.hidden) shown += 1;
    }
    count.textContent = `${shown} of ${table.rows.length} events`;
  }

  /** Adds one audit event as a row. */
  function add(event) {
    const what = event.kind === "transition" ? `${event.from ?? "∅"} → ${event.to}` : event.kind === "decision" ? event.effect ?? "" : event.scope ?? "";
    const row = h(
      "tr",
      { "data-kind": event.kind, "data-tool": event.tool },
      h("td", { text: String(event.seq) }),
      h("td", { text: event.kind }),
      h("td", { text: event.tool }),
      h("td", { text: what }),
      h("td", { text: event.decidedBy ?? "" }),
    );
    table.append(row);
    row.hidden = !matches(row);
    count.textContent = `${[...table.rows].filter((r) => !r.hidden).length} of ${table.rows.length} events`;
  }

  filter.addEventListener("input", applyFilter);
  kind.addEventListener("change", applyFilter);
  exportButton.addEventListener("click", () => download("toolgate-audit.jsonl", broker().audit.toJsonLines()));
  return { add };
}
