// The raw exports of the second wasm (the tools module: `importPolicy`, `exportPolicy` and the
// npm bin's hook), which only `toolgate/import` and the bin load. Each import entry (web,
// Node) hands its build's exports to `setToolsBindings`; `import.ts` reaches them through
// `toolsBindings()`.

//
// Their types are wasm-bindgen's declarations of the tools module (`toolgate_tools_bindgen.d.ts`,
// which the build places beside these sources), as for the core in bindings.ts.

import { ToolgateError } from "./errors.js";
import type * as toolsBindgen from "./toolgate_tools_bindgen.js";

/** @internal What an import entry hands over: the tools module's exports `import.ts` calls. */
export type ToolsBindings = Pick<typeof toolsBindgen, "importPolicy" | "exportPolicy">;

let current: ToolsBindings | undefined;
let ready: () => boolean = () => true;

/** @internal Installs the tools module's exports; `isReady` says whether its wasm is instantiated. */
export function setToolsBindings(bindings: ToolsBindings, isReady: () => boolean): void {
  current = bindings;
  ready = isReady;
}

/** @internal The tools module's exports, or `NOT_INITIALIZED` before its `init()`/`initSync()`. */
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
