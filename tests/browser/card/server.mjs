// A tiny static server for the card harness, bound to 127.0.0.1 on a free
// port. Every response carries the strict CSP a VS Code webview would use.
//
//   /              the harness page (this folder)
//   /ui/...        the card from pkg-template/ui
//   /vendor/axe.min.js   axe-core from node_modules

import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(fileURLToPath(new URL(".", import.meta.url)));
const root = resolve(here, "../../..");

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** @type {[string, string][]} URL prefix → folder */
const MOUNTS = [
  ["/ui/", join(root, "pkg-template/ui")],
  ["/vendor/", join(root, "node_modules/axe-core")],
  ["/", here],
];

/** @param {string} pathname @returns {string | null} */
function fileFor(pathname) {
  if (pathname === "/") pathname = "/index.html";
  for (const [prefix, folder] of MOUNTS) {
    if (!pathname.startsWith(prefix)) continue;
    const file = normalize(join(folder, decodeURIComponent(pathname.slice(prefix.length))));
    return file.startsWith(folder + sep) ? file : null;
  }
  return null;
}

/** @returns {Promise<{ url: string, close: () => Promise<void> }>} */
export async function startServer() {
  const server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://127.0.0.1");
    const file = fileFor(pathname);
    const type = file && TYPES[/** @type {keyof typeof TYPES} */ (extname(file))];
    const headers = { "content-security-policy": CSP, "cache-control": "no-store", "x-content-type-options": "nosniff" };
    try {
      if (!file || !type) throw new Error("not served");
      const body = await readFile(file);
      response.writeHead(200, { ...headers, "content-type": type });
      response.end(body);
    } catch {
      response.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" });
      response.end("not found");
    }
  });
  await new Promise((ready) => server.listen(0, "127.0.0.1", () => ready(undefined)));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startServer();
  console.log(`card harness at ${url}/`);
}
