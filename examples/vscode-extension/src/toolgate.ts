// Loads the toolgate package in whichever extension host runs this code: the Node build on
// desktop (`import("toolgate")`), the web build in the browser's web-worker host (an ES
// module and its .wasm, both loaded from the extension's own URI).
import * as vscode from "vscode";
import type * as Toolgate from "toolgate" with { "resolution-mode": "import" };

/** The package's API, the same names in both builds. */
export type ToolgateModule = typeof Toolgate;

/** True in a web-worker extension host (VS Code for the Web), false in Node. */
export function isWebHost(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return proc?.versions?.node === undefined;
}

/**
 * Imports toolgate and initializes its WebAssembly.
 *
 * ```ts
 * const toolgate = await loadToolgate(context.extensionUri);
 * const engine = new toolgate.Policy({ permissions: { allow: ["Read"] } });
 * ```
 */
export async function loadToolgate(extensionUri: vscode.Uri): Promise<ToolgateModule> {
  if (!isWebHost()) return import("toolgate");
  const web = vscode.Uri.joinPath(extensionUri, "node_modules", "toolgate", "web");
  // A worker host has no module resolution for bare names: import the file by its URL.
  const toolgate = (await import(vscode.Uri.joinPath(web, "toolgate.js").toString(true))) as ToolgateModule & {
    default: (input?: URL) => Promise<unknown>;
  };
  await toolgate.default(new URL(vscode.Uri.joinPath(web, "toolgate_bg.wasm").toString(true)));
  return toolgate;
}

/**
 * Trust storage in the extension's `globalState`: "always" grants survive window reloads
 * and restarts, and follow Settings Sync when the key is registered for it.
 */
export function mementoTrustStorage(memento: vscode.Memento, key = "toolgate.trust"): Toolgate.TrustStorage {
  return {
    load: async () => memento.get<string>(key) ?? null,
    save: async (text) => {
      await memento.update(key, text);
    },
  };
}
