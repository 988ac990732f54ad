// claude-code-acp 0.16.2 (Claude Code 2.1.44 inside), driven over ACP by a client that
// rejects every `session/request_permission`: a command that runs was allowed by toolgate.

import assert from "node:assert/strict";

import { acp } from "./drivers.mjs";
import { agentSuite } from "./scenarios.mjs";

agentSuite(acp, {
  check: {
    deny: (r) => assert.equal(r.permissionRequests.length, 0, "a denied call still reached the ACP client"),
    allow: (r) => assert.equal(r.permissionRequests.length, 0, "an allowed call still asked the ACP client"),
  },
});
