// Setup's failure paths: a missing or misnamed piece stops it at once with a message that says
// what is missing and how to get it. (The success path runs at the start of every npm test.)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const SETUP = fileURLToPath(new URL("../../scripts/setup.sh", import.meta.url));

function setup(env) {
  return spawnSync("bash", [SETUP], { encoding: "utf8", env: { ...process.env, ...env } });
}

test("an unknown route is refused, naming the valid ones", () => {
  const run = setup({ TOOLGATE_WASM_ROUTE: "bogus" });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /TOOLGATE_WASM_ROUTE=bogus is not a route/);
  assert.match(run.stderr, /use auto, rustup or debian/);
});

test("missing Rust stops setup with how to get it", (t) => {
  // A PATH with node and bash but without rustup.
  const dirs = [dirname(process.execPath), "/usr/bin", "/bin"];
  if (dirs.some((d) => existsSync(join(d, "rustup")))) {
    t.skip("rustup sits beside node or bash here");
    return;
  }
  const run = setup({ PATH: dirs.join(delimiter) });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /error: Rust is missing \(no rustup or cargo on PATH\)/);
  assert.match(run.stderr, /install Rust with rustup/);
});
