// The entry for browsers, webviews and bundlers: the API plus `init()` / `initSync()`, which
// instantiate the wasm. No top-level await and no bundler plugin: call `init()` once.

import { setBindings } from "./bindings.js";
import * as bindgen from "./toolgate_bindgen.js";

export * from "./index.js";

/** Where `init()` finds the wasm: a URL, a fetch `Request` or `Response`, bytes, or a module. */
export type InitInput =
  | string
  | URL
  | Request
  | Response
  | PromiseLike<Response>
  | BufferSource
  | WebAssembly.Module;

let initialised = false;
setBindings(bindgen, () => initialised);

function plainObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Loads the engine. Without an argument the wasm is fetched from `toolgate_bg.wasm` next to
 * this file; pass a URL, a `Response`, bytes or a compiled module where that does not work
 * (a webview's resource URL, an Electron `file:` page). Calling it again does nothing.
 */
export default async function init(
  input?: InitInput | { module_or_path: InitInput },
): Promise<void> {
  if (initialised) return;
  await bindgen.default(input === undefined || plainObject(input) ? input : { module_or_path: input });
  initialised = true;
}

/** Loads the engine synchronously from the wasm's bytes or a compiled module. */
export function initSync(
  bytes: BufferSource | WebAssembly.Module | { module: BufferSource | WebAssembly.Module },
): void {
  if (initialised) return;
  bindgen.initSync(plainObject(bytes) ? bytes : { module: bytes });
  initialised = true;
}
