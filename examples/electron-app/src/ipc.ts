// The bridge's channel over Electron IPC: each message type has its own channel, the main
// process listens only on the renderer-to-main ones, and only to the top frame of the one
// window it serves.
import type { IpcMain, IpcMainEvent, WebContents } from "electron";
import type { MessageChannelLike } from "toolgate";
import { TO_MAIN, TO_RENDERER, channelOf } from "./channels.js";

/** A bridge channel that can also be closed (it removes its IPC listeners). */
export type IpcBridgeChannel = MessageChannelLike & { close(): void };

/**
 * The channel between the main process and one window's renderer.
 *
 * ```ts
 * const channel = ipcChannel(ipcMain, win.webContents);
 * const detach = service.attach(channel);
 * win.on("closed", () => { detach(); channel.close(); });
 * ```
 */
export function ipcChannel(
  ipcMain: Pick<IpcMain, "on" | "removeListener">,
  webContents: Pick<WebContents, "send" | "mainFrame">,
): IpcBridgeChannel {
  const handlers: Array<[string, (event: IpcMainEvent, message: unknown) => void]> = [];
  const outgoing = new Set<string>(TO_RENDERER);
  return {
    postMessage(message) {
      const type = (message as { type?: unknown }).type;
      if (typeof type !== "string" || !outgoing.has(type)) {
        throw new Error(`the main process sends only ${TO_RENDERER.join(", ")}, not \`${String(type)}\``);
      }
      webContents.send(channelOf(type as (typeof TO_RENDERER)[number]), message);
    },
    on(_type, listener) {
      for (const type of TO_MAIN) {
        const channel = channelOf(type);
        const handler = (event: IpcMainEvent, message: unknown) => {
          // Only the top frame of the window this channel serves (never an embedded frame),
          // and only the type its channel carries.
          if (event.sender !== webContents || event.senderFrame !== webContents.mainFrame) return;
          if (typeof message !== "object" || message === null || (message as { type?: unknown }).type !== type) return;
          listener(message);
        };
        ipcMain.on(channel, handler);
        handlers.push([channel, handler]);
      }
    },
    off() {
      this.close();
    },
    close() {
      for (const [channel, handler] of handlers.splice(0)) ipcMain.removeListener(channel, handler);
    },
  };
}
