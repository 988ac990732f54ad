// The approvals view: a webview panel that shows toolgate's approval card under VS Code's
// recommended Content-Security-Policy, joined to the broker by the package's bridge.
import * as vscode from "vscode";
import type { ApprovalBroker } from "toolgate" with { "resolution-mode": "import" };
import type { ToolgateModule } from "./toolgate.js";

/** The one approvals panel of the window, created on demand. */
export class ApprovalsPanel {
  static #current: ApprovalsPanel | undefined;
  readonly #panel: vscode.WebviewPanel;

  private constructor(panel: vscode.WebviewPanel, detach: () => void) {
    this.#panel = panel;
    panel.onDidDispose(() => {
      detach();
      ApprovalsPanel.#current = undefined;
    });
  }

  /**
   * Shows the panel (creating it the first time) beside the editor.
   *
   * ```ts
   * ApprovalsPanel.show(context.extensionUri, toolgate, broker);
   * ```
   */
  static show(extensionUri: vscode.Uri, toolgate: ToolgateModule, broker: ApprovalBroker): void {
    if (ApprovalsPanel.#current !== undefined) {
      ApprovalsPanel.#current.#panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      "toolgateExample.approvals",
      "Approvals",
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [
          vscode.Uri.joinPath(extensionUri, "media"),
          vscode.Uri.joinPath(extensionUri, "node_modules", "toolgate"),
        ],
      },
    );
    panel.webview.html = html(panel.webview, extensionUri);
    // A webview is a bridge channel as it is: `postMessage` and `onDidReceiveMessage`.
    const detach = toolgate.createBrokerHost(broker, panel.webview, {
      onError: (error) => console.warn(`[toolgate-example] bridge: ${error.code}: ${error.message}`),
    });
    ApprovalsPanel.#current = new ApprovalsPanel(panel, detach);
  }
}

/** The page: scripts and styles from the extension only, nothing inline, no wasm. */
function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const uri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  const csp = [
    "default-src 'none'",
    `script-src ${webview.cspSource}`,
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
  ].join("; ");
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="${uri("node_modules", "toolgate", "ui", "approval-card.css")}">
  <link rel="stylesheet" href="${uri("media", "webview.css")}">
  <script type="module" src="${uri("media", "webview.js")}"></script>
  <title>Approvals</title>
</head>
<body>
  <main>
    <h1>Approvals</h1>
    <p id="empty" class="empty">No tool call is waiting for you.</p>
    <div id="cards" role="log" aria-label="Tool calls waiting for approval"></div>
  </main>
</body>
</html>`;
}
