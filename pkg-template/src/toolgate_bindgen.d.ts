// The shape of the wasm-bindgen output (web target) that web.ts imports; the build copies
// the real module next to the compiled JS as toolgate_bindgen.js.

import type { Bindings } from "./bindings.js";

export default function init(input?: unknown): Promise<unknown>;
export function initSync(input: unknown): unknown;
export declare const RawPolicyEngine: Bindings["RawPolicyEngine"];
export declare const RawTrustStore: Bindings["RawTrustStore"];
export declare const RawBroker: Bindings["RawBroker"];
export function version(): string;
export function toolDefaults(name: string): unknown;
