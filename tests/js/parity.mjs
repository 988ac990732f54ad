// Fixture parity: every case of tests/fixtures/**/*.json through a JS API (Node or a
// browser), compared with the native decision that tests/native_decisions.rs dumped to
// target/native-decisions.json, as whole JSON. Runs unchanged in a page (no Node imports).

/** JSON with object keys sorted, so that key order does not count. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Decides every case of `dump` with `api` and lists the differences. */
export function compareDecisions(api, dump) {
  const mismatches = [];
  let cases = 0;
  for (const [file, { policy, cases: list }] of Object.entries(dump)) {
    const engine = new api.PolicyEngine(policy);
    for (const c of list) {
      cases += 1;
      const got = canonical(engine.evaluate(c.request));
      const want = canonical(c.decision);
      if (got !== want) mismatches.push(`${file}: ${c.name}: got ${got}, native ${want}`);
    }
  }
  return { cases, files: Object.keys(dump).length, mismatches };
}
