// Loads the package's browser build and makes the demo's broker. Everything the demo needs
// from the package goes through this module.
import init, * as toolgate from "/pkg/web/toolgate.js";
import { MCP_SERVER, MCP_TOOL } from "./script.js";

export { toolgate };

/** The localStorage key the saved ("always") grants live under. */
export const TRUST_KEY = "toolgate-demo-trust";

/** The demo's settings from the page's query string (`?timeout=3000&autostart=0`). */
export function settings(search = location.search) {
  const params = new URLSearchParams(search);
  const timeout = Number.parseInt(params.get("timeout") ?? "", 10);
  return {
    timeoutMs: Number.isInteger(timeout) && timeout > 0 ? timeout : 120_000,
    autostart: params.get("autostart") !== "0",
    session: params.get("session") ?? "chat-1",
    paceMs: Number.parseInt(params.get("pace") ?? "250", 10) || 0,
  };
}

/** Loads the wasm engine once. */
export async function loadEngine() {
  await init();
  return toolgate;
}

/**
 * Makes the broker over `policy`, with the untrusted MCP server's tool registered as its
 * `tools/list` gave it, and the saved grants in localStorage (the package's
 * `localStorageTrustStorage`, which the broker saves to after every change). A saved document
 * that is corrupt or tampered with is refused and reported; the broker then starts without it
 * and leaves it as it is.
 *
 * @param {{ policy: unknown, timeoutMs: number, report: (message: string) => void }} options
 */
export async function makeBroker({ policy, timeoutMs, report }) {
  const broker = new toolgate.ApprovalBroker({
    policy,
    defaultTimeoutMs: timeoutMs,
    registry: { mcpServers: [{ server: MCP_SERVER, trusted: false, tools: [MCP_TOOL] }] },
    storage: toolgate.localStorageTrustStorage(TRUST_KEY),
    onError: () => {}, // reported below, once
  });
  try {
    await broker.ready;
  } catch (error) {
    report(`the saved grants were not loaded: ${describeError(error)}`);
  }
  return broker;
}

/** A ToolgateError (or any error) as one line: `CODE at path: message (hint)`. */
export function describeError(error) {
  if (error === null || typeof error !== "object") return String(error);
  const code = "code" in error && error.code ? `${error.code}` : error.name ?? "Error";
  const path = "path" in error && error.path ? ` at ${error.path}` : "";
  const hint = "hint" in error && error.hint ? ` (hint: ${error.hint})` : "";
  return `${code}${path}: ${error.message}${hint}`;
}
