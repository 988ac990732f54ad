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

/** The raw broker handle. */
export interface RawBroker extends RawTrust {
  setPolicy(policy: RawPolicyEngine): void;
  requestApproval(call: string, now: number): string;
  requestApprovals(calls: string, now: number): string[];
  respond(id: string, answer: string, now: number): unknown;
  approveAll(sessionId: string, now: number): string[];
  denyAll(sessionId: string, message: string | undefined, now: number): string[];
  cancel(id: string, now: number): void;
  recordFallback(id: string, detail: string, now: number): number;
  cancelSession(sessionId: string, now: number): string[];
  endSession(sessionId: string, now: number): string[];
  tick(now: number): string[];
  nextDeadline(): number | undefined;
  pending(): unknown;
  drainTransitions(): unknown;
  drainEvents(): unknown;
  audit(query: string): unknown;
  exportAudit(query: string): string;
  startExecution(id: string, now: number): void;
  complete(id: string, now: number): void;
  fail(id: string, error: string, now: number): unknown;
  shutdown(now: number): void;
  savePending(id: string): unknown;
  resume(saved: string, call: string, now: number): string;
  registerTool(definition: string): void;
  registerMcpTool(server: string, trusted: boolean, tool: string): string;
  unregisterTool(name: string): boolean;
  toolNames(): string[];
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
