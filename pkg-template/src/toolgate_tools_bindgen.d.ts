// The shape of the tools module's wasm-bindgen output (web target) that import-web.ts
// imports; the build copies the real module next to the compiled JS as
// toolgate_tools_bindgen.js.

export default function init(input?: unknown): Promise<unknown>;
export function initSync(input: unknown): unknown;
export function importPolicy(format: string, files: string, strict: boolean): unknown;
export function exportPolicy(format: string, policy: string): unknown;
