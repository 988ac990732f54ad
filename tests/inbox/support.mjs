// Shared by the inbox tests: a private world (home, project, socket), the native hook run on
// captured payloads, and the inbox started on it.

import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("../../", import.meta.url).pathname;
export const NATIVE = process.env.TOOLGATE_BIN ?? join(ROOT, "target", "debug", "toolgate");
export const PKG = join(ROOT, "pkg");

/** Builds the native binary when it is missing (or TOOLGATE_BIN names one). */
export function ensureNative() {
  if (!process.env.TOOLGATE_BIN) execFileSync("cargo", ["build", "--quiet", "--bin", "toolgate"], { cwd: ROOT, stdio: "inherit" });
  if (!existsSync(join(PKG, "bin", "inbox-server.mjs"))) throw new Error("no pkg/bin/inbox-server.mjs: run npm run build");
}

/** The package's modules. */
export const load = async () => ({
  server: await import(join(PKG, "bin", "inbox-server.mjs")),
  protocol: await import(join(PKG, "bin", "inbox-protocol.mjs")),
  engine: createRequire(import.meta.url)(join(PKG, "node", "toolgate_bindgen.cjs")),
});

/** A fresh world: a home, a project with `.git`, a 0700 socket directory (short path). */
export function world() {
  const root = mkdtempSync(join(tmpdir(), "tgi-"));
  const proj = join(root, "proj");
  const home = join(root, "home");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  const socket = join(root, "run", "inbox.sock");
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_STATE_HOME: join(home, "state"),
    XDG_CONFIG_HOME: join(home, "config"),
    TOOLGATE_INBOX_SOCKET: socket,
    TOOLGATE_MANAGED_POLICY: join(root, "managed.json"),
  };
  return { root, proj, home, socket, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A captured payload of `name` (tests/fixtures/agents/captured-NAME.json) placed in `proj`. */
export function payload(name, proj, change = {}) {
  const text = readFileSync(join(ROOT, "tests", "fixtures", "agents", `captured-${name}.json`), "utf8").replaceAll("$WORK/proj", proj);
  const stdin = JSON.parse(text).stdin;
  return { ...stdin, ...change };
}

/** Runs the native hook (or with `npm: true` the package's bin); resolves to {stdout, stderr, code, ms}. */
export function hook(agent, input, env, { deadlineMs = 8000, args = [], npm = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const hookArgs = ["hook", "--agent", agent, "--deadline-ms", String(deadlineMs), ...args];
    const [command, argv] = npm ? [process.execPath, [join(PKG, "bin", "toolgate.mjs"), ...hookArgs]] : [NATIVE, hookArgs];
    const child = spawn(command, argv, { env, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    child.on("error", reject);
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
    const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs + 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), code, ms: performance.now() - started });
    });
  });
}

/** The decision word of a Claude Code or Copilot CLI pre-tool answer. */
export function decisionOf(stdout) {
  if (!stdout) return "none";
  const v = JSON.parse(stdout);
  return v.hookSpecificOutput?.permissionDecision ?? v.permissionDecision ?? "none";
}

/** The reason of a Claude Code or Copilot CLI pre-tool answer. */
export function reasonOf(stdout) {
  const v = JSON.parse(stdout);
  return v.hookSpecificOutput?.permissionDecisionReason ?? v.permissionDecisionReason ?? "";
}

/** Waits until `check()` is truthy, polling, for at most `ms`. */
export async function until(check, ms = 10_000, what = "a condition") {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The start token in a start address (`…/#start=TOKEN`). */
export const startToken = (url) => new URL(url).hash.replace(/^#start=/, "");

/**
 * An HTTP client holding an inbox session: exchanges a fresh start token (or the one in
 * `url`) for the session secret, as the page does, and sends it in `X-Toolgate-Session`.
 */
export async function client(inbox, url = inbox.startUrl()) {
  const opened = await fetch(`${inbox.origin}/api/session`, { method: "POST", headers: { origin: inbox.origin, "content-type": "application/json" }, body: JSON.stringify({ token: startToken(url) }) });
  if (!opened.ok) throw new Error(`no session: ${opened.status} ${await opened.text()}`);
  const { session } = await opened.json();
  const get = (path, headers = {}) => fetch(`${inbox.origin}${path}`, { headers: { "x-toolgate-session": session, ...headers } });
  const post = (path, body, headers = {}) =>
    fetch(`${inbox.origin}${path}`, {
      method: "POST",
      headers: { "x-toolgate-session": session, origin: inbox.origin, "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return { session, get, post };
}
