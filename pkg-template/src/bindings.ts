// The raw wasm-bindgen exports the JS layer wraps. Each entry (web, Node) hands its build's
// exports to `setBindings`; the classes reach them through `bindings()`.

import { ToolgateError } from "./errors.js";

/** The raw policy handle. */
export interface RawPolicyEngine {
  evaluate(request: string): unknown;
  explain(request: string): unknown;
  warnings(): unknown;
  free(): void;
}

/** The trust-store methods shared by the raw store and the raw broker. */
export interface RawTrust {
  grant(newGrant: string, now: number): unknown;
  revoke(id: string): boolean;
  list(now: number): unknown;
  clearSession(sessionId: string): number;
  exportText(now: number): string;
  importText(text: string): number;
  setAgentBypass(agent: string, on: boolean): void;
  bypassAgents(): string[];
  /** Starts loading the stored document: changes from now on are replayed over it. */
  beginLoad(): void;
  /** Imports the stored document (none: `undefined`) and replays the changes made since. */
  finishLoad(text: string | undefined): number;
}

/**
 * The raw broker handle. Every operation that changes something returns one batch (a
 * `Batch<T>`: its result, the transitions and audit events it caused, the next deadline,
 * the trust document to save), so each operation crosses the boundary once.
 */
export interface RawBroker {
  setPolicy(policy: RawPolicyEngine): void;
  requestApproval(call: string, now: number): unknown;
  requestApprovals(calls: string, now: number): unknown;
  respond(id: string, answer: string, now: number): unknown;
  approveAll(sessionId: string, now: number): unknown;
  denyAll(sessionId: string, message: string | undefined, now: number): unknown;
  cancel(id: string, now: number): unknown;
  recordFallback(id: string, detail: string, now: number): unknown;
  cancelSession(sessionId: string, now: number): unknown;
  endSession(sessionId: string, now: number): unknown;
  tick(now: number): unknown;
  /** What an operation that threw had queued, as a batch. */
  takeQueued(now: number): unknown;
  pending(): unknown;
  audit(query: string): unknown;
  exportAudit(query: string): string;
  startExecution(id: string, now: number): unknown;
  complete(id: string, now: number): unknown;
  fail(id: string, error: string, now: number): unknown;
  shutdown(now: number): unknown;
  savePending(id: string): unknown;
  resume(saved: string, call: string, now: number): unknown;
  registerTool(definition: string): void;
  registerMcpTool(server: string, trusted: boolean, tool: string): string;
  unregisterTool(name: string): boolean;
  toolNames(): string[];
  grant(newGrant: string, now: number): unknown;
  revoke(id: string, now: number): unknown;
  list(now: number): unknown;
  clearSession(sessionId: string, now: number): unknown;
  exportText(now: number): string;
  importText(text: string, now: number): unknown;
  setAgentBypass(agent: string, on: boolean, now: number): unknown;
  bypassAgents(): string[];
  /** Starts loading the stored document: changes from now on are replayed over it. */
  beginLoad(): void;
  /** Imports the stored document (none: `undefined`) and replays the changes made since. */
  finishLoad(text: string | undefined, now: number): unknown;
  /** Finishes a load whose document could not be read; nothing is saved from then on. */
  abandonLoad(now: number): unknown;
  free(): void;
}

/** What an entry hands over: the wasm-bindgen module's exports. */
export interface Bindings {
  RawPolicyEngine: new (policy: string) => RawPolicyEngine;
  RawTrustStore: new () => RawTrust & { free(): void };
  RawBroker: new (policy: RawPolicyEngine, options: string) => RawBroker;
  version(): string;
  toolDefaults(name: string): unknown;
}

let current: Bindings | undefined;
let ready: () => boolean = () => true;

/** Installs the build's exports; `isReady` says whether its wasm is instantiated. */
export function setBindings(bindings: Bindings, isReady: () => boolean): void {
  current = bindings;
  ready = isReady;
}

/** The build's exports, or `NOT_INITIALIZED` before `init()`/`initSync()`. */
export function bindings(): Bindings {
  if (current === undefined || !ready()) {
    throw new ToolgateError(
      "NOT_INITIALIZED",
      "the toolgate engine is not initialised",
      "",
      "call `await init()` (or `initSync(bytes)`) before using the web build",
    );
  }
  return current;
}
