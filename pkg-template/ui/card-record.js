// The one-line record a card leaves once its request is settled.

/**
 * The icon of each final status.
 *
 * @type {Record<import("./approval-card").SettledStatus, { icon: import("./dom.js").IconName }>}
 */
export const STATUS = {
  approved: { icon: "check" },
  denied: { icon: "cross" },
  expired: { icon: "clock" },
  cancelled: { icon: "cross" },
};
const SCOPE_TEXT = { once: "Allowed once", session: "Allowed for this session", always: "Always allowed", toolSession: "Tool allowed for this session" };

/**
 * What a remembering answer saved, as the card showed it: ` — remembers Write(//p/a.ts)`.
 *
 * @param {import("./approval-card").PendingApproval | null} approval
 * @param {string[]} problems
 * @param {string | undefined} scope
 */
function remembers(approval, problems, scope) {
  if (approval === null || problems.length > 0) return "";
  if (scope === "toolSession") return ` — remembers ${approval.tool}`;
  if (scope !== "session" && scope !== "always") return "";
  const rules = Array.isArray(approval.rules) ? approval.rules : [];
  return rules.length > 0 ? ` — remembers ${rules.join(", ")}` : "";
}

/**
 * The record line: `Allowed for this session: Bash(npm test)`,
 * `Denied: Write(src/app.ts) — “message”`, `Timed out — denied automatically: …`.
 *
 * @param {import("./approval-card").PendingApproval | null} approval
 * @param {string[]} problems
 * @param {import("./approval-card").SettledRecord} record
 */
export function recordText(approval, problems, record) {
  const label =
    approval === null
      ? "request"
      : problems.length === 0
        ? approval.label
        : typeof approval.tool === "string"
          ? approval.tool
          : "request";
  switch (record.status) {
    case "approved": {
      const head = SCOPE_TEXT[/** @type {keyof typeof SCOPE_TEXT} */ (record.scope)] ?? "Allowed";
      return `${head}: ${label}${remembers(approval, problems, record.scope)}`;
    }
    case "denied":
      return record.message ? `Denied: ${label} — “${record.message}”` : `Denied: ${label}`;
    case "expired":
      return `Timed out — denied automatically: ${label}`;
    default:
      return `Cancelled: ${label}`;
  }
}
