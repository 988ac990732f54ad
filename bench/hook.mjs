// `node bench/hook.mjs`: the wall time of one `toolgate hook` process, as an agent pays it
// before every tool call: the npm bin (Node start, wasm load, policy compile, decision) and
// the native binary, with generated policies of 10, 100 and 1,000 rules, beside a bare
// `node -e 0` (Node's own start, which no JS can save). Prints the median and the 90th
// percentile of HOOK_RUNS runs (default 21) per cell.
//
// Needs the built package (`npm run build`) and target/debug/toolgate or TOOLGATE_BIN
// (a release build: `cargo build --release --bin toolgate`, then TOOLGATE_BIN=target/release/toolgate).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { policy } from "./generate.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const NPM_BIN = join(ROOT, "pkg", "bin", "toolgate.mjs");
const NATIVE = process.env.TOOLGATE_BIN ?? join(ROOT, "target", "debug", "toolgate");
const RUNS = Number(process.env.HOOK_RUNS ?? 21);
const SIZES = (process.env.HOOK_SIZES ?? "10,100,1000").split(",").map(Number);

for (const [what, path] of [["the built package", NPM_BIN], ["the native binary", NATIVE]]) {
  if (!existsSync(path)) {
    console.error(`error: ${what} is missing (${path})\n  run: npm run build; cargo build --bin toolgate`);
    process.exit(1);
  }
}

const dir = mkdtempSync(join(tmpdir(), "toolgate-hook-bench-"));
const proj = join(dir, "proj");
mkdirSync(join(proj, ".git"), { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: join(dir, "home"),
  XDG_STATE_HOME: join(dir, "state"),
  XDG_CONFIG_HOME: join(dir, "config"),
  TOOLGATE_MANAGED_POLICY: join(dir, "managed.json"),
  TOOLGATE_AUDIT_LOG: join(dir, "audit.jsonl"),
};
const payload = JSON.stringify({
  session_id: "bench",
  cwd: proj,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "git status && npm run test -- --ci" },
});

/** Runs every command of `cells` RUNS times, interleaved so that load drifts hit all alike. */
function time(cells) {
  const samples = cells.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    cells.forEach(([command, args], c) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(command, args, { env, input: payload, encoding: "utf8" });
      samples[c].push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 0 && r.status !== 2) throw new Error(`${command} exited ${r.status}: ${r.stderr}`);
    });
  }
  return samples.map((s) => {
    s.sort((a, b) => a - b);
    const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
    return { median: at(0.5), p90: at(0.9) };
  });
}

const cell = (r) => `${r.median.toFixed(1)} / ${r.p90.toFixed(1)}`;
console.log(`toolgate hook, one process per call, ${RUNS} runs per cell (ms: median / p90)`);
console.log(`${"rules".padStart(6)}  ${"npm bin".padEnd(16)}  ${"node -e 0".padEnd(16)}  ${"npm bin - node".padEnd(16)}  native`);
try {
  for (const n of SIZES) {
    const file = join(dir, `policy-${n}.json`);
    writeFileSync(file, JSON.stringify(policy(n).doc));
    const args = ["hook", "--agent", "claude", "--policy", file];
    const [npm, node, native] = time([
      [process.execPath, [NPM_BIN, ...args]],
      [process.execPath, ["-e", "0"]],
      [NATIVE, args],
    ]);
    const extra = { median: npm.median - node.median, p90: npm.p90 - node.p90 };
    console.log(
      `${String(n).padStart(6)}  ${cell(npm).padEnd(16)}  ${cell(node).padEnd(16)}  ${cell(extra).padEnd(16)}  ${cell(native)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
