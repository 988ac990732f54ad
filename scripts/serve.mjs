// A small, dependency-free static server for the demo: www/ at `/` and the built package
// pkg/ at `/pkg/`, on 127.0.0.1 only.
//
//   node scripts/serve.mjs            # http://127.0.0.1:8080/ (PORT overrides; PORT=0 picks one)
//
// Only GET and HEAD; paths that leave their root (`..`, encoded or not), dotfiles and NUL bytes
// are refused. Response headers come from a table of path rules (`HEADER_RULES`, plus
// www/_headers.json when present), so a page can be served with a strict Content-Security-Policy.

import { createReadStream, existsSync, readFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** MIME types by extension; anything else is served as application/octet-stream. */
export const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** Headers on every response. */
const BASE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
};

/**
 * Extra headers by request path: `path` is matched exactly, `prefix` as a prefix; every rule
 * that matches applies, later ones win.
 */
export const HEADER_RULES = [
  {
    prefix: "/",
    headers: {
      "Content-Security-Policy":
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
        "frame-ancestors 'none'; form-action 'none'",
    },
  },
];

function loadHeaderRules(wwwDir) {
  const file = join(wwwDir, "_headers.json");
  if (!existsSync(file)) return HEADER_RULES;
  const extra = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(extra)) throw new Error(`${file}: expected an array of header rules`);
  return [...HEADER_RULES, ...extra];
}

function headersFor(rules, path) {
  const headers = { ...BASE_HEADERS };
  for (const rule of rules) {
    const hit = rule.path !== undefined ? rule.path === path : path.startsWith(rule.prefix ?? "\0");
    if (hit) Object.assign(headers, rule.headers);
  }
  return headers;
}

/** Maps a URL path to a file under one of the roots, or null when it must not be served. */
export function resolvePath(roots, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (path.includes("\0") || path.includes("\\")) return null;
  const segments = path.split("/").filter((s) => s !== "");
  if (segments.some((s) => s === ".." || s.startsWith("."))) return null;
  const [mount, root] =
    Object.entries(roots)
      .filter(([prefix]) => path === prefix.slice(0, -1) || path.startsWith(prefix))
      .sort((a, b) => b[0].length - a[0].length)[0] ?? [];
  if (!root) return null;
  const rest = path.slice(mount.length);
  const file = resolve(root, `.${sep}${rest}`);
  if (file !== root && !file.startsWith(root + sep)) return null;
  return file;
}

/** The AI SDK and the packages it imports, for www/ai-sdk.html (its import map names them). */
const VENDOR_PACKAGES = ["ai", "@ai-sdk/provider", "@ai-sdk/provider-utils", "@ai-sdk/gateway", "@workflow/serde", "eventsource-parser", "zod"];
const VENDOR_ROOTS = Object.fromEntries(VENDOR_PACKAGES.map((name) => [`/vendor/${name}/`, join(ROOT, "node_modules", name)]));

/**
 * Starts the server and resolves to `{ server, url }` once it listens.
 * `roots` maps URL prefixes (ending in `/`) to directories.
 */
export function startServer({
  port = 8080,
  host = "127.0.0.1",
  roots = { "/": join(ROOT, "www"), "/pkg/": join(ROOT, "pkg"), ...VENDOR_ROOTS },
} = {}) {
  const absRoots = Object.fromEntries(Object.entries(roots).map(([k, v]) => [k, resolve(v)]));
  const rules = loadHeaderRules(absRoots["/"] ?? join(ROOT, "www"));
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const send = (status, text, extra = {}) => {
      res.writeHead(status, {
        ...headersFor(rules, url.pathname),
        "Content-Type": "text/plain; charset=utf-8",
        ...extra,
      });
      res.end(req.method === "HEAD" ? undefined : `${text}\n`);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      return send(405, "method not allowed", { Allow: "GET, HEAD" });
    }
    let file = resolvePath(absRoots, url.pathname);
    if (!file) return send(404, "not found");
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        if (!url.pathname.endsWith("/")) {
          return send(301, "moved", { Location: `${url.pathname}/` });
        }
        file = join(file, "index.html");
        info = await stat(file);
      }
      if (!info.isFile()) return send(404, "not found");
      res.writeHead(200, {
        ...headersFor(rules, url.pathname),
        "Content-Type": MIME_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
        "Content-Length": info.size,
      });
      if (req.method === "HEAD") return res.end();
      createReadStream(file)
        .on("error", () => res.destroy())
        .pipe(res);
    } catch {
      send(404, "not found");
    }
  });
  return new Promise((resolveStart, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolveStart({ server, url: `http://${host}:${actual}/` });
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const port = Number.parseInt(process.env.PORT ?? "8080", 10);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`error: PORT=${process.env.PORT} is not a port number (0-65535)`);
    process.exit(2);
  }
  if (!existsSync(join(ROOT, "pkg", "web", "toolgate.js"))) {
    console.error("error: pkg/ is not built; run: npm run build");
    process.exit(1);
  }
  startServer({ port }).then(
    ({ url }) => console.log(`toolgate demo: ${url}  (Ctrl+C stops it)`),
    (err) => {
      console.error(`error: cannot listen on 127.0.0.1:${port}: ${err.message}`);
      console.error("  set PORT to a free port, e.g. PORT=8081 npm start");
      process.exit(1);
    },
  );
}
