// `node bench/split.mjs [export ...]`: what leaving some exports out of the main wasm would
// save: the shipped `pkg/web/toolgate_bg.wasm` with those exports removed (default
// `importPolicy` and `exportPolicy`, the agents' permission formats and the TOML parser
// behind them) and everything only they reached dropped (binaryen's
// remove-unused-module-elements), then both modules' size and compile time (median of
// BENCH_SPLIT_RUNS=9 fresh processes each, `new WebAssembly.Module`, wall and CPU).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import binaryen from "binaryen";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SHIPPED = `${ROOT}pkg/web/toolgate_bg.wasm`;
const REMOVED = process.argv.slice(2).length ? process.argv.slice(2) : ["importPolicy", "exportPolicy"];
const RUNS = Number(process.env.BENCH_SPLIT_RUNS ?? "9");

const bytes = readFileSync(SHIPPED);
const mod = binaryen.readBinary(bytes);
// The features rustc enables for wasm32-unknown-unknown (as scripts/build.sh passes them).
const F = binaryen.Features;
mod.setFeatures(
  F.MVP | F.BulkMemory | F.NontrappingFPToInt | F.SignExt | F.MutableGlobals | F.ReferenceTypes | F.Multivalue,
);
for (const name of REMOVED) {
  if (!mod.getExport(name)) {
    console.error(`error: the wasm has no export \`${name}\`; name exports of ${SHIPPED}`);
    process.exit(1);
  }
  mod.removeExport(name);
}
mod.runPasses(["remove-unused-module-elements"]);
const split = Buffer.from(mod.emitBinary());
mkdirSync(`${ROOT}target/bench`, { recursive: true });
const SPLIT = `${ROOT}target/bench/toolgate_without_${REMOVED.join("_")}.wasm`;
writeFileSync(SPLIT, split);

const probe = `const b = require("fs").readFileSync(process.argv[1]); const c0 = process.cpuUsage(); const t0 = performance.now(); new WebAssembly.Module(b); const c = process.cpuUsage(c0); console.log(JSON.stringify([performance.now() - t0, (c.user + c.system) / 1000]));`;
const compile = (file) => {
  const walls = [];
  const cpus = [];
  for (let i = 0; i < RUNS; i++) {
    const [wall, cpu] = JSON.parse(execFileSync(process.execPath, ["-e", probe, file], { encoding: "utf8" }));
    walls.push(wall);
    cpus.push(cpu);
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return { wallMs: med(walls), wallRangeMs: [Math.min(...walls), Math.max(...walls)], cpuMs: med(cpus) };
};
// Alternate the two files' probes so that load on the machine hits both alike.
const rows = [
  ["shipped", SHIPPED, bytes],
  [`without ${REMOVED.join(", ")}`, SPLIT, split],
];
const results = rows.map(([label, file, b]) => ({
  label,
  raw: b.length,
  gzip: gzipSync(b, { level: 9 }).length,
  compile: compile(file),
}));
writeFileSync(`${ROOT}target/bench/split.json`, `${JSON.stringify(results, null, 2)}\n`);
console.log("| wasm | raw | gzip -9 | compile wall median (range) | compile CPU median |");
console.log("|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.label} | ${r.raw.toLocaleString("en")} | ${r.gzip.toLocaleString("en")} | ${r.compile.wallMs.toFixed(2)} ms (${r.compile.wallRangeMs.map((x) => x.toFixed(1)).join("–")}) | ${r.compile.cpuMs.toFixed(2)} ms |`,
  );
}
