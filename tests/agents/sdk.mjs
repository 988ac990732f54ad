// What the framework-SDK tests share: the toolgate package under test (pkg/, which
// `npm run build` makes), the policy they run under, and a person who answers the broker's
// approval cards as each test scripts.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { AGENTS_ROOT, REPO_ROOT } from "./harness.mjs";

const PKG = pathToFileURL(join(REPO_ROOT, "pkg", "/"));

/** The package's broker (Node entry). */
export const { ApprovalBroker } = await import(new URL("node/index.mjs", PKG));

/** One adapter of the package (`claude-agent-sdk`, `copilot`, ...). */
export const adapter = (name) => import(new URL(`web/adapters/${name}.js`, PKG));

/** Allows one command, denies another and the project's `.env`; everything else asks. */
export const POLICY = {
  permissions: {
    allow: ["Bash(touch allowed.txt)"],
    deny: ["Bash(touch denied.txt)", "Read(./.env)"],
  },
};

/**
 * A person at the broker's approval cards: `answer(card)` gives the answer, or nothing to
 * leave the card unanswered. Returns the cards shown, in order.
 */
export function person(broker, answer = () => undefined) {
  const asked = [];
  broker.onRequest((card) => {
    asked.push(card);
    const reply = answer(card);
    if (reply) broker.respond(card.id, reply);
  });
  return asked;
}

/** Everything after the first 90 s of one SDK run is a hang. */
export const RUN_TIMEOUT_MS = 90_000;

/**
 * `spec` (`name@version`) installed under tests/agents/.cache/, once, and the directory
 * whose node_modules holds it. Installed here rather than in package.json when its lock
 * entries name platform packages the registry does not carry, which `npm ci` refuses.
 */
export function installCached(spec) {
  const dir = join(AGENTS_ROOT, ".cache", spec.replace(/[^\w.-]+/g, "_"));
  const name = spec.slice(0, spec.lastIndexOf("@"));
  if (!existsSync(join(dir, "node_modules", ...name.split("/"), "package.json"))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true }));
    execFileSync("npm", ["install", "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", spec], {
      cwd: dir,
      stdio: "ignore",
      timeout: 300_000,
    });
  }
  return dir;
}
