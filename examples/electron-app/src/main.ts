// The Electron main process: owns the policy, the trust store and the broker; serves the
// renderer from a custom `app:` origin with a strict Content-Security-Policy; connects the
// window over IPC.
import { BrowserWindow, app, ipcMain, net, protocol } from "electron";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { runAgent } from "./agent.js";
import { createApprovalService } from "./approvals.js";
import { CSP } from "./csp.js";
import { ipcChannel } from "./ipc.js";


const ROOT = resolve(__dirname, "..");
/** What the `app:` origin serves: the renderer and the package's card and bridge client. */
const SERVED = [join(ROOT, "renderer"), join(ROOT, "node_modules", "toolgate")];

protocol.registerSchemesAsPrivileged([
  { scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

/** Serves `app://toolgate/<path>` from the allowed folders, with the CSP as a header. */
function serveApp(): void {
  protocol.handle("app", async (request) => {
    const path = resolve(ROOT, `.${decodeURIComponent(new URL(request.url).pathname)}`);
    const allowed = SERVED.some((dir) => !relative(dir, path).startsWith("..") && (path === dir || path.startsWith(dir + sep)));
    if (!allowed) return new Response("not found", { status: 404 });
    const file = await net.fetch(pathToFileURL(path).toString());
    const headers = new Headers(file.headers);
    headers.set("Content-Security-Policy", CSP);
    return new Response(file.body, { status: file.status, headers });
  });
}

async function start(): Promise<void> {
  serveApp();
  const service = createApprovalService({ trustFile: join(app.getPath("userData"), "toolgate-trust.json") });
  await service.ready;
  const win = new BrowserWindow({
    width: 900,
    height: 720,
    webPreferences: {
      preload: join(__dirname, "preload.js"),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  win.webContents.setWindowOpenHandler(() => ({ action: "deny" }));
  win.webContents.on("will-navigate", (event) => event.preventDefault());
  win.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  const channel = ipcChannel(ipcMain, win.webContents);
  const detach = service.attach(channel);
  win.on("closed", () => {
    detach();
    channel.close();
    void service.close();
  });
  await win.loadURL("app://toolgate/renderer/index.html");
  await runAgent(service.broker, "electron-1", process.cwd(), (line) => console.log(line));
}

app.whenReady().then(start, (error: unknown) => {
  console.error(error);
  app.exit(1);
});
app.on("window-all-closed", () => app.quit());
