// The check every engine outside Rust runs over what the native engine decided: the corpus
// (tests/corpus/, decided by `cargo test --test corpus` into tests/output/corpus.json) and
// the generated corpus (tests/differential.rs, into tests/output/differential.json). Each
// decision must be the same JSON as the native one, key order aside, and each corpus case
// must meet its expectations, checked here as tests/corpus/schema.rs checks them natively.
// No imports and no Node APIs: Chromium pages import this file as it is.

/** JSON with object keys sorted and undefined members left out, so key order does not count. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A case's name: its own, else its command, else its request. */
export function caseName(c) {
  return c.name ?? c.command ?? JSON.stringify(c.request);
}

/** The request a case stands for: the file's `cwd` when it names none, the case's `mode`. */
export function requestFor(file, c) {
  const request = c.request !== undefined ? { ...c.request } : { tool: "Bash", input: { command: c.command } };
  if (file.cwd !== undefined && request.cwd == null) request.cwd = file.cwd;
  if (c.mode !== undefined) request.mode = c.mode;
  return request;
}

/** What in `decision` does not meet the case's expectations; empty when all hold. */
export function check(file, c, decision) {
  const problems = [];
  const expect = c.expect ?? file.expect;
  const met = expect === "stop" ? decision.effect === "ask" || decision.effect === "deny" : decision.effect === expect;
  if (!met) problems.push(`expected ${expect}, got ${decision.effect}`);
  const kind = decision.reason?.decider?.kind;
  if (c.decider !== undefined && c.decider !== kind) problems.push(`expected the decider ${c.decider}, got ${kind}`);
  const named = (decision.dangers ?? []).map((d) => d.class);
  if (c.danger !== undefined && !named.includes(c.danger)) {
    problems.push(`expected the danger ${c.danger}, got ${JSON.stringify(named)}`);
  }
  return problems;
}

/**
 * Decides every case of `corpus` ({ files: { path: file }, native: { path: [decision] } })
 * with `api.Policy`, and returns the cases decided, the time it took, the decisions
 * that differ from the native ones and the expectations that fail.
 */
export function replayCorpus(api, corpus) {
  const started = performance.now();
  const mismatches = [];
  const failures = [];
  const engines = new Map();
  const engineFor = (policy) => {
    const key = JSON.stringify(policy);
    if (!engines.has(key)) engines.set(key, new api.Policy(policy));
    return engines.get(key);
  };
  let cases = 0;
  for (const [path, file] of Object.entries(corpus.files)) {
    const native = corpus.native[path];
    if (!Array.isArray(native) || native.length !== file.cases.length) {
      mismatches.push(`${path}: the native run decided ${native?.length ?? "none"} of ${file.cases.length} cases`);
      continue;
    }
    file.cases.forEach((c, i) => {
      cases += 1;
      const shown = `${path}: ${caseName(c)}`;
      let decision;
      try {
        decision = engineFor(c.policy ?? file.policy ?? {}).evaluate(requestFor(file, c));
      } catch (err) {
        failures.push(`${shown}: threw ${err.code}: ${err.message}`);
        return;
      }
      const got = canonical(decision);
      const want = canonical(native[i]);
      if (got !== want) mismatches.push(`${shown}: got ${got}, native ${want}`);
      for (const problem of check(file, c, decision)) failures.push(`${shown}: ${problem}`);
    });
  }
  for (const path of Object.keys(corpus.native)) {
    if (!(path in corpus.files)) mismatches.push(`${path}: decided natively but not in the corpus`);
  }
  for (const engine of engines.values()) engine.free?.();
  return { files: Object.keys(corpus.files).length, cases, ms: performance.now() - started, mismatches, failures };
}

/**
 * Runs the generated corpus through `Policy` and returns the number of decisions
 * compared and the first mismatches: each policy loads (or fails with the same error code)
 * and each decision is the same JSON.
 */
export function replayGenerated(Policy, generated, limit = 20) {
  const mismatches = [];
  let compared = 0;
  generated.cases.forEach((c, i) => {
    let engine;
    try {
      engine = new Policy(c.policy);
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
