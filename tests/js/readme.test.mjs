// The README's JavaScript example, run as written against the built package.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { PKG, ROOT } from "./corpus.mjs";

const readme = readFileSync(new URL("README.md", ROOT), "utf8");
const blocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

test("the README has a JavaScript example", () => {
  assert.equal(blocks.length, 1);
});

test("the README's JavaScript example prints what its comments say", () => {
  // A scratch folder where `import ... from "toolgate"` resolves to the built package.
  const dir = mkdtempSync(join(tmpdir(), "toolgate-readme-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(fileURLToPath(PKG), join(dir, "node_modules", "toolgate"), "dir");
  writeFileSync(join(dir, "example.mjs"), blocks[0]);
  const out = execFileSync(process.execPath, ["example.mjs"], { cwd: dir, encoding: "utf8" });
  assert.deepEqual(out.trim().split("\n"), [
    "allow",
    "Execute command: npm publish",
    "denied",
    "USER_DENIED",
  ]);
});
