// The IPC contract between the main process and the renderer: one channel per bridge message
// type, in one direction each. The main process, the preload script and the renderer's types
// all come from here.
import type { BridgeMessage } from "toolgate";

/** Message types the main process sends to the renderer (`webContents.send`). */
export const TO_RENDERER = ["approval-request", "approval-settled", "approval-rejected"] as const;
/** Message types the renderer sends to the main process (`ipcRenderer.send`). */
export const TO_MAIN = ["approval-response", "approve-all", "deny-all", "hello"] as const;

/** A message the main process sends. */
export type HostMessage = Extract<BridgeMessage, { type: (typeof TO_RENDERER)[number] }>;
/** A message the renderer sends. */
export type UiMessage = Extract<BridgeMessage, { type: (typeof TO_MAIN)[number] }>;

/**
 * The IPC channel of a message type: `toolgate:approval-request`, `toolgate:approve-all`, ...
 *
 * ```ts
 * channelOf("approval-response"); // "toolgate:approval-response"
 * ```
 */
export function channelOf<T extends BridgeMessage["type"]>(type: T): `toolgate:${T}` {
  return `toolgate:${type}`;
}

/**
 * What the preload script exposes to the renderer as `window.toolgate`: nothing but sending
 * and receiving toolgate's bridge messages on their own channels.
 */
export interface ToolgateRendererApi {
  /** Sends a response, an approve-all, a deny-all or a hello to the main process. */
  send(message: UiMessage): void;
  /** Calls `listener` with every request, settlement and rejection; returns the unsubscribe. */
  onMessage(listener: (message: HostMessage) => void): () => void;
}
