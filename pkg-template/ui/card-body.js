// The DOM of an approval card's body, built from a pending approval with
// createElement and Text nodes only. The element (approval-card.js) owns the
// behaviour; these functions only draw and hand back the nodes it needs.

import { h, icon } from "./dom.js";
import { renderJson } from "./json-view.js";
import { diffLines, foldUnchanged } from "./line-diff.js";

/**
 * @typedef {{ allow: () => void, deny: () => void, answerAll: (kind: "allowAll" | "denyAll") => void }} Actions
 * @typedef {{ id: string, headingLevel: number, actions: Actions }} BodyOptions
 * @typedef {import("./dom.js").Child} Child
 * @typedef {{ nodes: (Child | Child[])[], describedBy: string[], els: Record<string, HTMLElement> }} Body
 */

/**
 * How each risk level is shown: always an icon and words, never colour alone.
 *
 * @type {Record<import("./approval-card").Risk, { text: string, icon: import("./dom.js").IconName }>}
 */
export const RISK = {
  low: { text: "Low risk", icon: "check" },
  medium: { text: "Medium risk", icon: "warn" },
  high: { text: "High risk", icon: "stop" },
};
/** @type {Record<import("./approval-card").Effect, { text: string, icon: import("./dom.js").IconName }>} */
const EFFECT = {
  allow: { text: "allowed", icon: "check" },
  ask: { text: "asks", icon: "question" },
  deny: { text: "denied", icon: "stop" },
};

/**
 * A sentence with its first letter in upper case.
 *
 * @param {string} text
 * @returns {string}
 */
function capitalise(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Diff rows drawn at most; the rest is summarised. */
const MAX_DIFF_ROWS = 400;
/** A command longer than this (or on several lines) is marked as long; it is still shown whole. */
export const LONG_COMMAND_CHARS = 300;

/**
 * The card body for a request that failed the shape check: the problems
 * and Deny (never Allow).
 *
 * @param {Record<string, unknown>} approval
 * @param {string[]} problems
 * @param {BodyOptions} options
 * @returns {Body}
 */
export function renderBroken(approval, problems, { id, headingLevel, actions }) {
  /** @type {Record<string, HTMLElement>} */
  const els = {};
  const canDeny = typeof approval.id === "string" && approval.id !== "";
  const nodes = [
    h("div", { class: "tg-head" }, h("span", { class: "tg-risk" }, icon("stop"), "Cannot show this request")),
    h("p", { id: `${id}-title`, class: "tg-title", role: "heading", "aria-level": String(headingLevel), text: "This approval request is malformed" }),
    h(
      "div",
      { id: `${id}-desc`, class: "tg-problems" },
      h("p", { text: "It cannot be allowed from here. What is wrong:" }),
      h("ul", {}, problems.map((text) => h("li", { text }))),
    ),
    h(
      "div",
      { class: "tg-actions" },
      h("span", { class: "tg-spacer" }),
      canDeny && button("deny", "Deny", "tg-danger", actions.deny),
    ),
  ];
  return { nodes, describedBy: [`${id}-desc`], els };
}

/**
 * The card body for a well-formed pending approval.
 *
 * @param {import("./approval-card").PendingApproval} a
 * @param {BodyOptions & { editable: boolean }} options
 * @returns {Body}
 */
export function renderBody(a, { id, editable, headingLevel, actions }) {
  /** @type {Record<string, HTMLElement>} */
  const els = {};
  const offered = new Set(a.answers);
  const canOnce = offered.has("allowOnce");
  // The broker offers "remember" answers only where they may be remembered, and
  // names the exact rules they save: without them nothing is offered to remember.
  const rules = Array.isArray(a.rules) ? a.rules : [];
  const canSession = offered.has("allowSession") && rules.length > 0;
  const canAlways = offered.has("allowAlways") && rules.length > 0;
  const canTool = offered.has("allowToolForSession");
  const canAllow = canOnce || canSession || canAlways || canTool;
  const canDeny = offered.has("deny");
  const risk = RISK[a.risk];
  /** @type {string[]} */
  const describedBy = [`${id}-desc`];

  const timer = h("p", { class: "tg-timer" }, icon("clock"), (els.countdown = h("span", { role: "timer" })));
  els.timer = timer;
  const head = h(
    "div",
    { class: "tg-head" },
    h("span", { class: "tg-risk", "data-risk": a.risk }, icon(risk.icon), risk.text),
    h("code", { class: "tg-tool", text: a.tool }),
    timer,
  );
  const title = h("p", { id: `${id}-title`, class: "tg-title", role: "heading", "aria-level": String(headingLevel), text: a.title });
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

  const dangers = a.decision.dangers ?? [];
  let dangerList = null;
  if (dangers.length > 0) {
    describedBy.push(`${id}-dangers`);
    dangerList = h(
      "div",
      { class: "tg-dangers", id: `${id}-dangers` },
      h("p", { class: "tg-label", id: `${id}-dangers-label`, text: dangers.length === 1 ? "Danger found" : `${dangers.length} dangers found` }),
      h(
        "ul",
        { "aria-labelledby": `${id}-dangers-label` },
        dangers.map((danger) =>
          h(
            "li",
            { "data-class": danger.class },
            h("span", { class: "tg-danger-badge" }, icon("warn"), h("span", { text: danger.class })),
            h("span", { class: "tg-danger-sentence", text: capitalise(danger.sentence) }),
            danger.detail !== "" && h("span", { class: "tg-danger-detail", text: danger.detail }),
          ),
        ),
      ),
    );
  }

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

  const input = /** @type {Record<string, unknown>} */ (a.input ?? {});
  const command = typeof input.command === "string" ? commandBlock(input.command, id) : null;

  const args = h(
    "details",
    // Unfolded when short, and always when no preview or diff shows the content:
    // every argument of such a call is what the person judges (an MCP tool's `sql`).
    { class: "tg-args", open: JSON.stringify(a.input).length <= 400 || (a.preview === null && a.diff === null) },
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
  if (editable && canAllow) editor = editorBlock(a, id, els);

  const note =
    canDeny &&
    h(
      "div",
      { class: "tg-field" },
      h("label", { for: `${id}-msg`, text: "Message to the agent if you deny (optional)" }),
      (els.message = h("textarea", { id: `${id}-msg`, rows: "1", class: "tg-message" })),
    );

  const remember =
    (canSession || canAlways || canTool) &&
    h(
      "div",
      { class: "tg-remember" },
      canSession && checkbox(`${id}-session`, "Remember for this session", !canOnce, (el) => (els.session = el)),
      canAlways && checkbox(`${id}-always`, "Always allow (saved rule)", false, (el) => (els.always = el)),
      (canSession || canAlways) &&
        h(
          "p",
          { class: "tg-rules" },
          rules.length === 1 ? "Remembering saves the rule " : "Remembering saves the rules ",
          rules.flatMap((rule, i) => [i > 0 && ", ", h("code", { text: rule })]),
        ),
      canTool && checkbox(`${id}-tool`, `Allow every ${a.tool} call for this session`, false, (el) => (els.tool = el)),
    );

  const status = h("p", { class: "tg-error", role: "alert", id: `${id}-status` });
  els.status = status;

  const buttons = h(
    "div",
    { class: "tg-actions" },
    offered.has("allowAll") && (els.allowAll = button("allow-all", "Allow all", "tg-secondary", () => actions.answerAll("allowAll"))),
    offered.has("denyAll") && (els.denyAll = button("deny-all", "Deny all", "tg-secondary", () => actions.answerAll("denyAll"))),
    h("span", { class: "tg-spacer" }),
    canDeny && button("deny", "Deny", "tg-danger", actions.deny),
    canAllow && button("allow", "Allow", "tg-primary", actions.allow),
  );
  const keys = h(
    "p",
    { class: "tg-keys" },
    canAllow && [h("kbd", { text: "Enter" }), " allow "],
    canDeny && [h("kbd", { text: "Esc" }), " deny"],
    (offered.has("allowAll") || offered.has("denyAll")) &&
      (els.batchKeys = h(
        "span",
        {},
        offered.has("allowAll") && [" ", h("kbd", { text: "Alt+Enter" }), " allow all"],
        offered.has("denyAll") && [" ", h("kbd", { text: "Alt+Esc" }), " deny all"],
      )),
  );

  const nodes = [head, title, agent, description, warning, command, dangerList, reason, partList, args, content, editor, note, remember, status, buttons, keys];
  return { nodes, describedBy, els };
}

/**
 * The command as it runs, whole: wrapped, never folded or cut, and marked when
 * it is long so a person knows to read on.
 *
 * @param {string} text
 * @param {string} id
 */
function commandBlock(text, id) {
  const lines = text.split("\n").length;
  const long = text.length > LONG_COMMAND_CHARS || lines > 1;
  const size = `${text.length} characters${lines > 1 ? `, ${lines} lines` : ""}`;
  return h(
    "div",
    { class: "tg-command" },
    h("p", { class: "tg-label", id: `${id}-command`, text: long ? `Command, shown in full (long: ${size})` : "Command" }),
    h("pre", { tabindex: "0", "aria-labelledby": `${id}-command`, "data-long": long, text }),
  );
}

/**
 * @param {string} action
 * @param {string} text
 * @param {string} cls
 * @param {() => void} onclick
 */
function button(action, text, cls, onclick) {
  return h("button", { type: "button", class: `tg-button ${cls}`, "data-action": action, text, onclick });
}

/**
 * The Edit arguments toggle and its JSON text area (closed at first).
 *
 * @param {import("./approval-card").PendingApproval} a
 * @param {string} id
 * @param {Record<string, HTMLElement>} els
 */
function editorBlock(a, id, els) {
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
  Object.assign(els, { editPanel: panel, editArea: area, editError: error });
  return h("div", { class: "tg-edit-block" }, toggle, panel);
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
