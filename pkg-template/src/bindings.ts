// The raw wasm-bindgen exports the JS layer wraps. Each entry (web, Node) hands its build's
// exports to `setBindings`; the classes reach them through `bindings()`.
//
// Their types are not written here: `toolgate_bindgen.d.ts` is the declaration file that
// wasm-bindgen generates from the Rust bindings (src/wasm/), which the build places beside
// these sources, so a method that the Rust side adds, removes or retypes changes what tsc
// checks the layer against. The raw handles are internal: `@internal` keeps them out of the
// published declarations.

import { bindingSlot } from "./wasm-module.js";
import type * as bindgen from "./toolgate_bindgen.js";

/** @internal The raw policy handle. */
export type RawPolicy = bindgen.RawPolicy;

/** @internal The raw broker handle. */
export type RawBroker = bindgen.RawBroker;

/**
 * @internal The trust-store methods shared by the raw store and the raw broker: the raw
 * store's, which the raw broker has with the same types (tsc checks it where the broker
 * hands its raw handle to `adoptTrustStore`).
 */
export type RawTrust = Omit<bindgen.RawTrustStore, "free">;

/** @internal What an entry hands over: the wasm-bindgen module's exports the layer uses. */
export type Bindings = Pick<
  typeof bindgen,
  "RawPolicy" | "RawTrustStore" | "RawBroker" | "version" | "toolDefaults"
>;

const slot = bindingSlot<Bindings>(
  "the toolgate engine is not initialised",
  "call `await init()` (or `initSync(bytes)`) before using the web build",
);

/** @internal Installs the build's exports; `isReady` says whether its wasm is instantiated. */
export const setBindings: (bindings: Bindings, isReady: () => boolean) => void = slot.set;

/** @internal The build's exports, or `NOT_INITIALIZED` before `init()`/`initSync()`. */
export const bindings: () => Bindings = slot.get;
