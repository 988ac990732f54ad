// A static server over the repository root for the browser checks: the built package under
// /pkg/, the native decisions under /tests/output/, the replay module under
// /tests/differential/, and an empty page at /blank.html.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, normalize } from "node:path";
import { fileURLToPath } from "node:url";

import { ROOT } from "./load.mjs";

const TYPES = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".html": "text/html",
};
const ALLOWED = ["/pkg/", "/tests/output/", "/tests/differential/", "/node_modules/"];

export function serveRoot() {
  const root = fileURLToPath(ROOT);
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path === "/blank.html") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>toolgate</title>");
      return;
    }
    if (!ALLOWED.some((p) => path.startsWith(p))) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(root + path.slice(1));
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      server.url = `http://127.0.0.1:${server.address().port}/`;
      resolve(server);
    });
  });
}
