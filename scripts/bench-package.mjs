// Size and speed of the built package (pkg/) in Node: gzipped wasm and JS, init time (web
// build compiled and instantiated from bytes; Node entry imported in a fresh process), policy
// compile time, and evaluate time at 10, 1,000 and 10,000 rules.
//
// usage: node scripts/bench-package.mjs [--json]

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";

const PKG = new URL("../pkg/", import.meta.url);
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

function sizes() {
  const wasm = readFileSync(new URL("web/toolgate_bg.wasm", PKG));
  const js = readdirSync(new URL("web/", PKG))
    .filter((f) => f.endsWith(".js"))
    .map((f) => readFileSync(new URL(`web/${f}`, PKG)));
  return {
    wasmRaw: wasm.length,
    wasmGzip: gz(wasm),
    jsRaw: js.reduce((s, b) => s + b.length, 0),
    jsGzip: js.reduce((s, b) => s + gz(b), 0),
  };
}

async function initTimes() {
  const bytes = readFileSync(new URL("web/toolgate_bg.wasm", PKG));
  const web = await import(new URL("web/toolgate.js", PKG));
  const t0 = performance.now();
  web.initSync(bytes);
  const webInitMs = performance.now() - t0;
  const script = `const t = performance.now(); require(${JSON.stringify(new URL("node/toolgate.cjs", PKG).pathname)}); console.log(performance.now() - t);`;
  const nodeImportMs = Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
  return { webInitMs, nodeImportMs, web };
}

/** A policy of `n` rules: command, path and URL rules in the three lists. */
function policyOf(n) {
  const allow = [];
  const ask = [];
  const deny = [];
  for (let i = 0; i < n; i++) {
    const list = i % 10 === 0 ? deny : i % 10 === 1 ? ask : allow;
    switch (i % 4) {
      case 0: list.push(`Bash(tool${i} run *)`); break;
      case 1: list.push(`Edit(/src/mod${i}/**)`); break;
      case 2: list.push(`Read(/data/file${i}.txt)`); break;
      default: list.push(`WebFetch(domain:host${i}.example.com)`);
    }
  }
  return { permissions: { allow, ask, deny } };
}

const REQUESTS = [
  { tool: "Bash", input: { command: "npm test && git status" }, cwd: "/p" },
  { tool: "Bash", input: { command: "tool7 run --fast" }, cwd: "/p" },
  { tool: "Edit", input: { file_path: "/src/mod5/a.rs", old_string: "a", new_string: "b" }, cwd: "/p" },
  { tool: "Read", input: { file_path: "/data/file6.txt" }, cwd: "/p" },
  { tool: "WebFetch", input: { url: "https://host3.example.com/x" }, cwd: "/p" },
];

function evaluateBench(api, n) {
  const t0 = performance.now();
  const engine = new api.Policy(policyOf(n));
  const compileMs = performance.now() - t0;
  for (let i = 0; i < 200; i++) engine.evaluate(REQUESTS[i % REQUESTS.length]);
  const iterations = n >= 10_000 ? 2_000 : 5_000;
  const t1 = performance.now();
  for (let i = 0; i < iterations; i++) engine.evaluate(REQUESTS[i % REQUESTS.length]);
  const perCallUs = ((performance.now() - t1) * 1000) / iterations;
  return { rules: n, compileMs, evaluateUs: perCallUs };
}

const s = sizes();
const { webInitMs, nodeImportMs, web } = await initTimes();
const evaluations = [10, 1_000, 10_000].map((n) => evaluateBench(web, n));
const report = { ...s, webInitMs, nodeImportMs, evaluations, node: process.version };
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(`wasm          ${kib(s.wasmRaw)} raw, ${kib(s.wasmGzip)} gzipped`);
  console.log(`JS (web/)     ${kib(s.jsRaw)} raw, ${kib(s.jsGzip)} gzipped`);
  console.log(`init          web initSync ${webInitMs.toFixed(1)} ms; Node require ${nodeImportMs.toFixed(1)} ms (fresh process)`);
  for (const e of evaluations) {
    console.log(`${String(e.rules).padStart(6)} rules  compile ${e.compileMs.toFixed(1).padStart(7)} ms, evaluate ${e.evaluateUs.toFixed(1).padStart(7)} µs/call`);
  }
}
