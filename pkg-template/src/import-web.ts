// `toolgate/import` for browsers and bundlers: `importPolicy` and `exportPolicy` on the second
// wasm (toolgate_tools_bg.wasm), which a host that only evaluates never loads. Call `init()`
// once, as for the main entry; the two modules are initialised separately.

import { setToolsBindings } from "./tools-bindings.js";
import * as bindgen from "./toolgate_tools_bindgen.js";
import { webLoader, type WasmSource, type WasmSyncSource } from "./wasm-module.js";

export * from "./import.js";

/** Where `init()` finds the tools wasm: a URL, a fetch `Request` or `Response`, bytes, or a module. */
export type ImportInitInput = WasmSource;

const loader = webLoader(bindgen);
setToolsBindings(bindgen, loader.ready);

/**
 * Loads the import module. Without an argument its wasm is fetched from
 * `toolgate_tools_bg.wasm` next to this file; pass a URL, a `Response`, bytes or a compiled
 * module where that does not work. Calling it again does nothing.
 */
export default function init(input?: ImportInitInput | { module_or_path: ImportInitInput }): Promise<void> {
  return loader.init(input);
}

/** Loads the import module synchronously from its wasm's bytes or a compiled module. */
export function initSync(bytes: WasmSyncSource | { module: WasmSyncSource }): void {
  loader.initSync(bytes);
}
