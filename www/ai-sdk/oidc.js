// A stand-in for `@vercel/oidc`, which the AI SDK's gateway provider imports and whose browser
// build is CommonJS. The demo uses a scripted model, never the gateway, so nothing calls these.
export function getContext() {
  return {};
}
export async function getVercelOidcToken() {
  throw new Error("the demo has no Vercel OIDC token");
}
