// The entry for browsers, webviews and bundlers: the API plus `init()` / `initSync()`, which
// instantiate the wasm. No top-level await and no bundler plugin: call `init()` once.

import { setBindings } from "./bindings.js";
import * as bindgen from "./toolgate_bindgen.js";
import { webLoader, type WasmSource, type WasmSyncSource } from "./wasm-module.js";

export * from "./index.js";

/** Where `init()` finds the wasm: a URL, a fetch `Request` or `Response`, bytes, or a module. */
export type InitInput = WasmSource;

const loader = webLoader(bindgen);
setBindings(bindgen, loader.ready);

/**
 * Loads the engine. Without an argument the wasm is fetched from `toolgate_bg.wasm` next to
 * this file; pass a URL, a `Response`, bytes or a compiled module where that does not work
 * (a webview's resource URL, an Electron `file:` page). Calling it again does nothing.
 */
export default function init(input?: InitInput | { module_or_path: InitInput }): Promise<void> {
  return loader.init(input);
}

/** Loads the engine synchronously from the wasm's bytes or a compiled module. */
export function initSync(bytes: WasmSyncSource | { module: WasmSyncSource }): void {
  loader.initSync(bytes);
}
