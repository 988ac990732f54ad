// The differential corpus that `cargo test --test differential` writes with the native
// engine's decisions, and the check every other engine runs over it: each policy loads (or
// fails with the same error code) and each decision is the same JSON, key order aside.
import { existsSync, readFileSync } from "node:fs";

export const ROOT = new URL("../../", import.meta.url);
export const CORPUS = new URL("tests/output/differential.json", ROOT);

export function loadCorpus() {
  if (!existsSync(CORPUS)) {
    throw new Error(
      "no tests/output/differential.json: run `cargo test --test differential` first " +
        "(npm test runs it before this suite)",
    );
  }
  return JSON.parse(readFileSync(CORPUS, "utf8"));
}

/**
 * Runs the corpus through `PolicyEngine` and returns the number of decisions compared and the
 * first mismatches. Self-contained (no imports, no closures) so that Playwright can ship it
 * to the page as source.
 */
export function replay(PolicyEngine, corpus, limit = 20) {
  const canonical = (v) =>
    Array.isArray(v)
      ? `[${v.map(canonical).join(",")}]`
      : v !== null && typeof v === "object"
        ? `{${Object.keys(v)
            .filter((k) => v[k] !== undefined)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
            .join(",")}}`
        : JSON.stringify(v);
  const mismatches = [];
  let compared = 0;
  corpus.cases.forEach((c, i) => {
    let engine;
    try {
      engine = new PolicyEngine(c.policy);
    } catch (err) {
      if (c.error === undefined || err.code !== c.error) {
        mismatches.push({ case: i, expected: c.error ?? "loads", got: `${err.code}: ${err.message}` });
      }
      return;
    }
    if (c.error !== undefined) {
      mismatches.push({ case: i, expected: c.error, got: "loads" });
      return;
    }
    c.requests.forEach((request, j) => {
      compared += 1;
      let got;
      try {
        got = canonical(engine.evaluate(request));
      } catch (err) {
        got = `threw ${err.code}: ${err.message}`;
      }
      const expected = canonical(c.decisions[j]);
      if (got !== expected && mismatches.length < limit) {
        mismatches.push({ case: i, request: j, input: request, expected, got });
      }
    });
    engine.free?.();
  });
  return { compared, mismatches };
}
