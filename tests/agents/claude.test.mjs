// Claude Code 2.1.197 in `-p` mode, and in SDK mode (stream-json over stdio with
// `--permission-prompt-tool stdio`), the one headless mode where its PermissionRequest hook
// fires.

import assert from "node:assert/strict";

import { claude } from "./drivers.mjs";
import { agentSuite } from "./scenarios.mjs";

const deniedIn = (r) => JSON.parse(r.stdout).permission_denials.map((d) => d.tool_input.command);

agentSuite(claude, {
  check: {
    deny: (r) => assert.deepEqual(deniedIn(r), ["touch denied.txt"]),
    allow: (r) => assert.deepEqual(deniedIn(r), []),
  },
  permission: () => ({
    events: ["PermissionRequest"],
    invoke: { sdk: true, promptDelayMs: 4000 },
    granted: (r) => {
      assert.equal(r.prompts.length, 1, "Claude Code did not ask for permission");
      assert.deepEqual(r.answeredByDriver, [], "the SDK driver, not the hook, answered the prompt");
      assert.deepEqual(r.cancelled, [r.prompts[0].request_id], "the hook's verdict did not cancel the prompt");
    },
    ungranted: (r) => {
      assert.equal(r.ran("granted.txt"), false, "a call with no grant and no rule ran");
      assert.equal(r.answeredByDriver.length, 1, "without a grant the prompt is left to the person");
    },
  }),
});
