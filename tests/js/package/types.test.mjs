// `tsc --noEmit` over the published declarations, from a scratch project that installed the
// tarball: Node ESM (.mts) and CommonJS (.cts) resolve through the `node` conditions, a
// bundler-style project through `types`/`default`. `@ts-expect-error` lines prove that wrong
// shapes fail to compile (tsc reports an unused one as an error).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";

import { ROOT, scratchProject } from "./scratch.mjs";

const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
let dir;
before(() => {
  ({ dir } = scratchProject());
});

const usage = (load) => `${load}
const version: string = api.version();
const d: api.ToolDefaults = api.toolDefaults("Bash");
const level: "allow" | "prompt" | "deny" = d.level;
const trustable: boolean = d.trustable;
// @ts-expect-error a tool name is a string
api.toolDefaults(42);
// @ts-expect-error kinds are a closed set
const kind: "bogus" = d.kind;
// @ts-expect-error no such export
api.evaluateEverything();
export { version, level, trustable, kind };
`;

function tsc(name, compilerOptions, files) {
  const config = join(dir, `tsconfig.${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: "es2022",
        types: [],
        ...compilerOptions,
      },
      files,
    }),
  );
  try {
    execFileSync(process.execPath, [TSC, "-p", config], { cwd: dir, encoding: "utf8" });
  } catch (err) {
    assert.fail(`tsc -p tsconfig.${name}.json failed:\n${err.stdout}${err.stderr}`);
  }
}

test("Node ESM and CommonJS consumers type-check", () => {
  writeFileSync(join(dir, "esm.mts"), usage('import * as api from "toolgate";'));
  writeFileSync(join(dir, "cjs.cts"), usage('import api = require("toolgate");'));
  tsc("node", { module: "node16", moduleResolution: "node16", lib: ["es2022"] }, [
    "esm.mts",
    "cjs.cts",
  ]);
});

test("a browser or bundler consumer type-checks, with init and initSync", () => {
  writeFileSync(
    join(dir, "web.ts"),
    `${usage('import * as api from "toolgate";')}
import init, { initSync } from "toolgate";
export async function start(bytes: ArrayBuffer): Promise<void> {
  await init();
  await init({ module_or_path: new URL("toolgate_bg.wasm", "https://example.invalid/") });
  initSync({ module: bytes });
}
`,
  );
  tsc("web", { module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"] }, [
    "web.ts",
  ]);
});
