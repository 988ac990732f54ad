// The inbox page's transport over HTTP: server-sent events for approvals, JSON requests for
// answers, trust and audit. State changes carry the session's CSRF token (from the page's
// `toolgate-csrf` meta element); the session cookie is sent by the browser.

/** @param {string} [base] the inbox's origin; the page's own by default */
export function httpTransport(base = "") {
  const csrf = document.querySelector('meta[name="toolgate-csrf"]')?.getAttribute("content") ?? "";
  const json = async (res) => {
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error ?? `the inbox answered ${res.status}`);
    return body;
  };
  const post = (path, body) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json", "X-Toolgate-CSRF": csrf }, body: JSON.stringify(body), credentials: "same-origin" }).then(json);
  return {
    subscribe(onEvent) {
      const source = new EventSource(`${base}/api/events`);
      source.addEventListener("snapshot", (e) => onEvent({ type: "snapshot", approvals: JSON.parse(e.data) }));
      source.addEventListener("add", (e) => onEvent({ type: "add", approval: JSON.parse(e.data) }));
      source.addEventListener("settled", (e) => onEvent({ type: "settled", ...JSON.parse(e.data) }));
      source.addEventListener("error", () => onEvent({ type: "status", text: "disconnected: retrying…" }));
      return () => source.close();
    },
    answer: (id, answer) => post("/api/answer", { id, answer }),
    trust: () => fetch(`${base}/api/trust`).then(json),
    revoke: (project, id) => post("/api/trust/revoke", { project, id }),
    audit: (filters) => fetch(`${base}/api/audit?${new URLSearchParams(filters)}`).then(json),
  };
}
