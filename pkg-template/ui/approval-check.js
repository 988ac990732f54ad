// Checks that a value has the shape of the broker's `PendingApproval` before
// the card shows it, and derives the short label used in records.
//
// A card that cannot show a request faithfully must not offer to allow it:
// the element renders the problems found here with a Deny button only.

const RISKS = ["low", "medium", "high"];
const EFFECTS = ["allow", "ask", "deny"];

/** The answers the card knows how to offer. */
export const ANSWERS = [
  "allowOnce",
  "allowSession",
  "allowAlways",
  "deny",
  "allowAll",
  "denyAll",
  "allowToolForSession",
];

/**
 * Lists what is wrong with a value given as a pending approval; an empty
 * list means it can be shown.
 *
 * @param {unknown} value
 * @returns {string[]}
 */
export function approvalProblems(value) {
  /** @type {string[]} */
  const problems = [];
  if (!isObject(value)) return ["the approval must be an object, got " + kindOf(value)];
  const need = (/** @type {string} */ path, /** @type {boolean} */ ok, /** @type {string} */ expected) => {
    if (!ok) problems.push(`\`${path}\` must be ${expected}, got ${kindOf(valueAt(value, path))}`);
  };
  const v = /** @type {Record<string, any>} */ (value);
  need("id", typeof v.id === "string" && v.id !== "", "a non-empty string");
  need("sessionId", typeof v.sessionId === "string", "a string");
  need("callId", v.callId === null || typeof v.callId === "string", "a string or null");
  need("agent", v.agent === null || typeof v.agent === "string", "a string or null");
  for (const key of ["tool", "title", "description", "reason"]) need(key, typeof v[key] === "string", "a string");
  need("input", isObject(v.input), "an object");
  need("risk", RISKS.includes(v.risk), "`low`, `medium` or `high`");
  need("trustable", typeof v.trustable === "boolean", "true or false");
  need("createdAt", Number.isFinite(v.createdAt), "a time in Unix milliseconds");
  need("deadline", Number.isFinite(v.deadline), "a time in Unix milliseconds");
  if (v.preview !== null) {
    need("preview", isObject(v.preview), "an object or null");
    if (isObject(v.preview)) {
      need("preview.text", typeof v.preview.text === "string", "a string");
      need("preview.truncated", typeof v.preview.truncated === "boolean", "true or false");
    }
  }
  if (v.diff !== null) {
    need("diff", isObject(v.diff), "an object or null");
    if (isObject(v.diff)) {
      need("diff.oldText", typeof v.diff.oldText === "string", "a string");
      need("diff.newText", typeof v.diff.newText === "string", "a string");
    }
  }
  need("answers", Array.isArray(v.answers), "a list of answers");
  if (Array.isArray(v.answers)) {
    v.answers.forEach((answer, index) => {
      need(`answers[${index}]`, ANSWERS.includes(answer), `one of ${ANSWERS.map((a) => `\`${a}\``).join(", ")}`);
    });
  }
  need("decision", isObject(v.decision), "an object");
  if (isObject(v.decision)) {
    need("decision.effect", EFFECTS.includes(v.decision.effect), "`allow`, `ask` or `deny`");
    const parts = v.decision.parts;
    if (parts !== undefined && parts !== null) {
      need("decision.parts", Array.isArray(parts), "a list");
      if (Array.isArray(parts)) {
        parts.forEach((part, index) => {
          const at = `decision.parts[${index}]`;
          need(at, isObject(part), "an object");
          if (!isObject(part)) return;
          need(`${at}.part`, typeof part.part === "string", "a string");
          need(`${at}.effect`, EFFECTS.includes(part.effect), "`allow`, `ask` or `deny`");
          need(`${at}.reason.text`, isObject(part.reason) && typeof part.reason.text === "string", "a string");
        });
      }
    }
    const dangers = v.decision.dangers;
    if (dangers !== undefined && dangers !== null) {
      need("decision.dangers", Array.isArray(dangers), "a list");
      if (Array.isArray(dangers)) {
        dangers.forEach((danger, index) => {
          const at = `decision.dangers[${index}]`;
          need(at, isObject(danger), "an object");
          if (!isObject(danger)) return;
          for (const key of ["class", "sentence", "detail"]) {
            need(`${at}.${key}`, typeof danger[key] === "string", "a string");
          }
        });
      }
    }
  }
  return problems;
}

/** Input keys that name what a call acts on, most telling first. */
const SUBJECT_KEYS = ["command", "file_path", "filePath", "path", "notebook_path", "url", "pattern", "query"];

/**
 * The short label of a call for records: `Bash(npm test)`,
 * `Write(src/app.ts)`, or the tool name alone.
 *
 * @param {{ tool: string, description: string, input: import("./approval-card").JsonValue }} approval
 * @param {number} [max] the longest subject kept before it is cut with `…`
 * @returns {string}
 */
export function callLabel(approval, max = 80) {
  const input = approval.input;
  const args = input !== null && typeof input === "object" && !Array.isArray(input) ? input : {};
  let subject = "";
  for (const key of SUBJECT_KEYS) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") {
      subject = value;
      break;
    }
  }
  if (subject === "") {
    const colon = approval.description.indexOf(": ");
    if (colon >= 0) subject = approval.description.slice(colon + 2);
  }
  subject = subject.replace(/\s+/g, " ").trim();
  if (subject.length > max) subject = subject.slice(0, max - 1) + "…";
  return subject === "" ? approval.tool : `${approval.tool}(${subject})`;
}

/** @param {unknown} value @returns {value is Record<string, any>} */
function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** @param {unknown} value */
function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `\`${value.length > 40 ? value.slice(0, 40) + "…" : value}\``;
  if (typeof value === "object") return "an object";
  if (typeof value === "undefined") return "nothing";
  return `\`${String(value)}\``;
}

/** @param {Record<string, any>} root @param {string} path */
function valueAt(root, path) {
  /** @type {any} */
  let at = root;
  for (const step of path.split(/[.[\]]+/).filter(Boolean)) {
    if (at === null || typeof at !== "object") return undefined;
    at = at[step];
  }
  return at;
}
