// Gemini CLI 0.61.0 in `-p` mode with `--yolo` (without it the shell tool is not offered).
// It has no permission hook; `--yolo` would run everything, so every block is toolgate's.

import assert from "node:assert/strict";

import { gemini } from "./drivers.mjs";
import { agentSuite } from "./scenarios.mjs";

agentSuite(gemini, {
  check: {
    deny: (r) => assert.match(r.seen, /^\{"error":"Tool execution blocked: /),
    broken: (r) => assert.match(r.seen, /Tool execution blocked: Blocked by toolgate/),
  },
});
