// Codex CLI 0.169.0 (`codex exec`). Its PermissionRequest hook fires on the approval path
// only: with `--approve-for-me` and a call that asks for escalated permissions. When the
// hook gives no verdict, Codex asks its guardian reviewer (a JSON-schema model request).

import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { after, before } from "node:test";

import { codex } from "./drivers.mjs";
import { agentSuite } from "./scenarios.mjs";

// Codex creates /tmp/codex-daemon-<uid> whatever TMPDIR says; remove it when these runs made it.
const daemonDir = `/tmp/codex-daemon-${process.getuid?.() ?? 0}`;
let daemonDirExisted = true;
before(() => {
  daemonDirExisted = existsSync(daemonDir);
});
after(() => {
  if (!daemonDirExisted) rmSync(daemonDir, { recursive: true, force: true });
});

const guardianCalls = (r) => r.modelRequests.filter((q) => q.answer === "json").length;

agentSuite(codex, {
  check: {
    deny: (r) => assert.match(r.seen, /^Command blocked by PreToolUse hook: /),
    broken: (r) => assert.match(r.seen, /^Command blocked by PreToolUse hook: Blocked by toolgate/),
  },
  permission: () => ({
    extraArgs: { sandbox_permissions: "require_escalated", justification: "needs to write outside the sandbox" },
    invoke: { approveForMe: true },
    granted: (r) => assert.equal(guardianCalls(r), 0, "the guardian was asked although toolgate had a grant"),
    ungranted: (r) => assert.equal(guardianCalls(r), 1, "without a grant toolgate must leave the call to Codex"),
  }),
});
