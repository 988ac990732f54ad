// The npm package's `toolgate` bin (Node and the wasm engine) as the hook of real agents:
// Claude Code, whose permission event it answers from the trust file too, and Copilot CLI,
// which lets a call through when its hook fails to answer in time.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { before } from "node:test";

import { claude, copilot } from "./drivers.mjs";
import { agentSuite } from "./scenarios.mjs";
import { NPM_BIN } from "./toolgate.mjs";

before(() => assert.ok(existsSync(NPM_BIN), `no ${NPM_BIN}: run npm run build`));

agentSuite(claude, {
  npm: true,
  permission: () => ({
    events: ["PermissionRequest"],
    invoke: { sdk: true, promptDelayMs: 4000 },
    granted: (r) => assert.deepEqual(r.answeredByDriver, [], "the SDK driver, not the hook, answered the prompt"),
  }),
});

agentSuite(copilot, {
  npm: true,
  check: { deny: (r) => assert.match(r.seen, /^Denied by preToolUse hook: /) },
});
