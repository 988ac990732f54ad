// `toolgate/import` for Node: `importPolicy` and `exportPolicy` on the second wasm
// (toolgate_tools_bg.wasm), loaded synchronously when this module loads, so `init()` and
// `initSync()` have nothing to do; they exist so that code written for the web entry runs
// unchanged.

import { setToolsBindings, type ToolsBindings } from "./tools-bindings.js";

export * from "./import.js";

declare const require: (id: string) => unknown;
setToolsBindings(require("./toolgate_tools_bindgen.cjs") as ToolsBindings, () => true);

/** Where `init()` finds the tools wasm on the web; Node ignores it. */
export type ImportInitInput = string | ArrayBuffer | ArrayBufferView | object;

/** Resolves at once: in Node the import module is loaded with this module. */
export default async function init(_input?: ImportInitInput): Promise<void> {}

/** Returns at once: in Node the import module is loaded with this module. */
export function initSync(_bytes?: ArrayBuffer | ArrayBufferView | object): void {}
