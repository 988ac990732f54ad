// The inbox page's transport over HTTP: a streamed `fetch` of server-sent events for
// approvals, JSON requests for answers, trust and audit. Every request carries the session
// secret in `X-Toolgate-Session`. The secret comes from exchanging the one-time start token
// (the `#start=` fragment of the address `toolgate inbox` printed, never sent to a server)
// once, and is kept in this tab's `sessionStorage` so a reload keeps the session. There is no
// cookie: a browser would send it to every server on 127.0.0.1, whatever its port.

/** The `sessionStorage` key of the session secret. */
export const SESSION_KEY = "toolgate-inbox-session";

/** How long to wait before reconnecting a dropped event stream. */
const RETRY_MS = 1000;

/**
 * The session secret: the start token in the address exchanged once (and removed from the
 * address), else the one this tab kept.
 *
 * @param {string} base the inbox's origin ("" for the page's own)
 * @returns {Promise<string>}
 */
export async function openSession(base = "") {
  const start = new URLSearchParams(location.hash.slice(1)).get("start");
  if (start === null) {
    const kept = sessionStorage.getItem(SESSION_KEY);
    if (kept) return kept;
    throw new Error("no session: open the address `toolgate inbox` printed");
  }
  history.replaceState(null, "", `${location.pathname}${location.search}`);
  const res = await fetch(`${base}/api/session`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: start }), credentials: "omit" });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error ?? `the inbox answered ${res.status}`);
  sessionStorage.setItem(SESSION_KEY, body.session);
  return body.session;
}

/**
 * Calls `onMessage(event, data)` for each server-sent event in a streamed response body.
 *
 * @param {ReadableStream<Uint8Array>} body
 * @param {(event: string, data: string) => void} onMessage
 */
async function readEvents(body, onMessage) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length > 0) onMessage(event, data.join("\n"));
    }
  }
}

/** @param {string} [base] the inbox's origin; the page's own by default */
export function httpTransport(base = "") {
  const session = openSession(base);
  const request = async (path, init = {}) => {
    const secret = await session;
    return fetch(`${base}${path}`, { ...init, headers: { ...init.headers, "X-Toolgate-Session": secret }, credentials: "omit" });
  };
  const json = async (res) => {
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error ?? `the inbox answered ${res.status}`);
    return body;
  };
  const post = (path, body) => request(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then(json);
  return {
    subscribe(onEvent) {
      let stopped = false;
      const controller = new AbortController();
      const handle = (event, data) => {
        const value = JSON.parse(data);
        if (event === "snapshot") onEvent({ type: "snapshot", approvals: value });
        else if (event === "add") onEvent({ type: "add", approval: value });
        else if (event === "settled") onEvent({ type: "settled", ...value });
      };
      const connect = async () => {
        while (!stopped) {
          try {
            const res = await request("/api/events", { signal: controller.signal });
            // A refused session does not come back by retrying: say why and stop.
            if (res.status === 403) return onEvent({ type: "status", text: `disconnected: ${(await json(res).catch((e) => e)).message}` });
            if (!res.ok || !res.body) throw new Error(`the inbox answered ${res.status}`);
            await readEvents(res.body, handle);
          } catch (e) {
            if (stopped) return;
            if (!(e instanceof TypeError) && !/answered/.test(e.message)) return onEvent({ type: "status", text: `disconnected: ${e.message}` });
          }
          onEvent({ type: "status", text: "disconnected: retrying…" });
          await new Promise((r) => setTimeout(r, RETRY_MS));
        }
      };
      connect();
      return () => {
        stopped = true;
        controller.abort();
      };
    },
    answer: (id, answer) => post("/api/answer", { id, answer }),
    trust: () => request("/api/trust").then(json),
    revoke: (project, id) => post("/api/trust/revoke", { project, id }),
    audit: (filters) => request(`/api/audit?${new URLSearchParams(filters)}`).then(json),
  };
}
