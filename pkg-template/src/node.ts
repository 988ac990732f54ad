// The entry for Node (CommonJS, and ESM through node/index.mjs): the wasm loads
// synchronously when this module loads, so `init()` and `initSync()` have nothing to do;
// they exist so that code written for the web entry runs unchanged.

import { setBindings, type Bindings } from "./bindings.js";

export * from "./index.js";
export { jsonFileTrustStorage } from "./json-file-storage.js";

declare const require: (id: string) => unknown;
setBindings(require("./toolgate_bindgen.cjs") as Bindings, () => true);

/** Where `init()` finds the wasm on the web; Node ignores it. */
export type InitInput = string | ArrayBuffer | ArrayBufferView | object;

/** Resolves at once: in Node the engine is loaded with the module. */
export default async function init(_input?: InitInput): Promise<void> {}

/** Returns at once: in Node the engine is loaded with the module. */
export function initSync(_bytes?: ArrayBuffer | ArrayBufferView | object): void {}
