// `node bench/size.mjs [file.wasm]`: the package's size, and where the core wasm's bytes go,
// by crate (and by module for toolgate's own code), and what each export retains on its own
// (the bytes that would leave the module with it).
//
// "Package size" is what a browser host that uses the core loads: the core wasm
// (web/toolgate_bg.wasm) and the web entry's JS (web/*.js without `toolgate/import`, the
// tools glue, the adapters and the UI), each file gzip -9, summed. The whole tarball
// (`npm pack`, gzipped, with the second wasm that only the bin and `toolgate/import` load) is
// reported beside it. `packageSize()` is what bench/run.mjs reports.
//
// The breakdown needs `twiggy` (`cargo install twiggy`) and a wasm that kept its function
// names: by default the wasm-bindgen output of `npm run build`
// (target/bindgen/web/toolgate_bg.wasm) optimised again with `wasm-opt -Oz -g`, which is the
// shipped module plus its name section. Prints tables and writes target/bench/size.json.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** The files a browser host that uses the core loads (absolute paths). */
export function coreFiles(pkg = `${ROOT}pkg/`) {
  const toolsOnly = new Set(["import-web.js", "toolgate_tools_bindgen.js"]);
  const js = readdirSync(`${pkg}web/`).filter((f) => f.endsWith(".js") && !toolsOnly.has(f));
  return [...js, "toolgate_bg.wasm"].map((f) => `${pkg}web/${f}`);
}

/**
 * The package size: the core (wasm and JS, gzip -9 per file, summed), the tools wasm, and the
 * whole tarball as `npm pack` writes it (gzipped) and unpacked.
 */
export function packageSize(pkg = `${ROOT}pkg/`) {
  const core = coreFiles(pkg);
  const wasm = `${pkg}web/toolgate_bg.wasm`;
  const tools = `${pkg}web/toolgate_tools_bg.wasm`;
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", pkg], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  );
  return {
    core: { gzip: core.reduce((n, f) => n + gz(f), 0), files: core.length },
    coreWasm: { raw: readFileSync(wasm).length, gzip: gz(wasm) },
    toolsWasm: existsSync(tools) ? { raw: readFileSync(tools).length, gzip: gz(tools) } : null,
    tarball: { gzip: packed.size, unpacked: packed.unpackedSize, files: packed.entryCount },
  };
}

/** A flag array of scripts/build.sh (`NAME=(...)`), which optimises the shipped modules. */
function buildFlags(name) {
  const build = readFileSync(`${ROOT}scripts/build.sh`, "utf8");
  const found = new RegExp(`^${name}=\\(([^)]*)\\)`, "m").exec(build);
  if (!found) throw new Error(`scripts/build.sh has no ${name}=(...) line: bench/size.mjs reads its flags from there`);
  return found[1].trim().split(/\s+/);
}

function namedWasm() {
  if (process.argv[2]) return process.argv[2];
  const input = `${ROOT}target/bindgen/web/toolgate_bg.wasm`;
  if (!existsSync(input)) {
    console.error("error: no target/bindgen/web/toolgate_bg.wasm\n  run: npm run build");
    process.exit(1);
  }
  mkdirSync(`${ROOT}target/bench`, { recursive: true });
  const out = `${ROOT}target/bench/toolgate_named.wasm`;
  // The build's own optimisation flags (scripts/build.sh), with the names kept.
  const flags = buildFlags("WASM_OPT").filter((f) => f !== "--strip-debug");
  execFileSync(`${ROOT}node_modules/.bin/wasm-opt`, [...flags, "-g", ...buildFlags("WASM_FEATURES"), input, "-o", out]);
  return out;
}

const twiggy = (args) =>
  JSON.parse(execFileSync("twiggy", [...args, "--format", "json"], { encoding: "utf8", maxBuffer: 1 << 28 }));

/** The crate an item belongs to (toolgate's own items by their top two modules). */
function owner(raw) {
  if (raw.startsWith("data segment")) return "data (.rodata and the rest)";
  if (raw.includes('"function names" subsection')) return "(function names: not shipped)";
  if (raw.endsWith("multivalue shim")) return "wasm-bindgen (export shims)";
  if (raw.startsWith("<str>") || raw.startsWith("<[")) return "core/alloc/std";
  // Hashes of std's crates (`core[c5930c85a12de822]::`) go; then the first `crate::item`
  // anywhere decides: in `<A as B>::f` that is A's crate when A has a path, else B's.
  const name = raw.replace(/\[[0-9a-f]{8,}\]/g, "");
  const m = name.match(/([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)(?:::([A-Za-z_][A-Za-z0-9_]*))?/);
  if (!m) return "(other)";
  const crate = m[1];
  if (crate === "toolgate") {
    // The larger modules split one level further (`toolgate::commands::danger`).
    const split = ["commands", "import", "wasm", "policy", "shell", "json"].includes(m[2]);
    return split && m[3] && /^[a-z_]+$/.test(m[3]) ? `toolgate::${m[2]}::${m[3]}` : `toolgate::${m[2]}`;
  }
  if (["std", "core", "alloc", "dlmalloc", "compiler_builtins", "hashbrown"].includes(crate)) return "core/alloc/std";
  return crate;
}

function breakdown(size) {
  const file = namedWasm();
  const bytes = readFileSync(file);
  const top = twiggy(["top", "-n", "1000000", file]);
  const byOwner = new Map();
  for (const item of top) {
    const o = owner(item.name);
    byOwner.set(o, (byOwner.get(o) ?? 0) + item.shallow_size);
  }
  const total = top.filter((i) => !i.name.includes('"function names"')).reduce((n, i) => n + i.shallow_size, 0);
  const owners = [...byOwner.entries()].sort((a, b) => b[1] - a[1]);

  // Retained size of each export: bytes reachable from it and from nothing else.
  const dominators = twiggy(["dominators", "-d", "2", "-r", "100000", file]);
  const exports = [];
  const walk = (node) => {
    if (!node) return;
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node.name === "string" && node.name.startsWith("export ")) {
      exports.push({ name: node.name.slice(7), retained: node.retained_size });
    }
    if (node.children) walk(node.children);
    if (node.items) walk(node.items);
  };
  walk(dominators);
  exports.sort((a, b) => b.retained - a.retained);

  const result = {
    package: size,
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    shippedRaw: readFileSync(`${ROOT}pkg/web/toolgate_bg.wasm`).length,
    shippedGzip: gzipSync(readFileSync(`${ROOT}pkg/web/toolgate_bg.wasm`), { level: 9 }).length,
    total,
    byOwner: Object.fromEntries(owners),
    exports,
  };
  mkdirSync(`${ROOT}target/bench`, { recursive: true });
  writeFileSync(`${ROOT}target/bench/size.json`, `${JSON.stringify(result, null, 2)}\n`);

  console.log(`${file}: ${bytes.length} bytes (names included); shipped wasm ${result.shippedRaw} raw, ${result.shippedGzip} gzip -9\n`);
  console.log("| crate or module | bytes (shallow) | share |");
  console.log("|---|---|---|");
  // toolgate's modules, then the crates grouped to the top level.
  const crateOf = (o) => (o.startsWith("toolgate::") ? "toolgate" : o);
  const byCrate = new Map();
  for (const [o, n] of owners) byCrate.set(crateOf(o), (byCrate.get(crateOf(o)) ?? 0) + n);
  result.byCrate = Object.fromEntries(byCrate);
  writeFileSync(`${ROOT}target/bench/size.json`, `${JSON.stringify(result, null, 2)}\n`);
  for (const [o, n] of [...byCrate.entries()].sort((a, b) => b[1] - a[1])) {
    if (o.startsWith("(function names")) continue;
    console.log(`| ${o} | ${n.toLocaleString("en")} | ${((100 * n) / total).toFixed(1)}% |`);
  }
  console.log("\n| toolgate module | bytes (shallow) | share |");
  console.log("|---|---|---|");
  for (const [o, n] of owners.filter(([o]) => o.startsWith("toolgate::"))) {
    console.log(`| ${o} | ${n.toLocaleString("en")} | ${((100 * n) / total).toFixed(1)}% |`);
  }
  console.log("\n| export | retained bytes (only reachable from it) |");
  console.log("|---|---|");
  for (const e of exports.slice(0, 25)) console.log(`| ${e.name} | ${e.retained.toLocaleString("en")} |`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const size = packageSize();
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log("| what | gzip -9 | raw |");
  console.log("|---|---|---|");
  console.log(`| package size: core wasm + web JS (${size.core.files} files) | ${kb(size.core.gzip)} | |`);
  console.log(`| core wasm (web/toolgate_bg.wasm) | ${kb(size.coreWasm.gzip)} | ${kb(size.coreWasm.raw)} |`);
  if (size.toolsWasm) {
    console.log(`| tools wasm (web/toolgate_tools_bg.wasm) | ${kb(size.toolsWasm.gzip)} | ${kb(size.toolsWasm.raw)} |`);
  }
  console.log(`| tarball (npm pack, ${size.tarball.files} files) | ${kb(size.tarball.gzip)} | ${kb(size.tarball.unpacked)} unpacked |\n`);
  breakdown(size);
}
