// Checks that a value has the shape of the broker's `PendingApproval` before
// the card shows it.
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
  for (const key of ["tool", "title", "description", "subject", "label", "reason"]) need(key, typeof v[key] === "string", "a string");
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
  need(
    "rules",
    v.rules === undefined || (Array.isArray(v.rules) && v.rules.every((rule) => typeof rule === "string")),
    "a list of rule texts",
  );
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
