// What the preload script exposes to this page.
import type { ToolgateRendererApi } from "../src/channels.js";

declare global {
  interface Window {
    toolgate: ToolgateRendererApi;
  }
}
