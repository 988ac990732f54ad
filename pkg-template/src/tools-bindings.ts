// The raw exports of the second wasm (the tools module: `importPolicy`, `exportPolicy`,
// `copilotCliArgs` and the npm bin's hook), which only `toolgate/import` and the bin load.
// Each import entry (web, Node) hands its build's exports to `setToolsBindings`; `import.ts`
// reaches them through `toolsBindings()`.
//
// Their types are wasm-bindgen's declarations of the tools module (`toolgate_tools_bindgen.d.ts`,
// which the build places beside these sources), as for the core in bindings.ts.

import { bindingSlot } from "./wasm-module.js";
import type * as toolsBindgen from "./toolgate_tools_bindgen.js";

/** @internal What an import entry hands over: the tools module's exports `import.ts` calls. */
export type ToolsBindings = Pick<typeof toolsBindgen, "importPolicy" | "exportPolicy" | "copilotCliArgs">;

const slot = bindingSlot<ToolsBindings>(
  "the toolgate import module is not initialised",
  "call `await init()` from `toolgate/import` (or `initSync(bytes)`) before importing or exporting",
);

/** @internal Installs the tools module's exports; `isReady` says whether its wasm is instantiated. */
export const setToolsBindings: (bindings: ToolsBindings, isReady: () => boolean) => void = slot.set;

/** @internal The tools module's exports, or `NOT_INITIALIZED` before its `init()`/`initSync()`. */
export const toolsBindings: () => ToolsBindings = slot.get;
