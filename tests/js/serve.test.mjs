// The demo server: MIME types, headers, and no way out of its roots.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { resolvePath, startServer } from "../../scripts/serve.mjs";

let server;
let base;
const dir = mkdtempSync(join(tmpdir(), "toolgate-serve-"));

before(async () => {
  mkdirSync(join(dir, "www"));
  mkdirSync(join(dir, "pkg"));
  writeFileSync(join(dir, "www", "index.html"), "<!doctype html><p>hi</p>");
  writeFileSync(join(dir, "www", "app.js"), "export {};");
  writeFileSync(join(dir, "www", ".secret"), "no");
  writeFileSync(join(dir, "pkg", "x.wasm"), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(join(dir, "outside.txt"), "outside");
  ({ server, url: base } = await startServer({
    port: 0,
    roots: { "/": join(dir, "www"), "/pkg/": join(dir, "pkg") },
  }));
});
after(() => server.close());

// A raw request, so that `..` reaches the server as written.
function get(path, method = "GET") {
  return new Promise((resolve, reject) => {
    const req = request(new URL(base), { path, method }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("serves index.html for / with a strict CSP", async () => {
  const res = await get("/");
  assert.equal(res.status, 200);
  assert.equal(res.headers["content-type"], "text/html; charset=utf-8");
  assert.match(res.headers["content-security-policy"], /script-src 'self' 'wasm-unsafe-eval'/);
  assert.equal(res.headers["x-content-type-options"], "nosniff");
});

test("MIME types for JS and wasm", async () => {
  assert.equal((await get("/app.js")).headers["content-type"], "text/javascript; charset=utf-8");
  const wasm = await get("/pkg/x.wasm");
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers["content-type"], "application/wasm");
});

test("no escape from the roots, no dotfiles", async () => {
  for (const path of [
    "/../outside.txt",
    "/pkg/../outside.txt",
    "/%2e%2e/outside.txt",
    "/pkg/%2e%2e/%2e%2e/outside.txt",
    "/..%2foutside.txt",
    "/..%5coutside.txt",
    "/.secret",
    "/app.js%00.html",
    "/%E0%A4%A",
  ]) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.body, "not found\n", path);
  }
});

test("only GET and HEAD", async () => {
  assert.equal((await get("/", "POST")).status, 405);
  const head = await get("/app.js", "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body, "");
});

test("resolvePath picks the longest mount", () => {
  const roots = { "/": "/srv/www", "/pkg/": "/srv/pkg" };
  assert.equal(resolvePath(roots, "/pkg/a.js"), "/srv/pkg/a.js");
  assert.equal(resolvePath(roots, "/a.js"), "/srv/www/a.js");
  assert.equal(resolvePath(roots, "/pkg/../a.js"), null);
});
