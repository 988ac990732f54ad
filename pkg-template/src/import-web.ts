// `toolgate/import` for browsers and bundlers: `importPolicy` and `exportPolicy` on the second
// wasm (toolgate_tools_bg.wasm), which a host that only evaluates never loads. Call `init()`
// once, as for the main entry; the two modules are initialised separately.

import { setToolsBindings } from "./tools-bindings.js";
import * as bindgen from "./toolgate_tools_bindgen.js";

export * from "./import.js";

/** Where `init()` finds the tools wasm: a URL, a fetch `Request` or `Response`, bytes, or a module. */
export type ImportInitInput =
  | string
  | URL
  | Request
  | Response
  | PromiseLike<Response>
  | BufferSource
  | WebAssembly.Module;

let initialised = false;
setToolsBindings(bindgen, () => initialised);

function plainObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Loads the import module. Without an argument its wasm is fetched from
 * `toolgate_tools_bg.wasm` next to this file; pass a URL, a `Response`, bytes or a compiled
 * module where that does not work. Calling it again does nothing.
 */
export default async function init(
  input?: ImportInitInput | { module_or_path: ImportInitInput },
): Promise<void> {
  if (initialised) return;
  await bindgen.default(input === undefined || plainObject(input) ? input : { module_or_path: input });
  initialised = true;
}

/** Loads the import module synchronously from its wasm's bytes or a compiled module. */
export function initSync(
  bytes: BufferSource | WebAssembly.Module | { module: BufferSource | WebAssembly.Module },
): void {
  if (initialised) return;
  bindgen.initSync(plainObject(bytes) ? bytes : { module: bytes });
  initialised = true;
}
