// `node --test bench/`: the harness keeps going when a cell crashes, reports it, and writes
// every figure to its JSON file. Needs the built package (`npm run build`).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const RUN = fileURLToPath(new URL("run.mjs", import.meta.url));

test("a crashing cell is reported and the other cells are kept", () => {
  const out = join(mkdtempSync(join(tmpdir(), "toolgate-bench-")), "results.json");
  const r = spawnSync(process.execPath, ["--expose-gc", RUN], {
    encoding: "utf8",
    env: {
      ...process.env,
      BENCH_SIZES: "10",
      BENCH_REQUESTS: "10",
      BENCH_BUDGET_MS: "20",
      BENCH_SKIP: "cedar,approvals,init",
      BENCH_FAULT: "picomatch loop/10/url",
      BENCH_OUT: out,
    },
  });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /picomatch loop +10 url +FAILED: signal SIGABRT/);
  const results = JSON.parse(readFileSync(out, "utf8"));
  assert.deepEqual(
    results.failures.map((f) => [f.cell, f.signal]),
    [["picomatch loop/10/url", "SIGABRT"]],
  );
  const ok = results.cells.filter((c) => c.ok);
  assert.equal(results.cells.length, 12);
  assert.equal(ok.length, 11);
  for (const c of ok) assert.ok(c.medianUs > 0 && c.p99Us >= c.medianUs && c.cpuMeanUs > 0);
  for (const c of ok.filter((c) => c.engine !== "toolgate")) assert.equal(c.agrees, 1);
  assert.equal(typeof results.meta.loadAverageAtStart[0], "number");
});
