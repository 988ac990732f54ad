// The rules panel: the policy as JSON, edited live. Every change is loaded at once; load errors
// (code, path, hint) and warnings show under the editor, and a policy that loads replaces the
// broker's. The "would this be allowed?" box explains any request against the current policy.
import { describeError, toolgate } from "./engine.js";
import { h } from "./dom.js";
import { CWD } from "./script.js";

const MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"];

/**
 * @param {{ root: HTMLElement, policy: unknown, apply: (engine: any) => void }} options
 */
export function rulesPanel({ root, policy, apply }) {
  const editor = /** @type {HTMLTextAreaElement} */ (root.querySelector("#policy"));
  const mode = /** @type {HTMLSelectElement} */ (root.querySelector("#mode"));
  const status = /** @type {HTMLElement} */ (root.querySelector("#policy-status"));
  const problems = /** @type {HTMLElement} */ (root.querySelector("#policy-problems"));
  const addForm = /** @type {HTMLFormElement} */ (root.querySelector("#add-rule"));
  const explainForm = /** @type {HTMLFormElement} */ (root.querySelector("#explain"));
  const explainOut = /** @type {HTMLElement} */ (root.querySelector("#explain-result"));

  for (const name of MODES) mode.append(h("option", { value: name, text: name }));
  editor.value = JSON.stringify(policy, null, 2);
  let engine = load(editor.value);

  /** Loads `text`; returns the engine, or null when it does not load. */
  function load(text) {
    problems.replaceChildren();
    let doc;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      return fail(`the policy is not JSON: ${error.message}`, "INVALID_JSON");
    }
    if (typeof doc?.defaultMode === "string") mode.value = doc.defaultMode;
    let next;
    try {
      next = new toolgate.Policy(text);
    } catch (error) {
      const item = fail(describeError(error), error?.code ?? "ERROR");
      item.dataset.path = error?.path ?? "";
      return null;
    }
    for (const warning of next.warnings ?? []) {
      problems.append(
        h("li", { class: "warning", "data-code": warning.code, "data-path": warning.path, text: `warning ${warning.code} at ${warning.path}: ${warning.message}` }),
      );
    }
    status.textContent = next.warnings?.length ? `Applied, with ${next.warnings.length} warning(s)` : "Applied";
    status.dataset.state = "applied";
    editor.removeAttribute("aria-invalid");
    return next;
  }

  function fail(text, code) {
    status.textContent = "Not applied: the broker keeps the last policy that loaded";
    status.dataset.state = "error";
    editor.setAttribute("aria-invalid", "true");
    const item = h("li", { class: "error", "data-code": code, text });
    problems.append(item);
    return item;
  }

  function changed() {
    const next = load(editor.value);
    if (next === null) return;
    engine = next;
    apply(next);
  }

  let timer;
  editor.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(changed, 150);
  });

  /** Rewrites the JSON in the editor and applies it (for the mode and rule controls). */
  function edit(change) {
    let doc;
    try {
      doc = JSON.parse(editor.value);
    } catch {
      fail("fix the JSON in the editor first", "INVALID_JSON");
      return;
    }
    change(doc);
    editor.value = JSON.stringify(doc, null, 2);
    changed();
  }

  mode.addEventListener("change", () => edit((doc) => (doc.defaultMode = mode.value)));

  addForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const list = /** @type {HTMLSelectElement} */ (addForm.elements.namedItem("list")).value;
    const field = /** @type {HTMLInputElement} */ (addForm.elements.namedItem("rule"));
    const rule = field.value.trim();
    if (rule === "") return;
    edit((doc) => {
      doc.permissions ??= {};
      doc.permissions[list] = [...(doc.permissions[list] ?? []), rule];
    });
    field.value = "";
  });

  explainForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = /** @type {HTMLTextAreaElement} */ (explainForm.elements.namedItem("request")).value;
    explainOut.replaceChildren();
    let request;
    try {
      request = JSON.parse(text);
    } catch (error) {
      explainOut.append(h("p", { class: "error", text: `the request is not JSON: ${error.message}` }));
      return;
    }
    if (request && typeof request === "object" && request.cwd === undefined) request.cwd = CWD;
    try {
      const explanation = engine?.explain(request);
      const decision = explanation?.decision ?? explanation;
      explainOut.dataset.effect = decision?.effect ?? "";
      explainOut.append(
        h("p", { class: `verdict effect-${decision?.effect}`, text: verdict(decision) }),
        h("details", {}, h("summary", { text: "The whole explanation" }), h("pre", { text: JSON.stringify(explanation, null, 2) })),
      );
    } catch (error) {
      explainOut.dataset.effect = "error";
      explainOut.append(h("p", { class: "error", "data-code": error?.code ?? "", text: describeError(error) }));
    }
  });

  return { engine: () => engine };
}

function verdict(decision) {
  const words = { allow: "Allowed: runs without asking", ask: "Asks a person first", deny: "Denied: never runs" };
  const reason = decision?.reason?.text ? ` — ${decision.reason.text}` : "";
  return `${words[decision?.effect] ?? String(decision?.effect)} (${decision?.risk ?? "?"} risk)${reason}`;
}
