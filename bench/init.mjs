// Where the init of the Node entry goes: each probe is a fresh `node` process that imports
// `pkg/node/index.mjs` and builds a first `Policy`, with `WebAssembly.Module`,
// `WebAssembly.Instance` and the read of the `.wasm` file wrapped to time them inside the
// real import. Variants: V8 flags (lazy validation, eager compilation) and the ways to
// compile the same bytes (synchronous `Module`, `WebAssembly.compile`, `compileStreaming`).
//
// `node bench/init.mjs` prints the table (median of BENCH_INIT_RUNS=7 fresh processes per
// variant, wall and CPU); bench/run.mjs calls `initBreakdown()` for its JSON.
// `node bench/init.mjs --chromium` times the same steps in headless Chromium (`chromiumInit()`).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const WASM = `${ROOT}pkg/web/toolgate_bg.wasm`;

/** Wall (ms) and CPU (ms) of `f`, which may be async. */
async function timed(f) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const cpu = process.cpuUsage(c0);
  return { value, wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 };
}

/** One probe, in this (fresh) process: prints its steps as JSON. */
async function probe(kind) {
  const steps = {};
  const add = (name, t) => {
    steps[name] ??= { wall: 0, cpu: 0 };
    steps[name].wall += t.wall;
    steps[name].cpu += t.cpu;
  };
  if (kind === "package") {
    // The real import, with its wasm steps timed from inside.
    const require = createRequire(import.meta.url);
    const fs = require("node:fs");
    const realRead = fs.readFileSync;
    fs.readFileSync = function (...args) {
      if (!String(args[0]).endsWith(".wasm")) return realRead.apply(this, args);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const bytes = realRead.apply(this, args);
      const cpu = process.cpuUsage(c0);
      add("read wasm", { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 });
      return bytes;
    };
    const wrap = (Real, step) =>
      new Proxy(Real, {
        construct(target, args) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          const made = Reflect.construct(target, args);
          const cpu = process.cpuUsage(c0);
          add(step, { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 });
          return made;
        },
      });
    WebAssembly.Module = wrap(WebAssembly.Module, "compile (new WebAssembly.Module)");
    WebAssembly.Instance = wrap(WebAssembly.Instance, "instantiate (new WebAssembly.Instance)");
    const imported = await timed(() => import(`${ROOT}pkg/node/index.mjs`));
    add("import, whole", imported);
    add("first Policy", await timed(() => new imported.value.Policy({})));
    add("second Policy", await timed(() => new imported.value.Policy({})));
  } else {
    // The same bytes compiled one way, no package around them.
    const bytes = readFileSync(WASM);
    const compile = {
      sync: () => new WebAssembly.Module(bytes),
      async: () => WebAssembly.compile(bytes),
      streaming: () =>
        WebAssembly.compileStreaming(new Response(bytes, { headers: { "content-type": "application/wasm" } })),
    }[kind];
    add(`compile (${kind})`, await timed(compile));
  }
  process.stdout.write(`${JSON.stringify({ sinceStartMs: performance.now(), steps })}\n`);
}

/** The variants measured: [label, node flags, probe kind]. */
export const VARIANTS = [
  ["package, as shipped", [], "package"],
  ["package, --wasm-lazy-validation", ["--wasm-lazy-validation"], "package"],
  ["package, --no-wasm-lazy-compilation (eager)", ["--no-wasm-lazy-compilation"], "package"],
  ["bytes only: new WebAssembly.Module", [], "sync"],
  ["bytes only: WebAssembly.compile", [], "async"],
  ["bytes only: WebAssembly.compileStreaming", [], "streaming"],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Runs every variant `runs` times in fresh processes; per variant and step: median and range. */
export function initBreakdown(runs = Number(process.env.BENCH_INIT_RUNS ?? "7")) {
  return VARIANTS.map(([label, flags, kind]) => {
    const probes = [];
    for (let i = 0; i < runs; i++) {
      const out = execFileSync(process.execPath, [...flags, HERE, "--probe", kind], { cwd: ROOT, encoding: "utf8" });
      probes.push(JSON.parse(out.trim().split("\n").at(-1)));
    }
    const steps = {};
    for (const name of Object.keys(probes[0].steps)) {
      const wall = probes.map((p) => p.steps[name].wall);
      const cpu = probes.map((p) => p.steps[name].cpu);
      steps[name] = {
        wallMs: median(wall),
        wallRangeMs: [Math.min(...wall), Math.max(...wall)],
        cpuMs: median(cpu),
      };
    }
    return { label, flags, kind, runs, steps, sinceStartMs: median(probes.map((p) => p.sinceStartMs)) };
  });
}

export function printInit(rows) {
  console.log("| variant | step | wall median (range) | CPU median |");
  console.log("|---|---|---|---|");
  for (const r of rows) {
    for (const [name, s] of Object.entries(r.steps)) {
      console.log(
        `| ${r.label} | ${name} | ${s.wallMs.toFixed(2)} ms (${s.wallRangeMs.map((x) => x.toFixed(1)).join("–")}) | ${s.cpuMs.toFixed(2)} ms |`,
      );
    }
  }
}

/**
 * The same steps in headless Chromium, each in a fresh page (median of `runs`): the module
 * import, `init()` as shipped (wasm-bindgen's loader: `instantiateStreaming` of a fetch),
 * then, from the same URL, `compileStreaming` alone and `instantiate` of the compiled module,
 * and the first and second `Policy`. The fetches hit the browser cache after the first
 * page, as a returning visitor's would.
 */
export async function chromiumInit(runs = Number(process.env.BENCH_INIT_RUNS ?? "7")) {
  const { launchChromium } = await import("../tests/browser/chromium.mjs");
  const { serveRoot } = await import("../tests/differential/serve.mjs");
  const server = await serveRoot();
  const browser = await launchChromium();
  const probes = [];
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      await page.goto(`${server.url}blank.html`);
      probes.push(
        await page.evaluate(async () => {
          const steps = {};
          const time = async (name, f) => {
            const t0 = performance.now();
            const value = await f();
            steps[name] = performance.now() - t0;
            return value;
          };
          const api = await time("import the module", () => import("/pkg/web/toolgate.js"));
          await time("init() as shipped", () => api.default());
          const wasm = "/pkg/web/toolgate_bg.wasm";
          const module = await time("compileStreaming alone", () => WebAssembly.compileStreaming(fetch(wasm)));
          await time("instantiate alone (empty imports, fails after linking)", () =>
            WebAssembly.instantiate(module, {}).catch(() => undefined),
          );
          await time("first Policy", () => new api.Policy({}));
          await time("second Policy", () => new api.Policy({}));
          return steps;
        }),
      );
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  return Object.fromEntries(
    Object.keys(probes[0]).map((name) => {
      const xs = probes.map((p) => p[name]);
      return [name, { wallMs: median(xs), wallRangeMs: [Math.min(...xs), Math.max(...xs)] }];
    }),
  );
}

if (process.argv[1] === HERE) {
  const at = process.argv.indexOf("--probe");
  if (at >= 0) await probe(process.argv[at + 1]);
  else if (process.argv.includes("--chromium")) {
    console.log("| Chromium step | wall median (range) |");
    console.log("|---|---|");
    for (const [name, s] of Object.entries(await chromiumInit())) {
      console.log(`| ${name} | ${s.wallMs.toFixed(2)} ms (${s.wallRangeMs.map((x) => x.toFixed(1)).join("–")}) |`);
    }
  } else printInit(initBreakdown());
}
