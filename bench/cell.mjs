// One cell of `npm run bench`, run in its own Node process by bench/run.mjs: one engine, one
// policy size, one request form. Engines never share a process: V8 (Node 20 and 22) can crash
// when it deoptimizes an inlined call into Cedar's wasm that returns an `externref`, and a
// crash must cost one cell, not the run.
//
// Usage: node --expose-gc bench/cell.mjs '{"engine":"toolgate","rules":1000,"form":"mix",
//   "perForm":200,"budgetMs":700,"rounds":3}'
// Prints one line of JSON on stdout: the cell's figures (µs) and every request's effect, so
// that the parent can compare engines' answers.
import { FORMS, policy, requests } from "./generate.mjs";
import { cedar, picomatchLoop, toolgate } from "./engines.mjs";
import { cpuPerCall, measure } from "./measure.mjs";

const spec = JSON.parse(process.argv[2] ?? "{}");
const { engine: name, rules: n, form, perForm = 200, budgetMs = 700, rounds = 3 } = spec;
if (![...FORMS, "mix"].includes(form)) {
  console.error(`error: unknown request form \`${form}\`; expected one of ${[...FORMS, "mix"].join(", ")}`);
  process.exit(2);
}

async function engineNamed(engineName) {
  switch (engineName) {
    case "toolgate":
      return toolgate(await import(new URL("../pkg/node/index.mjs", import.meta.url)));
    case "picomatch loop":
      return picomatchLoop();
    case "cedar":
      return cedar();
    default:
      console.error(`error: unknown engine \`${engineName}\`; expected toolgate, picomatch loop or cedar`);
      process.exit(2);
  }
}

const engine = await engineNamed(name);
const p = policy(n);
const t0 = performance.now();
const decide = engine.load(p);
const loadMs = performance.now() - t0;
const reqs = requests(n, form, perForm);
const effects = reqs.map((r) => decide(r));

// A test hook: BENCH_FAULT="engine/rules/form" aborts that cell, to check that a crash is
// reported and the rest of the run kept.
if (process.env.BENCH_FAULT === `${name}/${n}/${form}`) process.abort();

// Several rounds, each with its share of the budget: the spread of their medians is the
// cell's range; the pooled samples give the median and p99.
const roundMedians = [];
const pooled = [];
for (let round = 0; round < rounds; round++) {
  const m = measure(decide, reqs, { budgetMs: budgetMs / rounds, keep: pooled });
  roundMedians.push(m.median);
}
pooled.sort((a, b) => a - b);
const at = (q) => pooled[Math.min(pooled.length - 1, Math.floor(q * pooled.length))] / 1000;
const cpu = cpuPerCall(decide, reqs, { budgetMs: Math.max(50, budgetMs / 4) });

process.stdout.write(
  `${JSON.stringify({
    engine: name,
    rules: n,
    form,
    loadMs,
    samples: pooled.length,
    medianUs: at(0.5),
    p99Us: at(0.99),
    roundMediansUs: roundMedians,
    cpuMeanUs: cpu,
    effects,
  })}\n`,
);
