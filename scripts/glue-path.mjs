// Points a wasm-bindgen `--target nodejs` glue file at its wasm elsewhere in the package, so
// that one copy of a module serves the web and the Node glue. Fails unless the glue names
// the file exactly once, so a change in wasm-bindgen's output cannot pass unnoticed.
//
// usage: node scripts/glue-path.mjs GLUE.cjs FILE.wasm NEW/RELATIVE/PATH.wasm

import { readFileSync, writeFileSync } from "node:fs";

const [glue, file, target] = process.argv.slice(2);
if (!glue || !file || !target) {
  console.error("usage: node scripts/glue-path.mjs GLUE.cjs FILE.wasm NEW/RELATIVE/PATH.wasm");
  process.exit(2);
}
const text = readFileSync(glue, "utf8");
const from = "`${__dirname}/" + file + "`";
const count = text.split(from).length - 1;
if (count !== 1) {
  console.error(`error: ${glue} names ${from} ${count} times, expected once`);
  console.error("  hint: check the wasm path in the nodejs glue of this wasm-bindgen version");
  process.exit(1);
}
writeFileSync(glue, text.replace(from, "`${__dirname}/" + target + "`"));
