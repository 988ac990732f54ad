// `toolgate inbox`: one approval inbox for every agent on the machine. Hooks that must ask
// send the call over a private Unix socket (inbox-protocol.mjs); a page on 127.0.0.1 lists
// them with where they come from and answers them with the approval card; it also shows and
// revokes the trust each project holds and shows the audit trail.
//
// Nobody else can answer: the page is served on 127.0.0.1 only; the start address carries a
// random one-time token in its fragment (never sent to any server), which the page exchanges
// once for a session secret it keeps in `sessionStorage`; every `/api/` request, the event
// stream included, carries that secret in `X-Toolgate-Session` (no cookie: a browser sends
// cookies to every port of 127.0.0.1); the HTML holds no secret; a session left idle expires;
// every request's `Host` must be this server (DNS rebinding); every change needs this server's
// `Origin` and `application/json`; there are no CORS headers; the Content-Security-Policy
// allows this origin's scripts and styles only; an answer is taken once, for a pending
// approval the same session was shown.

import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { connect, createServer as createNetServer } from "node:net";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { MAX_LINE, checkAnswer, parseAsk, replyLine, socketPath } from "./inbox-protocol.mjs";

/** The largest request body the page may send. */
export const MAX_BODY = 64 * 1024;

/** The most approvals waiting at once; more are sent back to their agent's prompt. */
export const MAX_PENDING = 1000;

const UI_DIR = fileURLToPath(new URL("../ui/", import.meta.url));

/** The Content-Security-Policy of every response. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The header every `/api/` request carries its session secret in. */
export const SESSION_HEADER = "x-toolgate-session";

/** How long a session may go without a request and without an open event stream. */
export const SESSION_IDLE_MS = 30 * 60_000;

/** `$XDG_STATE_HOME/toolgate/NAME` or `~/.local/state/toolgate/NAME`, as the hook finds them. */
function stateFile(env, variable, name) {
  if (env[variable]) return env[variable];
  const base = env.XDG_STATE_HOME?.startsWith("/") ? env.XDG_STATE_HOME : join(env.HOME || homedir(), ".local", "state");
  return join(base, "toolgate", name);
}

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Writes `text` to `path` through a temporary file renamed into place. */
function writeAtomic(path, text) {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** What is at a path, in words, from its `lstat`. */
function kindOfEntry(st) {
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isDirectory()) return "a directory";
  if (st.isFile()) return "a regular file";
  if (st.isSocket()) return "a socket";
  if (st.isFIFO()) return "a named pipe";
  return "a device or other special file";
}

/** `lstat`, or null when nothing is there. */
function entryAt(path) {
  try {
    return lstatSync(path);
  } catch (e) {
    if (e?.code === "ENOENT") return null;
    throw e;
  }
}

/** The directory of the default socket path (`$XDG_RUNTIME_DIR/toolgate`, `$TMPDIR/toolgate-<uid>`). */
function defaultDir(env) {
  const socket = socketPath({ ...env, TOOLGATE_INBOX: undefined, TOOLGATE_INBOX_SOCKET: undefined });
  return socket ? dirname(socket) : null;
}

/**
 * Prepares the socket's directory: it must be this user's directory with mode 0700. The inbox
 * creates a missing one with mode 0700; it makes an existing one private only when it is the
 * inbox's own default directory, and refuses any other directory that others can reach.
 */
export function prepareDir(dir, env = process.env) {
  const how = "choose a socket in a private directory of your own (--socket or TOOLGATE_INBOX_SOCKET)";
  if (entryAt(dir) === null) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const d = lstatSync(dir);
  if (!d.isDirectory()) throw new Error(`\`${dir}\` is ${kindOfEntry(d)}, not a directory: ${how}`);
  if (d.uid !== process.getuid()) throw new Error(`\`${dir}\` belongs to another user (uid ${d.uid}): ${how}`);
  if ((d.mode & 0o077) === 0) return;
  if (dir !== defaultDir(env)) {
    const mode = (d.mode & 0o777).toString(8).padStart(3, "0");
    throw new Error(`\`${dir}\` has mode ${mode}, so other users can reach the socket: run \`chmod 700 ${dir}\` if it is yours alone, or ${how}`);
  }
  chmodSync(dir, 0o700);
}

/**
 * Clears the way for the socket: nothing there, or a stale socket of this user (nothing
 * answers on it), which is removed. Anything else is left alone and is an error.
 */
async function clearSocket(socket) {
  const s = entryAt(socket);
  if (s === null) return;
  if (!s.isSocket() || s.uid !== process.getuid()) {
    const what = s.isSocket() ? "a socket of another user" : kindOfEntry(s);
    throw new Error(`\`${socket}\` is ${what}, not a stale inbox socket, so it is left alone: move it away or choose another socket path (--socket or TOOLGATE_INBOX_SOCKET)`);
  }
  if (await answering(socket)) throw new Error(`an inbox is already running on \`${socket}\``);
  unlinkSync(socket);
}

/** Whether something answers on `socket`. */
const answering = (socket) =>
  new Promise((resolve) => {
    const c = connect(socket);
    c.on("connect", () => (c.destroy(), resolve(true)));
    c.on("error", () => resolve(false));
  });

/**
 * Starts the inbox. Options: `socket` (path), `port` (0: any free one), `env` (for the trust
 * file and audit log paths), `engine` (the package's CommonJS wasm build, for trust
 * documents), `log`, `idleMs` (how long an idle session lives, `SESSION_IDLE_MS` by
 * default). Resolves to `{ url, origin, port, socket, startUrl(), pending(), close() }`:
 * `url` is the first start address; `startUrl()` makes another (each opens one session, once).
 *
 * @example
 * const inbox = await startInbox({ engine });
 * console.log(`open ${inbox.url}`); // http://127.0.0.1:PORT/#start=…
 */
export async function startInbox(options = {}) {
  const env = options.env ?? process.env;
  const socket = options.socket ?? socketPath(env);
  if (!socket) throw new Error("the inbox is switched off (TOOLGATE_INBOX=off)");
  const trustFile = stateFile(env, "TOOLGATE_TRUST_FILE", "trust.json");
  const auditLog = stateFile(env, "TOOLGATE_AUDIT_LOG", "audit.jsonl");
  const engine = options.engine;
  const log = options.log ?? (() => {});
  const idleMs = options.idleMs ?? SESSION_IDLE_MS;
  /** Start tokens not used yet: each opens one session, once. */
  const startTokens = new Set();
  /** @type {Map<string, {lastSeen: number, streams: number}>} */
  const sessions = new Map();
  /** @type {Map<string, any>} */
  const pending = new Map();
  const settled = new Set();
  /** @type {Set<{res: import("node:http").ServerResponse, sid: string}>} */
  const streams = new Set();

  prepareDir(dirname(socket), env);
  await clearSocket(socket);

  const view = (p) => ({
    id: p.id,
    sessionId: p.ask.session,
    callId: null,
    agent: p.ask.agent,
    tool: p.ask.tool,
    // The engine's own words for the call, never rebuilt here from the arguments.
    title: p.ask.title,
    description: p.ask.description,
    subject: p.ask.subject,
    label: p.ask.label,
    input: p.ask.input,
    preview: null,
    diff: null,
    risk: p.ask.decision.risk,
    trustable: p.ask.decision.trustable,
    reason: p.ask.reason,
    decision: p.ask.decision,
    answers: p.ask.answers,
    rules: p.ask.rules,
    createdAt: p.createdAt,
    deadline: p.ask.deadline,
    provenance: { project: p.ask.project, cwd: p.ask.cwd ?? null, cwdResolved: p.ask.cwdResolved ?? null, event: p.ask.event, rules: p.ask.rules, pid: p.ask.pid, editable: p.ask.editable },
  });

  const send = (stream, event, data) => stream.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const broadcast = (event, data, p) => {
    for (const s of streams) {
      if (p) p.seenBy.add(s.sid);
      send(s, event, data);
    }
  };

  const settle = (p, answer, why) => {
    if (!pending.has(p.id)) return false;
    pending.delete(p.id);
    settled.add(p.id);
    clearTimeout(p.timer);
    if (answer) p.conn.end(replyLine(answer));
    else p.conn.destroy();
    broadcast("settled", { id: p.id, answer: answer ?? null, why });
    return true;
  };

  // The hooks' side.
  const unix = createNetServer((conn) => {
    let buffer = "";
    let p = null;
    conn.setEncoding("utf8");
    conn.on("data", (chunk) => {
      if (p) return;
      buffer += chunk;
      const nl = buffer.indexOf("\n");
      if (nl < 0) {
        if (buffer.length > MAX_LINE) conn.destroy();
        return;
      }
      let ask;
      try {
        ask = parseAsk(buffer.slice(0, nl));
      } catch (e) {
        conn.end(replyLine({ kind: "ask", reason: `the toolgate inbox could not read the request: ${e.message}` }));
        return;
      }
      if (pending.size >= MAX_PENDING) {
        conn.end(replyLine({ kind: "ask", reason: `the toolgate inbox already holds ${MAX_PENDING} approvals` }));
        return;
      }
      p = { id: randomUUID(), ask, conn, createdAt: Date.now(), seenBy: new Set() };
      // Never longer than ten minutes, whatever the hook says.
      const wait = Math.min(Math.max(0, ask.deadline - Date.now()), 600_000);
      p.timer = setTimeout(() => settle(p, { kind: "ask", reason: "nobody answered in the toolgate inbox in time" }, "expired"), wait);
      pending.set(p.id, p);
      log(`inbox: ${ask.agent} asks for ${ask.label} (${p.id})`);
      broadcast("add", view(p), p);
    });
    conn.on("error", () => {});
    conn.on("close", () => {
      if (p && pending.has(p.id)) {
        pending.delete(p.id);
        settled.add(p.id);
        clearTimeout(p.timer);
        broadcast("settled", { id: p.id, answer: null, why: "the hook stopped waiting" });
      }
    });
  });
  await new Promise((resolve, reject) => {
    unix.once("error", reject);
    unix.listen(socket, () => {
      unix.off("error", reject);
      resolve();
    });
  });
  chmodSync(socket, 0o600);

  // The page's side.
  const uiFiles = new Set(readdirSync(UI_DIR).filter((f) => /^[\w.-]+\.(js|css)$/.test(f)));
  let origin = "";
  let hostNames = [];

  const headers = (type) => ({
    "Content-Type": type,
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Frame-Options": "DENY",
  });
  const reply = (res, status, body, extra = {}) => {
    res.writeHead(status, { ...headers("application/json; charset=utf-8"), ...extra });
    res.end(JSON.stringify(body));
  };
  const fail = (res, status, error) => reply(res, status, { error });

  /** Whether `session` went unused (no request, no open event stream) for longer than `idleMs`. */
  const idle = (session) => session.streams === 0 && Date.now() - session.lastSeen > idleMs;

  /**
   * The live session named by the request's `X-Toolgate-Session` header, or null. An idle
   * session is forgotten here; a live one counts the request as use.
   */
  const sessionOf = (req) => {
    const secret = req.headers[SESSION_HEADER];
    if (typeof secret !== "string") return null;
    const id = [...sessions.keys()].find((key) => same(secret, key));
    if (id === undefined) return null;
    const session = sessions.get(id);
    if (idle(session)) {
      sessions.delete(id);
      return null;
    }
    session.lastSeen = Date.now();
    return id;
  };

  /** Takes a start token once: true when it was one not used yet. */
  const takeStartToken = (offered) => {
    const match = [...startTokens].find((t) => same(offered, t));
    if (match === undefined) return false;
    startTokens.delete(match);
    return true;
  };

  /** A new start token; `startUrl()` puts it in an address. */
  const newStartToken = () => {
    const token = randomBytes(32).toString("base64url");
    startTokens.add(token);
    return token;
  };

  const readBody = (req) =>
    new Promise((resolve, reject) => {
      let size = 0;
      const chunks = [];
      const tooLarge = () => Object.assign(new Error(`the request body is larger than ${MAX_BODY} bytes`), { status: 413 });
      if (Number(req.headers["content-length"] ?? 0) > MAX_BODY) return reject(tooLarge());
      req.on("data", (c) => {
        size += c.length;
        if (size > MAX_BODY) {
          reject(tooLarge());
          chunks.length = 0;
        } else chunks.push(c);
      });
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      req.on("error", reject);
    });

  // The page holds no secret: the session travels only in the `X-Toolgate-Session` header.
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolgate inbox</title>
<link rel="stylesheet" href="/ui/approval-card.css">
<link rel="stylesheet" href="/ui/inbox.css">
<script type="module" src="/ui/inbox-main.js"></script>
</head>
<body>
<main id="inbox" class="tgi"></main>
</body>
</html>
`;

  /** Trust grants of every project: `[{project, session, grant}]`. */
  const trustList = () => {
    let file;
    try {
      file = JSON.parse(readFileSync(trustFile, "utf8"));
    } catch (e) {
      if (e.code === "ENOENT") return [];
      throw new Error(`cannot read the trust file \`${trustFile}\`: ${e.message}`);
    }
    const out = [];
    for (const [project, p] of Object.entries(file.projects ?? {})) {
      const docs = [["", p.always], ...Object.entries(p.sessions ?? {})];
      for (const [session, doc] of docs) {
        if (!doc) continue;
        const store = new engine.RawTrustStore();
        store.importText(doc);
        for (const grant of store.list(Date.now())) out.push({ project, session, grant });
      }
    }
    return out;
  };

  const trustRevoke = (project, id) => {
    const file = JSON.parse(readFileSync(trustFile, "utf8"));
    const p = file.projects?.[project];
    if (!p) return false;
    let removed = false;
    const revokeIn = (doc) => {
      const store = new engine.RawTrustStore();
      store.importText(doc);
      if (!store.revoke(id)) return doc;
      removed = true;
      return store.exportText(Date.now());
    };
    if (p.always) p.always = revokeIn(p.always);
    for (const s of Object.keys(p.sessions ?? {})) p.sessions[s] = revokeIn(p.sessions[s]);
    if (removed) writeAtomic(trustFile, JSON.stringify(file, null, 2));
    return removed;
  };

  /** The audit trail, newest first, filtered; reads at most the last 4 MB. */
  const auditList = (q) => {
    let text;
    try {
      const size = statSync(auditLog).size;
      const len = Math.min(size, 4 * 1024 * 1024);
      const buf = Buffer.alloc(len);
      const fd = openSync(auditLog, "r");
      try {
        readSync(fd, buf, 0, len, size - len);
      } finally {
        closeSync(fd);
      }
      text = buf.toString("utf8");
    } catch (e) {
      if (e.code === "ENOENT") return [];
      throw e;
    }
    const limit = Math.min(Number(q.get("limit")) || 500, 5000);
    const want = (key, v) => !q.get(key) || String(v ?? "").toLowerCase().includes(q.get(key).toLowerCase());
    const out = [];
    const lines = text.split("\n");
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      if (!lines[i].trim()) continue;
      let e;
      try {
        e = JSON.parse(lines[i]);
      } catch {
        continue;
      }
      if (want("agent", e.agent) && want("verdict", e.verdict) && want("tool", e.tool) && want("session", e.sessionId) && want("text", JSON.stringify(e))) out.push(e);
    }
    return out;
  };

  /** Whether a state-changing request comes from this server's own page: its `Origin`, JSON. */
  const changeAllowed = (req, res) => {
    if (req.headers.origin !== origin) return fail(res, 403, `the origin \`${req.headers.origin ?? ""}\` may not change anything here`), false;
    if (!/^application\/json\b/.test(req.headers["content-type"] ?? "")) return fail(res, 415, "send `application/json`"), false;
    return true;
  };

  /** Reads a JSON body, or answers 413/400 and resolves to undefined. */
  const readJson = async (req, res) => {
    try {
      return JSON.parse(await readBody(req));
    } catch (e) {
      if (e.status === 413) {
        res.on("finish", () => req.destroy());
        return void reply(res, 413, { error: e.message }, { Connection: "close" });
      }
      return void fail(res, 400, `the body is not JSON (${e.message})`);
    }
  };

  /** `POST /api/session {token}`: exchanges an unused start token for a session secret. */
  const openSession = async (req, res) => {
    if (!changeAllowed(req, res)) return;
    const body = await readJson(req, res);
    if (body === undefined) return;
    if (typeof body?.token !== "string") return fail(res, 400, "send the start token as `token`");
    if (!takeStartToken(body.token)) return fail(res, 403, "this start address is unknown or was already used (each opens one page, once): reload a page it opened, or restart `toolgate inbox` for a new address");
    const secret = randomBytes(32).toString("base64url");
    sessions.set(secret, { lastSeen: Date.now(), streams: 0 });
    return reply(res, 200, { session: secret });
  };

  const routes = async (req, res) => {
    if (!hostNames.includes(req.headers.host ?? "")) return fail(res, 421, `unexpected \`Host\` header \`${req.headers.host ?? ""}\`: open the inbox at ${origin}`);
    const url = new URL(req.url ?? "/", origin);
    if (req.method === "GET" && url.pathname === "/") {
      res.writeHead(200, headers("text/html; charset=utf-8"));
      return res.end(page);
    }
    if (req.method === "GET" && url.pathname.startsWith("/ui/")) {
      const name = url.pathname.slice(4);
      if (!uiFiles.has(name)) return fail(res, 404, "no such file");
      res.writeHead(200, headers(name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"));
      return res.end(readFileSync(join(UI_DIR, name)));
    }
    if (!url.pathname.startsWith("/api/")) return fail(res, 404, "no such page");
    if (req.method === "POST" && url.pathname === "/api/session") return openSession(req, res);
    const sid = sessionOf(req);
    if (!sid) return fail(res, 403, "no session, or it expired: open the address `toolgate inbox` printed (restart it for a new one)");
    if (req.method === "GET" && url.pathname === "/api/events") {
      res.writeHead(200, { ...headers("text/event-stream; charset=utf-8"), Connection: "keep-alive" });
      const stream = { res, sid };
      streams.add(stream);
      const session = sessions.get(sid);
      session.streams++;
      const list = [...pending.values()];
      for (const p of list) p.seenBy.add(sid);
      send(stream, "snapshot", list.map(view));
      const beat = setInterval(() => res.write(": beat\n\n"), 15_000);
      req.on("close", () => {
        clearInterval(beat);
        streams.delete(stream);
        session.streams--;
        session.lastSeen = Date.now();
      });
      return;
    }
    if (req.method === "GET" && url.pathname === "/api/pending") {
      const list = [...pending.values()];
      for (const p of list) p.seenBy.add(sid);
      return reply(res, 200, list.map(view));
    }
    if (req.method === "GET" && url.pathname === "/api/trust") return reply(res, 200, trustList());
    if (req.method === "GET" && url.pathname === "/api/audit") return reply(res, 200, auditList(url.searchParams));
    if (req.method !== "POST") return fail(res, 405, `\`${req.method}\` is not allowed here`);
    if (!changeAllowed(req, res)) return;
    const body = await readJson(req, res);
    if (body === undefined) return;
    if (url.pathname === "/api/answer") {
      const p = pending.get(body?.id);
      if (!p) return fail(res, settled.has(body?.id) ? 409 : 404, settled.has(body?.id) ? `approval \`${body.id}\` is already settled` : `no pending approval \`${body?.id}\``);
      if (!p.seenBy.has(sid)) return fail(res, 403, "this page was not shown that approval");
      let answer;
      try {
        answer = checkAnswer(p.ask, body.answer);
      } catch (e) {
        return fail(res, 400, e.message);
      }
      settle(p, answer, "answered");
      log(`inbox: ${p.id} answered ${answer.kind}${answer.scope ? ` (${answer.scope})` : ""}`);
      return reply(res, 200, { id: p.id, answer });
    }
    if (url.pathname === "/api/trust/revoke") {
      if (typeof body?.project !== "string" || typeof body?.id !== "string") return fail(res, 400, "send `project` and `id`");
      const removed = trustRevoke(body.project, body.id);
      if (!removed) return fail(res, 404, `no grant \`${body.id}\` in \`${body.project}\``);
      return reply(res, 200, { revoked: body.id });
    }
    return fail(res, 404, "no such endpoint");
  };

  const http = createHttpServer((req, res) => {
    routes(req, res).catch((e) => {
      if (!res.headersSent) fail(res, 500, e.message);
      else res.end();
    });
  });
  await new Promise((resolve) => http.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = http.address().port;
  origin = `http://127.0.0.1:${port}`;
  hostNames = [`127.0.0.1:${port}`, `localhost:${port}`];

  let closed = false;
  const close = async (why = "the toolgate inbox was stopped") => {
    if (closed) return;
    closed = true;
    for (const p of [...pending.values()]) settle(p, { kind: "ask", reason: why }, "inbox stopped");
    for (const s of streams) s.res.end();
    await Promise.all([new Promise((r) => unix.close(r)), new Promise((r) => http.close(r))]);
    http.closeAllConnections?.();
    try {
      unlinkSync(socket);
    } catch {}
  };

  const startUrl = () => `${origin}/#start=${newStartToken()}`;
  return { url: startUrl(), origin, port, socket, startUrl, pending: () => [...pending.values()].map(view), close };
}
