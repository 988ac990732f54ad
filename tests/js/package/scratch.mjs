// A scratch Node project in a temp dir with the packed package (npm pack ./pkg) installed
// from its tarball, the way a user installs it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function npm(args, cwd) {
  return execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" },
  });
}

/** Packs pkg/, installs the tarball into a fresh project, and returns the project's path. */
export function scratchProject() {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-scratch-"));
  const [packed] = JSON.parse(npm(["pack", join(ROOT, "pkg"), "--json", "--pack-destination", dir], ROOT));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "toolgate-scratch", version: "1.0.0", private: true }, null, 2),
  );
  npm(["install", "--no-save", "--prefer-offline", join(dir, packed.filename)], dir);
  return { dir, packed };
}

/** Runs `node FILE` in `dir` and returns its stdout. */
export function runNode(dir, file) {
  return execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8" });
}
