// The scenarios every agent goes through, with toolgate installed as its hook by
// `toolgate install`: a denied command never runs and the model is told toolgate's reason,
// an allowed command runs, a broken policy file blocks, and (where the agent has a
// permission event) the permission event is answered from toolgate's trust store.
//
// Each scenario gets its own run directory and fake model; both are gone when it ends.

import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";

import { startFakeModel } from "./fake-model.mjs";
import { killAll, makeRun } from "./harness.mjs";
import { grant, installToolgate } from "./toolgate.mjs";

/** Wall times of every agent run, printed at the end of each agent's suite. */
const timings = [];

/**
 * Runs one scenario: a run directory, a fake model scripted to run `command`, the policy
 * (an object, or text written as it is), toolgate installed, the agent invoked.
 */
export async function scenario(driver, { policy, command, grants, events, extraArgs, invoke = {}, npm = false }) {
  const run = makeRun(driver.name);
  const model = await startFakeModel({ command, extraArgs });
  try {
    const policyPath = join(run.dir, "policy.json");
    writeFileSync(policyPath, typeof policy === "string" ? policy : JSON.stringify(policy));
    driver.prepare(run, model);
    await installToolgate(driver, run, { policyPath, events, npm });
    if (grants) await grant(run, grants);
    const result = await driver.invoke(run, model, invoke);
    const files = new Set(readdirSync(run.proj));
    return {
      ...result,
      ran: (file) => files.has(file),
      seen: model.seen(),
      modelRequests: model.requests.filter((r) => r.api),
      run,
    };
  } finally {
    await model.close();
    killAll();
    run.cleanup();
  }
}

const DENIED = "touch denied.txt";
const ALLOWED = "touch allowed.txt";
const GRANTED = "touch granted.txt";

/** A policy that denies one command and allows another. */
export const POLICY = {
  permissions: {
    allow: [`Bash(${ALLOWED})`],
    deny: [`Bash(${DENIED})`],
  },
};

function timed(label, result) {
  timings.push(`${label}: ${(result.ms / 1000).toFixed(1)} s`);
  assert.equal(result.timedOut, false, `${label} timed out\nstderr: ${result.stderr.slice(-2000)}`);
}

/**
 * The suite for one agent. `permission(driver)` gives the options for the permission-event
 * scenario (or null where the agent has no permission event).
 */
export function agentSuite(driver, { permission = null, check = {}, npm = false } = {}) {
  const hook = npm ? "the npm package's toolgate bin" : "toolgate";
  const withHook = (d, options) => scenario(d, { ...options, npm });
  describe(`${driver.name} with ${hook} as its hook`, () => {
    after(() => {
      killAll();
      for (const line of timings.splice(0)) console.log(`# wall time ${line}`);
    });

    test("a denied command never runs, and the model is told toolgate's reason", async () => {
      const r = await withHook(driver, { policy: POLICY, command: DENIED });
      timed(`${driver.name}${npm ? " (npm bin)" : ""} deny`, r);
      assert.equal(r.ran("denied.txt"), false, "the denied command ran");
      assert.match(r.seen, /touch denied\.txt/, `the model was not told the rule: ${r.seen}`);
      assert.match(r.seen, /denied|Denied/, `the model was not told it was denied: ${r.seen}`);
      check.deny?.(r);
    });

    test("an allowed command runs", async () => {
      const r = await withHook(driver, { policy: POLICY, command: ALLOWED });
      timed(`${driver.name}${npm ? " (npm bin)" : ""} allow`, r);
      assert.equal(r.ran("allowed.txt"), true, `the allowed command did not run; the model saw: ${r.seen}`);
      check.allow?.(r);
    });

    test("a broken policy file blocks the call", async () => {
      const r = await withHook(driver, { policy: '{"permissions": {"allow": [', command: ALLOWED });
      timed(`${driver.name}${npm ? " (npm bin)" : ""} broken policy`, r);
      assert.equal(r.ran("allowed.txt"), false, "a call ran under a policy that does not load");
      assert.match(r.seen, /toolgate/, `the model was not told toolgate blocked it: ${r.seen}`);
      check.broken?.(r);
    });

    if (permission) {
      test("the permission event is answered from the trust store", async () => {
        const options = permission();
        const granted = await withHook(driver, {
          policy: { permissions: {} },
          command: GRANTED,
          grants: [`Bash(${GRANTED})`],
          ...options,
        });
        timed(`${driver.name}${npm ? " (npm bin)" : ""} permission (granted)`, granted);
        assert.equal(granted.ran("granted.txt"), true, `the granted command did not run; the model saw: ${granted.seen}`);
        options.granted?.(granted);

        const ungranted = await withHook(driver, { policy: { permissions: {} }, command: GRANTED, ...options });
        timed(`${driver.name}${npm ? " (npm bin)" : ""} permission (no grant)`, ungranted);
        options.ungranted?.(ungranted);
      });
    }
  });
}
