// `npm run bench`: toolgate's wasm engine against a hand-rolled picomatch loop and Cedar's
// wasm package on the same generated policies and requests, then the approval round trip in
// Node and Chromium, package size and init. Needs the built package (`npm run build`).
//
// Every cell (one engine, one policy size, one request form) runs in its own Node process
// (bench/cell.mjs): engines never share a V8, and a cell that crashes is reported (which
// cell, exit code or signal, the end of its stderr) while the others go on. Each cell prints
// a line as it ends; the tables follow, and the run writes every figure to
// target/bench/results.json (BENCH_OUT=path for another file). Exits 1 if any cell failed.
//
// BENCH_SIZES=10,100 (rule counts), BENCH_REQUESTS=200 (per form), BENCH_BUDGET_MS=700 (per
// cell), BENCH_ROUNDS=3 (rounds per cell, their medians give the range), BENCH_SKIP=
// cedar,picomatch,chromium,approvals,decisions,init (parts to leave out).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import { FORMS } from "./generate.mjs";
import { coreFiles } from "./size.mjs";
import { initBreakdown, printInit } from "./init.mjs";
import { timerOverhead } from "./measure.mjs";

const ROOT = new URL("../", import.meta.url);
const ROOT_DIR = fileURLToPath(ROOT);
const env = (name, fallback) => process.env[name] ?? fallback;
const SIZES = env("BENCH_SIZES", "10,100,1000,10000").split(",").map(Number);
const PER_FORM = Number(env("BENCH_REQUESTS", "200"));
const BUDGET = Number(env("BENCH_BUDGET_MS", "700"));
const ROUNDS = Number(env("BENCH_ROUNDS", "3"));
const SKIP = new Set(env("BENCH_SKIP", "").split(",").filter(Boolean));
const OUT = env("BENCH_OUT", `${ROOT_DIR}target/bench/results.json`);
const CELL_TIMEOUT_MS = Number(env("BENCH_CELL_TIMEOUT_MS", "600000"));

if (!existsSync(new URL("pkg/node/index.mjs", ROOT))) {
  console.error("error: no built package in pkg/\n  run: npm run build");
  process.exit(1);
}
for (const n of SIZES) {
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`error: BENCH_SIZES holds \`${n}\`; expected positive rule counts such as 10,100`);
    process.exit(1);
  }
}

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`);
const ratio = (x, base) => `${(x / base).toFixed(x / base < 1 ? 2 : 1)}×`;
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const load = () => loadavg().map((x) => Number(x.toFixed(2)));

const results = {
  meta: {
    node: process.version,
    cpus: cpus().length,
    startedAt: new Date().toISOString(),
    loadAverageAtStart: load(),
    timerOverheadUs: timerOverhead(),
    options: { sizes: SIZES, perForm: PER_FORM, budgetMs: BUDGET, rounds: ROUNDS, skip: [...SKIP] },
  },
  cells: [],
  failures: [],
};

/** Runs `node args` to completion; its one JSON line, or a failure record. */
function child(what, args) {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, {
    cwd: ROOT_DIR,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: CELL_TIMEOUT_MS,
  });
  const ms = performance.now() - started;
  const last = (r.stdout ?? "").trim().split("\n").at(-1) ?? "";
  if (r.status === 0 && !r.error) {
    try {
      return { ok: true, value: JSON.parse(last), ms };
    } catch {
      // fall through: reported as a failure below
    }
  }
  const failure = {
    ...what,
    exitCode: r.status,
    signal: r.signal,
    error: r.error ? String(r.error.message ?? r.error) : undefined,
    stderrTail: (r.stderr ?? "").trim().split("\n").slice(-15).join("\n"),
    stdoutTail: (r.stdout ?? "").trim().slice(-500),
  };
  results.failures.push(failure);
  return { ok: false, failure, ms };
}

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

function decisions() {
  const engines = ["toolgate"];
  if (!SKIP.has("picomatch")) engines.push("picomatch loop");
  if (!SKIP.has("cedar")) engines.push("cedar");
  console.log(`\nNode ${process.version}, ${cpus().length} CPUs, load average ${load().join(" ")}`);
  console.log(`timer overhead ${fmt(results.meta.timerOverheadUs)} per call (included)`);
  console.log(`${PER_FORM} requests per form, half matching a rule; each cell in its own process\n`);
  const cells = new Map();
  for (const n of SIZES) {
    for (const form of [...FORMS, "mix"]) {
      for (const engine of engines) {
        const spec = { engine, rules: n, form, perForm: PER_FORM, budgetMs: BUDGET, rounds: ROUNDS };
        const r = child({ cell: `${engine}/${n}/${form}` }, ["--expose-gc", fileURLToPath(new URL("cell.mjs", import.meta.url)), JSON.stringify(spec)]);
        if (r.ok) {
          const c = r.value;
          cells.set(`${engine}/${n}/${form}`, c);
          const range = `${fmt(Math.min(...c.roundMediansUs))}–${fmt(Math.max(...c.roundMediansUs))}`;
          console.log(
            `  ${engine.padEnd(14)} ${String(n).padStart(6)} ${form.padEnd(5)} median ${fmt(c.medianUs)} (rounds ${range}) p99 ${fmt(c.p99Us)} CPU ${fmt(c.cpuMeanUs)} load ${c.loadMs.toFixed(1)} ms`,
          );
        } else {
          const f = r.failure;
          console.log(
            `  ${engine.padEnd(14)} ${String(n).padStart(6)} ${form.padEnd(5)} FAILED: ${f.signal ? `signal ${f.signal}` : `exit ${f.exitCode}`}${f.error ? ` (${f.error})` : ""}\n${f.stderrTail.replace(/^/gm, "      | ")}`,
          );
        }
      }
    }
  }
  // Agreement with toolgate's effects, then the table.
  const rows = [];
  for (const n of SIZES) {
    for (const form of [...FORMS, "mix"]) {
      const base = cells.get(`toolgate/${n}/${form}`);
      const row = [n, form, base ? `${fmt(base.medianUs)} / ${fmt(base.p99Us)}` : "failed"];
      for (const engine of engines) {
        const c = cells.get(`${engine}/${n}/${form}`);
        const record = { engine, rules: n, form, ok: Boolean(c) };
        if (c) {
          const { effects, ...figures } = c;
          Object.assign(record, figures);
          if (base && engine !== "toolgate") {
            record.agrees = effects.filter((e, i) => e === base.effects[i]).length / effects.length;
            record.timesToolgate = c.medianUs / base.medianUs;
          }
        }
        results.cells.push(record);
        if (engine === "toolgate") continue;
        if (!c) row.push("failed", "", "");
        else
          row.push(
            `${fmt(c.medianUs)} / ${fmt(c.p99Us)}`,
            base ? ratio(c.medianUs, base.medianUs) : "",
            base ? `${(record.agrees * 100).toFixed(0)}%` : "",
          );
      }
      rows.push(row);
    }
  }
  console.log("\nMedian / p99 per decision; \"× toolgate\" is the other engine's median over toolgate's\n");
  const headers = ["rules", "requests", "toolgate"];
  for (const e of engines.slice(1)) headers.push(e, "× toolgate", "agrees");
  table(headers, rows);
  console.log("\nRange of the round medians, and mean CPU time per decision:\n");
  table(
    ["rules", "requests", ...engines.flatMap((e) => [`${e} range`, `${e} CPU`])],
    SIZES.flatMap((n) =>
      [...FORMS, "mix"].map((form) => [
        n,
        form,
        ...engines.flatMap((e) => {
          const c = cells.get(`${e}/${n}/${form}`);
          return c
            ? [`${fmt(Math.min(...c.roundMediansUs))}–${fmt(Math.max(...c.roundMediansUs))}`, fmt(c.cpuMeanUs)]
            : ["failed", ""];
        }),
      ]),
    ),
  );
  console.log("\nPolicy load (construct the engine from the document; median over the forms' processes):\n");
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  table(
    ["engine", ...SIZES.map(String)],
    engines.map((e) => [
      e,
      ...SIZES.map((n) => {
        const ls = [...FORMS, "mix"].map((f) => cells.get(`${e}/${n}/${f}`)?.loadMs).filter((x) => x !== undefined);
        return ls.length ? `${med(ls).toFixed(1)} ms` : "failed";
      }),
    ]),
  );
}

function approvals() {
  const args = [fileURLToPath(new URL("approvals-cell.mjs", import.meta.url))];
  if (SKIP.has("chromium")) args.push("--no-chromium");
  const r = child({ cell: "approvals" }, ["--expose-gc", ...args]);
  if (!r.ok) {
    const f = r.failure;
    console.log(`\nApprovals FAILED: ${f.signal ? `signal ${f.signal}` : `exit ${f.exitCode}`}\n${f.stderrTail}`);
    return;
  }
  results.approvals = r.value;
  const rows = [];
  const show = (where, a) =>
    rows.push([
      where,
      `${(a.roundTrip.medianMs * 1000).toFixed(1)} µs / ${(a.roundTrip.p99Ms * 1000).toFixed(1)} µs`,
      `${a.pending.createMs.toFixed(0)} ms`,
      `${a.pending.settleMs.toFixed(0)} ms`,
      a.pending.memoryBytes === null || Number.isNaN(a.pending.memoryBytes)
        ? "n/a"
        : `${(a.pending.memoryBytes / 1048576).toFixed(1)} MB`,
    ]);
  show("Node", r.value.node);
  if (r.value.chromium) show(`Chromium (init ${r.value.chromium.init.toFixed(1)} ms)`, r.value.chromium);
  console.log("\nApprovals: round trip median / p99; 10,000 concurrent pending (memory: Node JS heap + external incl. wasm memory; Chromium JS heap)\n");
  table(["host", "round trip", "create 10,000", "approveAll 10,000", "memory"], rows);
}

function gzipSize(files) {
  return files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
}

/** Median of `runs` fresh processes' time to import (and instantiate) a module. */
function initTime(name, code, runs = 5) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const r = child({ cell: `init/${name}` }, ["--input-type=module", "-e", code]);
    if (r.ok) times.push(Number(r.value));
  }
  times.sort((a, b) => a - b);
  return times.length ? { median: times[times.length >> 1], range: [times[0], times.at(-1)] } : null;
}

function packages() {
  const dir = (rel) => fileURLToPath(new URL(rel, ROOT));
  const files = (rel, test) =>
    readdirSync(dir(rel))
      .filter(test)
      .map((f) => `${dir(rel)}/${f}`);
  // What a browser host that uses the core loads (bench/size.mjs defines it).
  const toolgateFiles = coreFiles();
  const cedarFiles = files("node_modules/@cedar-policy/cedar-wasm/nodejs/", (f) => /\.(js|wasm)$/.test(f));
  const picoFiles = [
    ...files("node_modules/picomatch/", (f) => f.endsWith(".js")),
    ...files("node_modules/picomatch/lib/", (f) => f.endsWith(".js")),
  ];
  const wasmOnly = (fs) => gzipSize(fs.filter((f) => f.endsWith(".wasm")));
  const timed = (expr) => `const t0 = performance.now(); ${expr}; console.log(performance.now() - t0);`;
  const rows = [
    {
      name: "toolgate",
      gzip: gzipSize(toolgateFiles),
      wasm: wasmOnly(toolgateFiles),
      init: initTime("toolgate", timed(`const m = await import("./pkg/node/index.mjs"); new m.Policy({})`)),
    },
    {
      name: "picomatch loop",
      gzip: gzipSize(picoFiles),
      wasm: 0,
      init: initTime("picomatch", timed(`const m = await import("picomatch"); m.default("a/**")("a/b")`)),
    },
  ];
  if (!SKIP.has("cedar")) {
    rows.push({
      name: "cedar",
      gzip: gzipSize(cedarFiles),
      wasm: wasmOnly(cedarFiles),
      init: initTime(
        "cedar",
        timed(
          `const { createRequire } = await import("node:module"); createRequire(process.cwd() + "/")("@cedar-policy/cedar-wasm/nodejs").getCedarVersion()`,
        ),
      ),
    });
  }
  results.packages = rows;
  console.log("\nPackage size (gzip -9 of each file, summed) and init (fresh process, import + instantiate, median of 5):\n");
  const ms = (i) => (i ? `${i.median.toFixed(1)} ms (${i.range[0].toFixed(1)}–${i.range[1].toFixed(1)})` : "failed");
  table(
    ["engine", "JS + wasm gzipped", "wasm gzipped", "init"],
    rows.map((p) => [p.name, kb(p.gzip), p.wasm ? kb(p.wasm) : "-", ms(p.init)]),
  );
}

function init() {
  console.log("\nInit of the Node entry, step by step (fresh processes; bench/init.mjs):\n");
  try {
    results.init = initBreakdown();
    printInit(results.init);
  } catch (e) {
    results.failures.push({ cell: "init", error: String(e.message ?? e) });
    console.log(`init FAILED: ${e.message ?? e}`);
  }
}

if (!SKIP.has("decisions")) decisions();
if (!SKIP.has("approvals")) approvals();
packages();
if (!SKIP.has("init")) init();

results.meta.endedAt = new Date().toISOString();
results.meta.loadAverageAtEnd = load();
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nload average ${results.meta.loadAverageAtStart.join(" ")} at the start, ${load().join(" ")} at the end`);
console.log(`figures written to ${OUT}`);
if (results.failures.length) {
  console.log(`\n${results.failures.length} part(s) failed:`);
  for (const f of results.failures) {
    console.log(`  ${f.cell}: ${f.signal ? `signal ${f.signal}` : f.exitCode !== undefined ? `exit ${f.exitCode}` : f.error}`);
  }
  process.exitCode = 1;
}
