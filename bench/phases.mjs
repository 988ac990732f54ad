// `node bench/phases.mjs`: where the time of one `Policy.evaluate` goes in Node, at
// 10 and 1,000 rules (BENCH_SIZES=10000 for another size), form by form: the public call, the raw
// wasm call alone (decode, evaluate, encode), `JSON.stringify` of the request, `JSON.parse` of
// a decision's text, and an empty crossing (`version()`). Each figure is the smallest median of
// several interleaved rounds, so that other work on a shared machine disturbs it less; the
// last column is the public call's mean CPU time per call, which other processes disturb less
// than the wall clock.
// BENCH_PKG=/path/to/pkg measures another build of the package (to compare two builds).
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

import { FORMS, policy, requests } from "./generate.mjs";

const require = createRequire(import.meta.url);
const PKG = process.env.BENCH_PKG ? pathToFileURL(`${process.env.BENCH_PKG}/`) : new URL("../pkg/", import.meta.url);
const api = await import(new URL("node/index.mjs", PKG));
const raw = require(new URL("node/toolgate_bindgen.cjs", PKG).pathname);
const SIZES = (process.env.BENCH_SIZES ?? "10,1000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "7");

/** Median ns per call of `f` over `items`, looping `reps` times. */
function median(f, items, reps = 20) {
  const times = [];
  for (let rep = 0; rep < reps; rep++) {
    for (const x of items) {
      const t0 = process.hrtime.bigint();
      f(x);
      times.push(Number(process.hrtime.bigint() - t0));
    }
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;

/** Mean CPU time (ns) of this process per call of `f`: less disturbed than the wall clock
 * when other processes share the cores. */
function cpuPerCall(f, items, reps = 20) {
  const before = process.cpuUsage();
  for (let rep = 0; rep < reps; rep++) for (const x of items) f(x);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / (reps * items.length);
}

for (const n of SIZES) {
  const p = policy(n);
  const engine = new api.Policy(p.doc);
  const rawEngine = new raw.RawPolicy(JSON.stringify(p.doc));
  const rows = [];
  for (const form of [...FORMS, "mix"]) {
    const reqs = requests(n, form, 200).map((r) => r.req);
    const texts = reqs.map((r) => JSON.stringify(r));
    const decisionTexts = reqs.map((r) => JSON.stringify(engine.evaluate(r)));
    const steps = {
      public: (r) => engine.evaluate(r),
      raw: (t) => rawEngine.evaluate(t),
      stringify: (r) => JSON.stringify(r),
      parse: (t) => JSON.parse(t),
      crossing: () => raw.version(),
    };
    const inputs = { public: reqs, raw: texts, stringify: reqs, parse: decisionTexts, crossing: reqs };
    const best = Object.fromEntries(Object.keys(steps).map((k) => [k, Infinity]));
    let cpu = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      for (const k of Object.keys(steps)) best[k] = Math.min(best[k], median(steps[k], inputs[k]));
      cpu = Math.min(cpu, cpuPerCall(steps.public, reqs));
    }
    // The JS side of a call: the public call less the raw wasm call (the wrapper, the
    // request's JSON text, the crossing, and parsing the decision back).
    rows.push([n, form, ...Object.values(best).map(us), us(best.public - best.raw), us(cpu)]);
  }
  console.log(
    "| rules | requests | public call | raw wasm call | JSON.stringify | JSON.parse | empty crossing | JS side (public − raw) | public call, CPU mean |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
}
