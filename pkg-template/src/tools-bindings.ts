// The raw exports of the second wasm (the tools module: `importPolicy`, `exportPolicy` and the
// npm bin's hook), which only `toolgate/import` and the bin load. Each import entry (web,
// Node) hands its build's exports to `setToolsBindings`; `import.ts` reaches them through
// `toolsBindings()`.

import { ToolgateError } from "./errors.js";

/** What an import entry hands over: the tools module's exports that `import.ts` calls. */
export interface ToolsBindings {
  importPolicy(format: string, files: string, strict: boolean): unknown;
  exportPolicy(format: string, policy: string): unknown;
}

let current: ToolsBindings | undefined;
let ready: () => boolean = () => true;

/** Installs the tools module's exports; `isReady` says whether its wasm is instantiated. */
export function setToolsBindings(bindings: ToolsBindings, isReady: () => boolean): void {
  current = bindings;
  ready = isReady;
}

/** The tools module's exports, or `NOT_INITIALIZED` before its `init()`/`initSync()`. */
export function toolsBindings(): ToolsBindings {
  if (current === undefined || !ready()) {
    throw new ToolgateError(
      "NOT_INITIALIZED",
      "the toolgate import module is not initialised",
      "",
      "call `await init()` from `toolgate/import` (or `initSync(bytes)`) before importing or exporting",
    );
  }
  return current;
}
