// The smoke corpus shared with the Rust tests (tests/smoke.rs, tests/wasm_smoke.rs).
import { readFileSync } from "node:fs";

export const ROOT = new URL("../../", import.meta.url);
export const PKG = new URL("pkg/", ROOT);
export const corpus = JSON.parse(readFileSync(new URL("tests/smoke/cases.json", ROOT), "utf8"));
export const crateVersion = readFileSync(new URL("Cargo.toml", ROOT), "utf8").match(
  /^version = "([^"]+)"/m,
)[1];
