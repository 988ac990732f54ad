/**
 * The renderer's Content-Security-Policy: nothing inline, nothing from elsewhere, and no
 * wasm either (the engine runs in the main process). The `app:` protocol sends it as a header.
 */
export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:";
