// One wasm-bindgen module as the JS layer holds it: the slot its entry fills with the
// module's exports (bindings.ts for the core, tools-bindings.ts for the tools module), and
// the web entries' `init()` / `initSync()` that instantiate it (web.ts, import-web.ts).

import { ToolgateError } from "./errors.js";

/** @internal A module's exports, installed by its entry and read by the layer. */
export interface BindingSlot<T> {
  /** Installs the exports; `isReady` says whether the module's wasm is instantiated. */
  set(bindings: T, isReady: () => boolean): void;
  /** The exports, or a `NOT_INITIALIZED` error saying `notReady` and `hint` before init. */
  get(): T;
}

/** @internal An empty slot; reading it before it is filled and ready throws `NOT_INITIALIZED`. */
export function bindingSlot<T>(notReady: string, hint: string): BindingSlot<T> {
  let current: T | undefined;
  let ready: () => boolean = () => true;
  return {
    set(bindings, isReady) {
      current = bindings;
      ready = isReady;
    },
    get() {
      if (current === undefined || !ready()) throw new ToolgateError("NOT_INITIALIZED", notReady, "", hint);
      return current;
    },
  };
}

/** Where a web entry's `init()` finds its wasm: a URL, a fetch `Request` or `Response`, bytes, or a module. */
export type WasmSource =
  | string
  | URL
  | Request
  | Response
  | PromiseLike<Response>
  | BufferSource
  | WebAssembly.Module;

/** What `initSync()` takes: the wasm's bytes or a compiled module. */
export type WasmSyncSource = BufferSource | WebAssembly.Module;

/**
 * @internal The loaders of a wasm-bindgen `--target web` glue module, which take a source
 * alone (deprecated there) or in its object form; `webLoader` always passes the object form.
 */
export interface WebGlue {
  default(input?: WasmSource | { module_or_path: WasmSource }): Promise<unknown>;
  initSync(input: WasmSyncSource | { module: WasmSyncSource }): unknown;
}

/** @internal A web entry's loading of its module: at most once, by either loader. */
export interface WebLoader {
  /** Whether the module is instantiated. */
  readonly ready: () => boolean;
  init(input?: WasmSource | { module_or_path: WasmSource }): Promise<void>;
  initSync(bytes: WasmSyncSource | { module: WasmSyncSource }): void;
}

function plainObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** @internal The loaders of `glue`, which accept a source alone or wasm-bindgen's object form. */
export function webLoader(glue: WebGlue): WebLoader {
  let initialised = false;
  return {
    ready: () => initialised,
    async init(input) {
      if (initialised) return;
      await glue.default(input === undefined || plainObject(input) ? input : { module_or_path: input });
      initialised = true;
    },
    initSync(bytes) {
      if (initialised) return;
      glue.initSync(plainObject(bytes) ? bytes : { module: bytes });
      initialised = true;
    },
  };
}
