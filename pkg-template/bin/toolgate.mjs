#!/usr/bin/env node
// `toolgate hook`: the command a coding agent runs before each tool call, on the package's
// wasm engine. It decides exactly as the native `toolgate hook` does: the flags, the policy
// files and their layers, the agent's settings, the trust file and the answer all come from
// the same Rust code (`runHook`); this file only does the I/O (stdin, files, environment,
// clock, realpath, directory listings, stdout/stderr, exit code).
//
//   npx toolgate hook [--agent claude|copilot|codex|gemini|cursor] [--policy FILE]...
//                     [--agent-settings] [--explain] [--deadline-ms N]
//
// Fails closed: a failure anywhere (the engine not loading, an exception, stdin not closing
// before the deadline) prints the agent's blocking answer, never a "go ahead".

import {
  closeSync,
  constants as fsConstants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  statSync,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { getSystemErrorMap } from "node:util";

const USAGE = `usage: toolgate hook [--agent claude|copilot|codex|gemini|cursor] [--policy <file>]...
                     [--agent-settings] [--explain] [--deadline-ms <n>]

\`toolgate inbox [--port <n>] [--socket <path>]\` starts the approval inbox (docs/inbox.md).

The npm package runs the hook and the inbox only; install, uninstall, doctor and trust are commands of the
native toolgate binary (cargo install toolgate).`;

/** The last `--agent` value, for blocking answers given before the engine has read the flags. */
const agentFlag = (args) => {
  const i = args.lastIndexOf("--agent");
  return i >= 0 ? args[i + 1] : undefined;
};

/** Writes all of `text` to a file descriptor, synchronously (the process exits next). */
function writeAll(fd, text) {
  const bytes = Buffer.from(text, "utf8");
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeSync(fd, bytes, off);
    } catch (e) {
      if (e.code !== "EAGAIN") return;
    }
  }
}

let emitted = false;
/** Prints an answer as the native hook does (stderr gets a newline) and exits with its code. */
function emit(answer) {
  if (emitted) return;
  emitted = true;
  writeAll(1, answer.stdout);
  if (answer.stderr) writeAll(2, `${answer.stderr}\n`);
  process.exit(answer.exitCode);
}

/** The last resort when the engine itself is unusable: exit 2 blocks in every agent. */
function emitBare(reason) {
  emit({
    stdout: "",
    stderr: `Blocked by toolgate: ${reason}. The call did not run; do not retry it until the user has fixed toolgate (\`toolgate doctor\`).`,
    exitCode: 2,
  });
}

/** glibc's texts where libuv words an error differently (most differ only in case). */
const STRERROR = {
  EISDIR: "Is a directory",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EIO: "Input/output error",
};

/** An OS error as Rust's `std::io::Error` prints it: "No such file or directory (os error 2)". */
function osError(e) {
  const entry = typeof e.errno === "number" ? getSystemErrorMap().get(e.errno) : undefined;
  if (!entry) return e.message;
  const [code, text] = entry;
  return `${STRERROR[code] ?? `${text.charAt(0).toUpperCase()}${text.slice(1)}`} (os error ${-e.errno})`;
}

// A leading byte order mark is kept (and then refused by the JSON parser), as the native
// hook's `read_to_string` keeps it.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// Opening a FIFO or a terminal returns at once instead of waiting for the other end: every
// file the hook reads or appends to is opened so, and refused unless it is a regular file.
const NO_WAIT = fsConstants.O_NONBLOCK | fsConstants.O_NOCTTY;

/** An Error the engine reads by its `code` (`NOT_REGULAR`, `TOO_LARGE`). */
const failure = (code, message, fields = {}) => Object.assign(new Error(message), { code, ...fields });

/** Throws `NOT_REGULAR` unless the open descriptor `fd` is a regular file. */
function requireRegular(fd, fields) {
  if (!fstatSync(fd).isFile()) throw failure("NOT_REGULAR", "not a regular file", fields);
}

/** At most `limit` bytes from the start of the open file `fd`. */
function readUpTo(fd, limit) {
  const chunks = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(limit - total, 1 << 16));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** The file system and environment the engine reads through (`HookHost` in the typings). */
const host = {
  read(path, max) {
    let fd;
    try {
      fd = openSync(path, fsConstants.O_RDONLY | NO_WAIT);
    } catch (e) {
      if (e.code === "ENOENT") return null;
      throw new Error(osError(e));
    }
    let bytes;
    try {
      requireRegular(fd);
      bytes = readUpTo(fd, max + 1);
    } catch (e) {
      throw e.code === "NOT_REGULAR" ? e : new Error(osError(e));
    } finally {
      closeSync(fd);
    }
    if (bytes.length > max) throw failure("TOO_LARGE", `larger than ${max} bytes`);
    try {
      return utf8.decode(bytes);
    } catch {
      throw new Error("stream did not contain valid UTF-8");
    }
  },
  env: (name) => process.env[name],
  isDir(path) {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  },
  exists: (path) => existsSync(path),
  append(path, text) {
    const step = (what, at, f) => {
      try {
        f();
      } catch (e) {
        throw Object.assign(new Error(osError(e)), { what, path: at });
      }
    };
    step("create", dirname(path), () => mkdirSync(dirname(path), { recursive: true }));
    let fd;
    step("open", path, () => {
      fd = openSync(path, fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT | NO_WAIT, 0o666);
    });
    try {
      requireRegular(fd, { what: "append to", path });
      step("append to", path, () => {
        const bytes = Buffer.from(text, "utf8");
        for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
      });
    } finally {
      closeSync(fd);
    }
  },
  now: () => Date.now(),
  clock: () => performance.now(),
  // The canonical path (the project directory's); the engine follows the links of the
  // paths a call names itself, one hop at a time, over `entry`.
  realpath(path) {
    try {
      return realpathSync.native(path);
    } catch {
      return null;
    }
  },
  entry(path) {
    let stat;
    try {
      stat = lstatSync(path, { throwIfNoEntry: false });
    } catch (e) {
      if (e.code === "ENOENT" || e.code === "ENOTDIR") return null;
      throw new Error(osError(e));
    }
    if (stat === undefined) return null;
    if (!stat.isSymbolicLink()) return true;
    const target = readlinkSync(path, { encoding: "buffer" });
    const text = target.toString("utf8");
    if (!Buffer.from(text, "utf8").equals(target)) throw new Error("the link's target is not UTF-8");
    return text;
  },
  listDir(path) {
    try {
      const names = [];
      for (const entry of readdirSync(path, { encoding: "buffer", withFileTypes: true })) {
        const name = entry.name.toString("utf8");
        // A name that is not UTF-8 cannot be named back: a plain file is judged by its name
        // with U+FFFD for the bytes that are not UTF-8; what lies below or behind a directory
        // or a link so named is unknown, and the call asks.
        if (!Buffer.from(name, "utf8").equals(entry.name) && !entry.isFile()) return null;
        names.push(name);
      }
      return names;
    } catch (e) {
      return e?.code === "ENOENT" || e?.code === "ENOTDIR" ? [] : null;
    }
  },
  platform: () => process.platform,
  cwd: () => process.cwd(),
};

/** Reads all of stdin. */
async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Where `dir` leads once its symbolic links are resolved, when that is another path; else null. */
function resolvedElsewhere(dir) {
  if (typeof dir !== "string") return null;
  try {
    const real = realpathSync(dir);
    return real !== dir.replace(/\/+$/, "") ? real : null;
  } catch {
    return null;
  }
}

/**
 * Hands a call that must ask to the approval inbox (docs/inbox.md), if one is running:
 * `{reply}` (the inbox's answer line), `{fallback}` (why there is none), or `{}` (no inbox).
 */
async function askTheInbox(engine, hookArgs, payload, until) {
  const { askInbox, socketPath } = await import("./inbox-protocol.mjs");
  const socket = socketPath(process.env);
  if (!socket || !existsSync(socket)) return {};
  const text = engine.hookInboxMessage(hookArgs, payload, host, until);
  if (!text) return {};
  const message = { ...JSON.parse(text), pid: process.pid };
  message.cwdResolved = resolvedElsewhere(message.cwd);
  const result = await askInbox(socket, message, until);
  if (result.answer) return { reply: JSON.stringify({ protocol: "toolgate-inbox/1", type: "answer", answer: result.answer }) };
  return result.fallback ? { fallback: result.fallback } : {};
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "-h" || args[0] === "--help" || args[0] === "help") {
    writeAll(1, `${USAGE}\n`);
    process.exit(0);
  }
  if (args[0] === "-V" || args[0] === "--version" || args[0] === "version") {
    const { version } = createRequire(import.meta.url)("../package.json");
    writeAll(1, `toolgate ${version}\n`);
    process.exit(0);
  }
  if (args[0] === "inbox") return (await import("./inbox-cli.mjs")).main(args.slice(1));
  if (args[0] !== "hook") {
    writeAll(2, `toolgate: error[INVALID_REQUEST] ${args[0] === undefined ? "no command given" : `unknown command \`${args[0]}\``}\n  hint: ${USAGE}\n`);
    process.exit(2);
  }
  const hookArgs = args.slice(1);
  let engine;
  try {
    engine = createRequire(import.meta.url)("../node/toolgate_tools_bindgen.cjs");
  } catch (e) {
    return emitBare(`the toolgate engine did not load: ${e.message}`);
  }
  let payload = null;
  const block = (reason) => {
    try {
      emit(engine.blockingAnswer(agentFlag(hookArgs), payload === null ? undefined : payload.toString("utf8"), reason));
    } catch {
      emitBare(reason);
    }
  };
  // An internal error (a throw, a wasm trap) exits with 2 whatever the agent's format, as the
  // native hook's panics do; if even the engine's blocking answer fails, a bare exit 2.
  const internalError = (e) => {
    const reason = `internal error: ${e?.message ?? e}`;
    try {
      emit({ ...engine.blockingAnswer(agentFlag(hookArgs), undefined, reason), exitCode: 2 });
    } catch {
      emitBare(reason);
    }
  };
  process.on("uncaughtException", internalError);
  const deadline = engine.hookDeadlineMs(hookArgs);
  setTimeout(() => block(`toolgate did not decide within ${deadline} ms`), deadline).unref();
  // The approval inbox's wait ends before the deadline (as the native hook's does).
  const inboxUntil = Date.now() + deadline - Math.min(Math.floor(deadline / 4), 1000);
  try {
    payload = await readStdin();
  } catch (e) {
    return block(`cannot read stdin: ${osError(e)}`);
  }
  let inbox = {};
  try {
    inbox = await askTheInbox(engine, hookArgs, payload, inboxUntil);
  } catch (e) {
    inbox = { fallback: `the toolgate inbox failed (${e?.message ?? e})` };
  }
  let answer;
  try {
    answer = engine.runHook(hookArgs, payload, host, inbox.reply, inbox.fallback);
  } catch (e) {
    return internalError(e);
  }
  emit(answer);
}

main().catch((e) => emitBare(`internal error: ${e?.message ?? e}`));
