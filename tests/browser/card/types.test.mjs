// The hand-written declarations (approval-card.d.ts) and the card's JSDoc
// types agree: `tsc --noEmit` over a host's usage and the card's sources.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

test("tsc --noEmit accepts approval-card.d.ts, its usage and the card's JSDoc", () => {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const project = fileURLToPath(new URL("types/tsconfig.json", import.meta.url));
  const run = spawnSync(process.execPath, [tsc, "-p", project], { encoding: "utf8", timeout: 120_000 });
  assert.equal(run.status, 0, `tsc reported:\n${run.stdout}${run.stderr}`);
});
