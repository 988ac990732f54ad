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
 * Saved grants as the trust store exported them, or undefined when none are saved (or the
 * saved text is not JSON: the store then starts empty and the problem is reported).
 */
function savedTrust(report) {
  const text = localStorage.getItem(TRUST_KEY);
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    report(`the saved grants are not JSON (${error.message}); starting without them`);
    return undefined;
  }
}

/**
 * Makes the broker over `policy`, with the untrusted MCP server's tool registered as its
 * `tools/list` gave it. Saved grants go through the package's localStorage storage when it
 * has one, else the demo exports the store to localStorage after every change.
 *
 * @param {{ policy: unknown, timeoutMs: number, report: (message: string) => void }} options
 */
export async function makeBroker({ policy, timeoutMs, report }) {
  const options = {
    policy,
    defaultTimeoutMs: timeoutMs,
    registry: { mcpServers: [{ server: MCP_SERVER, trusted: false, tools: [MCP_TOOL] }] },
    onError: (/** @type {unknown} */ error) => report(`the broker reported: ${describeError(error)}`),
  };
  let persistByHand = true;
  if (typeof toolgate.localStorageTrustStorage === "function") {
    options.storage = toolgate.localStorageTrustStorage(TRUST_KEY);
    persistByHand = false;
  } else {
    const trust = savedTrust(report);
    if (trust !== undefined) options.trust = trust;
  }
  let broker;
  try {
    broker = new toolgate.ApprovalBroker(options);
  } catch (error) {
    if (options.trust === undefined) throw error;
    report(`the saved grants were refused (${describeError(error)}); starting without them`);
    delete options.trust;
    broker = new toolgate.ApprovalBroker(options);
  }
  try {
    await broker.ready;
  } catch (error) {
    report(`the saved grants could not be loaded (${describeError(error)}); starting without them`);
  }
  const persist = () => {
    if (!persistByHand) return;
    const doc = broker.trust.export();
    localStorage.setItem(TRUST_KEY, typeof doc === "string" ? doc : JSON.stringify(doc));
  };
  return { broker, persist };
}

/** A ToolgateError (or any error) as one line: `CODE at path: message (hint)`. */
export function describeError(error) {
  if (error === null || typeof error !== "object") return String(error);
  const code = "code" in error && error.code ? `${error.code}` : error.name ?? "Error";
  const path = "path" in error && error.path ? ` at ${error.path}` : "";
  const hint = "hint" in error && error.hint ? ` (hint: ${error.hint})` : "";
  return `${code}${path}: ${error.message}${hint}`;
}
