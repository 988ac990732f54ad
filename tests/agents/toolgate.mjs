// toolgate's side of the agent tests: the binary under test, `toolgate install` into a run
// directory, and grants in the trust file the permission hooks read.

import { join } from "node:path";

import { REPO_ROOT, baseEnv, runProcess } from "./harness.mjs";

/** The native binary (scripts/test-agents.sh builds it), or the one TOOLGATE_BIN names. */
export const TOOLGATE_BIN = process.env.TOOLGATE_BIN ?? join(REPO_ROOT, "target", "debug", "toolgate");

/** The npm package's bin (`npm run build` makes pkg/). */
export const NPM_BIN = join(REPO_ROOT, "pkg", "bin", "toolgate.mjs");

/**
 * The hook command an agent runs: `toolgate hook --agent NAME --policy FILE`, with the native
 * binary, or with the npm package's bin under Node when `npm` is true.
 */
export function hookCommand(agent, policyPath, { npm = false } = {}) {
  const program = npm ? `${shellQuote(process.execPath)} ${shellQuote(NPM_BIN)}` : shellQuote(TOOLGATE_BIN);
  return `${program} hook --agent ${agent} --policy ${shellQuote(policyPath)}`;
}

export const shellQuote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

/**
 * Installs toolgate as `driver`'s hook with `toolgate install --agent NAME --project
 * --command CMD`, run in the project directory with the run's HOME. `events`, when given,
 * keeps only those hook events (so a test can leave one event to the agent); `npm` installs
 * the npm package's bin instead of the native binary.
 */
export async function installToolgate(driver, run, { policyPath, events, npm = false }) {
  const command = hookCommand(driver.hookAgent, policyPath, { npm });
  const r = await runProcess(
    TOOLGATE_BIN,
    ["install", "--agent", driver.hookAgent, "--project", "--command", command],
    { cwd: run.proj, env: baseEnv(run), timeoutMs: 30_000 },
  );
  if (r.code !== 0) {
    throw new Error(`toolgate install --agent ${driver.hookAgent} failed (${r.code}): ${r.stderr}${r.stdout}`);
  }
  if (events) driver.keepHookEvents(run, events);
}

/** Grants `rules` for every session in the run's project with `toolgate trust add`. */
export async function grant(run, rules) {
  for (const rule of rules) {
    const r = await runProcess(TOOLGATE_BIN, ["trust", "add", "--rule", rule, "--dir", run.proj], {
      cwd: run.proj,
      env: baseEnv(run),
      timeoutMs: 30_000,
    });
    if (r.code !== 0) throw new Error(`toolgate trust add --rule ${rule} failed (${r.code}): ${r.stderr}${r.stdout}`);
  }
}
