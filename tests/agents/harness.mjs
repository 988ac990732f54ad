// The harness for the real-agent tests: per-run directories, bounded child processes, and
// one driver per agent CLI (its offline configuration, its command line, how to read its
// result). Nothing here knows about toolgate: the tests install the hook.
//
// Every run lives in its own temporary directory holding proj/ (the agent's working
// directory), home/ (HOME, with CODEX_HOME and COPILOT_HOME inside) and tmp/ (TMPDIR), and
// every process is started in its own process group and killed with it.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const AGENTS_ROOT = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(AGENTS_ROOT, "..", "..");
const BIN = join(AGENTS_ROOT, "node_modules", ".bin");

/** The agents' executables, from this directory's own npm install. */
export const agentBin = (name) => join(BIN, name);

/** The prompt every run sends; the fake model ignores it. */
export const PROMPT = "Run the scripted command.";

function removeScratch(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  } catch (error) {
    console.error(`# left ${dir}: ${error.code ?? error.message}`);
  }
}

/**
 * A fresh run directory; `cleanup()` removes it. An agent's own child processes (the SDKs
 * start theirs, outside `runProcess`) may still be writing caches under it for a moment after
 * the agent stops, so removal retries; a directory still busy after that is left for the OS
 * and named on stderr, since a leftover scratch directory says nothing about the code under
 * test.
 */
export function makeRun(label) {
  const dir = mkdtempSync(join(tmpdir(), `toolgate-agents-${label}-`));
  const run = {
    dir,
    proj: join(dir, "proj"),
    home: join(dir, "home"),
    tmp: join(dir, "tmp"),
    codexHome: join(dir, "home", ".codex"),
    copilotHome: join(dir, "home", ".copilot"),
    logs: join(dir, "logs"),
    cleanup: () => removeScratch(dir),
  };
  for (const d of [run.proj, run.home, run.tmp, run.codexHome, run.copilotHome, run.logs]) {
    mkdirSync(d, { recursive: true });
  }
  // The project is marked as one, so that a stray `.git` or `.toolgate` in a folder above the
  // scratch directory (an agent's sandbox may leave an empty `/tmp/.git`) cannot make that
  // folder the project the hook reads grants for.
  mkdirSync(join(run.proj, ".toolgate"));
  return run;
}

/** The environment every agent process gets: nothing from the outer HOME or temp dir. */
export function baseEnv(run) {
  return {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: run.home,
    TMPDIR: run.tmp,
    TMP: run.tmp,
    TEMP: run.tmp,
    CODEX_HOME: run.codexHome,
    COPILOT_HOME: run.copilotHome,
    XDG_CONFIG_HOME: join(run.home, ".config"),
    XDG_CACHE_HOME: join(run.home, ".cache"),
    XDG_DATA_HOME: join(run.home, ".local", "share"),
    XDG_STATE_HOME: join(run.home, ".local", "state"),
    NO_COLOR: "1",
    CI: "1",
  };
}

const live = new Set();

/** Kills every process group still running (the tests call it in `after`). */
export function killAll() {
  for (const pid of live) killGroup(pid);
  live.clear();
}

function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * Runs `command args` in its own process group with a deadline, feeding `input` on stdin.
 * Resolves (never rejects) to {code, signal, stdout, stderr, ms, timedOut}. When the main
 * process ends, whatever it left in its group is killed too. With `interact(child)` instead of
 * `input`, the caller talks to the process over its stdin and stdout and ends stdin itself.
 */
export function runProcess(command, args, { cwd, env, input = "", timeoutMs = 60_000, interact } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    live.add(child.pid);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.stdin.on("error", () => {});
    if (interact) interact(child);
    else child.stdin.end(input);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    const finish = (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid);
      live.delete(child.pid);
      resolve({ code, signal, stdout, stderr, ms: Math.round(performance.now() - started), timedOut });
    };
    child.on("error", (e) => {
      stderr += `spawn failed: ${e.message}\n`;
      finish(null, null);
    });
    child.on("close", finish);
  });
}

/** Writes `value` as JSON at `path`, creating the directories. */
export function writeJson(path, value) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads the JSON at `path`, or `fallback` when the file does not exist. */
export function readJson(path, fallback = {}) {
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : fallback;
}

/** Parses every JSON line of `text`, skipping what is not JSON. */
export function jsonLines(text) {
  return text
    .split("\n")
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return null;
      }
    })
    .filter(Boolean);
}
