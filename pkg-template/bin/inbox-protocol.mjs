// The approval inbox's protocol, JavaScript side: one JSON line from the hook, one JSON line
// back, over a Unix domain socket only the same user can open. The Rust side (the native
// hook) is src/cli/inbox.rs; tests/inbox/protocol.test.mjs checks the two against each other.
//
//   hook  -> inbox  {"protocol":"toolgate-inbox/1","type":"ask","agent":"claude",...}
//   inbox -> hook   {"protocol":"toolgate-inbox/1","type":"answer","answer":{"kind":"allow","scope":"once"}}

import { lstatSync, statSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

/** The protocol's name and version, in every message both ways. */
export const PROTOCOL = "toolgate-inbox/1";

/** The largest line either side reads (an ask carries the call's arguments). */
export const MAX_LINE = 1024 * 1024;

/** The answers a hook may offer, as the approval card names them. */
export const ANSWER_OPTIONS = ["allowOnce", "allowSession", "allowAlways", "allowToolForSession", "deny"];

/** The scopes of an allow, and the offered answer each needs. */
export const SCOPES = { once: "allowOnce", session: "allowSession", always: "allowAlways", toolSession: "allowToolForSession" };

/** The fields of an ask message and their kinds (`?` marks those that may be null). */
export const ASK_FIELDS = {
  protocol: "string",
  type: "string",
  agent: "string",
  event: "string",
  project: "string",
  session: "string",
  // The directory the call runs in (the one the call names, else the agent's).
  cwd: "string?",
  // Where \`cwd\` leads once the hook resolved its symbolic links, when elsewhere.
  cwdResolved: "string?",
  tool: "string",
  // The call in words, as the engine names it (the approval card's texts).
  title: "string",
  description: "string",
  subject: "string",
  label: "string",
  // The tool's arguments as the agent sent them, every key.
  input: "any",
  reason: "string",
  decision: "object",
  rules: "array",
  answers: "array",
  editable: "boolean",
  deadline: "number",
  pid: "number",
};

/**
 * The inbox's socket path, or null when the inbox is switched off (`TOOLGATE_INBOX=off`):
 * `$TOOLGATE_INBOX_SOCKET`, else `$XDG_RUNTIME_DIR/toolgate/inbox.sock`, else
 * `toolgate-<uid>/inbox.sock` in the temp directory. The same rule as the native hook's.
 */
export function socketPath(env = process.env) {
  if (env.TOOLGATE_INBOX === "off") return null;
  if (env.TOOLGATE_INBOX_SOCKET !== undefined) return isAbsolute(env.TOOLGATE_INBOX_SOCKET) ? env.TOOLGATE_INBOX_SOCKET : null;
  if (env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR)) return join(env.XDG_RUNTIME_DIR, "toolgate", "inbox.sock");
  return join(env.TMPDIR && isAbsolute(env.TMPDIR) ? env.TMPDIR : tmpdir(), `toolgate-${process.getuid()}`, "inbox.sock");
}

/** Checks that `socket` and its directory are this user's and the directory is 0700; throws why not. */
export function checkPrivate(socket) {
  const uid = process.getuid();
  const s = lstatSync(socket);
  if (!s.isSocket() || s.uid !== uid) throw new Error(`\`${socket}\` is not a socket of this user`);
  const d = lstatSync(dirname(socket));
  if (!d.isDirectory() || d.uid !== uid || (d.mode & 0o077) !== 0) {
    throw new Error(`\`${dirname(socket)}\` must be a directory of this user with mode 0700`);
  }
}

const kindOf = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Checks an ask line; returns the message or throws a TypeError naming what is wrong. */
export function parseAsk(line) {
  let m;
  try {
    m = JSON.parse(line);
  } catch (e) {
    throw new TypeError(`the request is not JSON (${e.message})`);
  }
  if (kindOf(m) !== "object") throw new TypeError("the request must be a JSON object");
  for (const key of Object.keys(m)) if (!(key in ASK_FIELDS)) throw new TypeError(`unknown field \`${key}\``);
  for (const [key, kind] of Object.entries(ASK_FIELDS)) {
    const got = kindOf(m[key]);
    if (kind === "any" ? !(key in m) : kind.endsWith("?") ? got !== kind.slice(0, -1) && got !== "null" && got !== "undefined" : got !== kind) {
      throw new TypeError(`\`${key}\` must be ${kind.replace("?", " or null")}, got ${got}`);
    }
  }
  if (m.protocol !== PROTOCOL || m.type !== "ask") throw new TypeError(`expected \`${PROTOCOL}\` \`ask\`, got \`${m.protocol}\` \`${m.type}\``);
  for (const a of m.answers) if (!ANSWER_OPTIONS.includes(a)) throw new TypeError(`unknown answer \`${a}\``);
  if (!m.answers.includes("allowOnce") || !m.answers.includes("deny")) throw new TypeError("`answers` must offer `allowOnce` and `deny`");
  return m;
}

/**
 * Checks an answer a person gave against what the ask offered; returns the answer to send
 * or throws a TypeError. Answers: `{kind:"allow", scope, editedInput?}`, `{kind:"deny",
 * message?}`, `{kind:"ask", reason}`.
 */
export function checkAnswer(ask, answer) {
  if (kindOf(answer) !== "object") throw new TypeError("the answer must be an object");
  // The approval card's (and the broker's) spelling of the tool-for-the-session answer.
  if (answer.kind === "allowToolForSession" && Object.keys(answer).length === 1) answer = { kind: "allow", scope: "toolSession" };
  if (answer.kind === "deny") {
    if (answer.message !== undefined && typeof answer.message !== "string") throw new TypeError("`message` must be a string");
    return answer.message ? { kind: "deny", message: answer.message.slice(0, 2000) } : { kind: "deny" };
  }
  if (answer.kind === "ask") return { kind: "ask", reason: String(answer.reason ?? "the person chose the agent's own prompt") };
  if (answer.kind !== "allow") throw new TypeError(`unknown answer kind \`${answer.kind}\``);
  const needs = SCOPES[answer.scope];
  if (!needs) throw new TypeError(`unknown scope \`${answer.scope}\``);
  if (!ask.answers.includes(needs)) throw new TypeError(`\`${needs}\` was not offered for this call`);
  if (answer.editedInput === undefined) return { kind: "allow", scope: answer.scope };
  if (!ask.editable) throw new TypeError("edited arguments were not offered for this call");
  if (answer.scope !== "once") throw new TypeError("edited arguments are approved once only");
  if (kindOf(answer.editedInput) !== "object") throw new TypeError("`editedInput` must be an object");
  return { kind: "allow", scope: "once", editedInput: answer.editedInput };
}

/** The reply line for an answer. */
export const replyLine = (answer) => `${JSON.stringify({ protocol: PROTOCOL, type: "answer", answer })}\n`;

/** Reads a reply line; returns the answer or throws. */
export function parseReply(line) {
  const m = JSON.parse(line);
  const keys = Object.keys(m).sort().join(",");
  if (keys !== "answer,protocol,type" || m.protocol !== PROTOCOL || m.type !== "answer") {
    throw new TypeError("the inbox's reply is not a `toolgate-inbox/1` answer");
  }
  return m.answer;
}

/**
 * Sends an ask to the inbox and waits until `until` (Unix ms) for the answer. Resolves to
 * `{answer}`, or `{fallback: reason}` (`reason` null when no inbox is running). Never rejects.
 */
export function askInbox(socket, message, until) {
  return new Promise((resolve) => {
    try {
      statSync(socket);
    } catch {
      return resolve({ fallback: null });
    }
    try {
      checkPrivate(socket);
    } catch (e) {
      return resolve({ fallback: e.message });
    }
    let done = false;
    let buffer = "";
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      conn.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ fallback: "no answer in the toolgate inbox in time" }), Math.max(1, until - Date.now()));
    const conn = connect(socket);
    conn.setEncoding("utf8");
    conn.on("connect", () => conn.write(`${JSON.stringify(message)}\n`));
    conn.on("data", (chunk) => {
      buffer += chunk;
      const nl = buffer.indexOf("\n");
      if (nl >= 0) {
        try {
          finish({ answer: parseReply(buffer.slice(0, nl)) });
        } catch (e) {
          finish({ fallback: `the toolgate inbox's reply does not parse (${e.message})` });
        }
      } else if (buffer.length > MAX_LINE) finish({ fallback: "the toolgate inbox's reply is too long" });
    });
    conn.on("error", (e) => finish({ fallback: `the toolgate inbox is not running (${e.message})` }));
    conn.on("close", () => finish({ fallback: "the toolgate inbox stopped before anyone answered" }));
  });
}
