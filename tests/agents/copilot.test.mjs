// Copilot CLI 1.0.102 in BYOK mode (`-p`, no --allow-all-tools: only toolgate's allow lets
// a shell command run). Its permissionRequest hook fires before every permission check.

import assert from "node:assert/strict";

import { copilot } from "./drivers.mjs";
import { agentSuite } from "./scenarios.mjs";

agentSuite(copilot, {
  check: {
    deny: (r) => assert.match(r.seen, /^Denied by preToolUse hook: /),
    broken: (r) => assert.match(r.seen, /^Denied by preToolUse hook: Blocked by toolgate/),
  },
  permission: () => ({
    events: ["permissionRequest"],
    ungranted: (r) => {
      assert.equal(r.ran("granted.txt"), false, "a call with no grant and no rule ran");
      assert.match(r.seen, /no interactive user response/, r.seen);
    },
  }),
});
