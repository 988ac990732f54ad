// Loads, in Node, what the cross-runtime runners replay: the corpus files (tests/corpus/)
// with the native decisions that `cargo test --test corpus` wrote, and the generated corpus
// that `cargo test --test differential` wrote.
import { existsSync, readdirSync, readFileSync } from "node:fs";

export const ROOT = new URL("../../", import.meta.url);
export const CORPUS_DIR = new URL("tests/corpus/", ROOT);
const NATIVE = new URL("tests/output/corpus.json", ROOT);
const GENERATED = new URL("tests/output/differential.json", ROOT);

function readOutput(url, command) {
  if (!existsSync(url)) {
    const name = url.pathname.split("/tests/")[1];
    throw new Error(`no tests/${name}: run \`${command}\` first (npm test runs it before this suite)`);
  }
  return JSON.parse(readFileSync(url, "utf8"));
}

/** Every `*.json` below tests/corpus/, by its path there (`tables/modes.json`). */
export function corpusFiles(dir = CORPUS_DIR, prefix = "") {
  const files = {};
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory()) {
      Object.assign(files, corpusFiles(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`));
    } else if (entry.name.endsWith(".json")) {
      files[`${prefix}${entry.name}`] = JSON.parse(readFileSync(new URL(entry.name, dir), "utf8"));
    }
  }
  return files;
}

/** The corpus and its native decisions, as `replayCorpus` takes them. */
export function loadCorpus() {
  const native = readOutput(NATIVE, "cargo test --test corpus");
  return { files: corpusFiles(), native: native.files, cases: native.cases };
}

/** The generated corpus with its native decisions. */
export function loadGenerated() {
  return readOutput(GENERATED, "cargo test --test differential");
}
