// `npm run bench`: toolgate's wasm engine against a hand-rolled picomatch loop and Cedar's
// wasm package on the same generated policies and requests, then the approval round trip in
// Node and Chromium. Prints one table per part. Needs the built package (`npm run build`).
//
// BENCH_SIZES=10,100 (rule counts), BENCH_REQUESTS=200 (per form), BENCH_BUDGET_MS=700 (per
// cell), BENCH_SKIP=cedar,chromium (parts to leave out).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

import { approvalBench } from "./approvals.mjs";
import { cedar, picomatchLoop, toolgate } from "./engines.mjs";
import { FORMS, policy, requests } from "./generate.mjs";
import { measure, timerOverhead } from "./measure.mjs";

const ROOT = new URL("../", import.meta.url);
const PKG = new URL("pkg/", ROOT);
const require = createRequire(import.meta.url);
const env = (name, fallback) => process.env[name] ?? fallback;
const SIZES = env("BENCH_SIZES", "10,100,1000,10000").split(",").map(Number);
const PER_FORM = Number(env("BENCH_REQUESTS", "200"));
const BUDGET = Number(env("BENCH_BUDGET_MS", "700"));
const SKIP = new Set(env("BENCH_SKIP", "").split(",").filter(Boolean));

if (!existsSync(new URL("node/index.mjs", PKG))) {
  console.error("error: no built package in pkg/\n  run: npm run build");
  process.exit(1);
}

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`);
const ratio = (x, base) => `${(x / base).toFixed(x / base < 1 ? 2 : 1)}×`;
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;

function gzipSize(files) {
  return files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
}

/** Median of `runs` fresh processes' time to import (and instantiate) a module. */
function initTime(code, runs = 5) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], {
      cwd: fileURLToPath(ROOT),
      encoding: "utf8",
    });
    times.push(Number(out.trim()));
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

function packages() {
  const dir = (rel) => fileURLToPath(new URL(rel, ROOT));
  const files = (rel, test) =>
    readdirSync(dir(rel))
      .filter(test)
      .map((f) => `${dir(rel)}/${f}`);
  const toolgateFiles = files("pkg/node/", (f) => /\.(c?js|mjs|wasm)$/.test(f));
  const cedarFiles = files("node_modules/@cedar-policy/cedar-wasm/nodejs/", (f) => /\.(js|wasm)$/.test(f));
  const picoFiles = [
    ...files("node_modules/picomatch/", (f) => f.endsWith(".js")),
    ...files("node_modules/picomatch/lib/", (f) => f.endsWith(".js")),
  ];
  const wasmOnly = (fs) => gzipSize(fs.filter((f) => f.endsWith(".wasm")));
  const timed = (expr) =>
    `const t0 = performance.now(); ${expr}; console.log(performance.now() - t0);`;
  return [
    {
      name: "toolgate",
      gzip: gzipSize(toolgateFiles),
      wasm: wasmOnly(toolgateFiles),
      init: initTime(timed(`const m = await import("./pkg/node/index.mjs"); new m.PolicyEngine({})`)),
    },
    {
      name: "picomatch loop",
      gzip: gzipSize(picoFiles),
      wasm: 0,
      init: initTime(timed(`const m = await import("picomatch"); m.default("a/**")("a/b")`)),
    },
    {
      name: "cedar",
      gzip: gzipSize(cedarFiles),
      wasm: wasmOnly(cedarFiles),
      init: initTime(
        timed(
          `const { createRequire } = await import("node:module"); createRequire(process.cwd() + "/")("@cedar-policy/cedar-wasm/nodejs").getCedarVersion()`,
        ),
      ),
    },
  ];
}

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

async function decisions() {
  const api = await import(new URL("node/index.mjs", PKG));
  const engines = [toolgate(api), picomatchLoop(), ...(SKIP.has("cedar") ? [] : [cedar()])];
  console.log(`\nNode ${process.version}, timer overhead ${fmt(timerOverhead())} per call (included)`);
  console.log(`${PER_FORM} requests per form, half matching a rule; per-decision median / p99\n`);
  const rows = [];
  const loads = [];
  for (const n of SIZES) {
    const p = policy(n);
    const deciders = engines.map((e) => {
      const t0 = performance.now();
      const decide = e.load(p);
      loads.push([e.name, n, performance.now() - t0]);
      return decide;
    });
    for (const form of [...FORMS, "mix"]) {
      const reqs = requests(n, form, PER_FORM);
      const base = deciders[0];
      const agree = deciders.map((d) => reqs.filter((r) => d(r) === base(r)).length / reqs.length);
      const m = deciders.map((d) => measure(d, reqs, { budgetMs: BUDGET }));
      const cells = m.flatMap((x, i) =>
        i === 0
          ? [`${fmt(x.median)} / ${fmt(x.p99)}`]
          : [`${fmt(x.median)} / ${fmt(x.p99)}`, ratio(x.median, m[0].median), `${(agree[i] * 100).toFixed(0)}%`],
      );
      rows.push([n, form, ...cells]);
      process.stderr.write(".");
    }
  }
  process.stderr.write("\n");
  const headers = ["rules", "requests", "toolgate"];
  for (const e of engines.slice(1)) headers.push(e.name, "× toolgate", "agrees");
  table(headers, rows);
  console.log("\nPolicy load (construct the engine from the document):\n");
  table(
    ["engine", ...SIZES.map(String)],
    engines.map((e) => [
      e.name,
      ...SIZES.map((n) => {
        const l = loads.find(([name, size]) => name === e.name && size === n);
        return l ? `${l[2].toFixed(1)} ms` : "";
      }),
    ]),
  );
}

async function approvalsInChromium() {
  const { launchChromium } = await import("../tests/browser/chromium.mjs");
  const { serveRoot } = await import("../tests/differential/serve.mjs");
  const server = await serveRoot();
  const browser = await launchChromium(["--enable-precise-memory-info"]);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}blank.html`);
    return await page.evaluate(
      async ({ source }) => {
        const api = await import("/pkg/web/toolgate.js");
        const t0 = performance.now();
        await api.default();
        const init = performance.now() - t0;
        const bench = new Function(`return (${source})`)();
        return { init, ...(await bench(api)) };
      },
      { source: approvalBench.toString() },
    );
  } finally {
    await browser.close();
    server.close();
  }
}

async function approvals() {
  const api = await import(new URL("node/index.mjs", PKG));
  const rows = [];
  const show = (where, r) =>
    rows.push([
      where,
      `${(r.roundTrip.medianMs * 1000).toFixed(1)} µs / ${(r.roundTrip.p99Ms * 1000).toFixed(1)} µs`,
      `${r.pending.createMs.toFixed(0)} ms`,
      `${r.pending.settleMs.toFixed(0)} ms`,
      Number.isNaN(r.pending.memoryBytes) ? "n/a" : `${(r.pending.memoryBytes / 1048576).toFixed(1)} MB`,
    ]);
  show("Node", await approvalBench(api));
  if (!SKIP.has("chromium")) {
    const c = await approvalsInChromium();
    show(`Chromium (init ${c.init.toFixed(1)} ms)`, c);
  }
  console.log("\nApprovals: round trip median / p99; 10,000 concurrent pending (memory: Node JS heap + external incl. wasm memory; Chromium JS heap)\n");
  table(["host", "round trip", "create 10,000", "approveAll 10,000", "memory"], rows);
}

const parts = SKIP.has("decisions") ? [] : [decisions];
if (!SKIP.has("approvals")) parts.push(approvals);
for (const part of parts) await part();

console.log("\nPackage size (gzip -9 of each file, summed) and init (fresh process, import + instantiate, median of 5):\n");
table(
  ["engine", "JS + wasm gzipped", "wasm gzipped", "init"],
  packages().map((p) => [p.name, kb(p.gzip), p.wasm ? kb(p.wasm) : "-", `${p.init.toFixed(1)} ms`]),
);
