// The preload script: exposes `window.toolgate` (ToolgateRendererApi) to the renderer through
// contextBridge. The renderer gets no ipcRenderer, no Node, no Electron: it can send the four
// renderer-to-main messages and receive the three main-to-renderer ones, nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import type { HostMessage, TO_MAIN as ToMain, TO_RENDERER as ToRenderer, ToolgateRendererApi, UiMessage } from "./channels.js";

// A sandboxed preload can require only "electron", so the channel lists are restated here;
// the compiler checks they are exactly those of channels.ts.
const TO_MAIN = ["approval-response", "approve-all", "deny-all", "hello"] as const satisfies typeof ToMain;
const TO_RENDERER = ["approval-request", "approval-settled", "approval-rejected"] as const satisfies typeof ToRenderer;

const api: ToolgateRendererApi = {
  send(message: UiMessage) {
    const type = (message as { type?: unknown }).type;
    if (!(TO_MAIN as readonly unknown[]).includes(type)) {
      throw new Error(`window.toolgate.send takes ${TO_MAIN.join(", ")}, not \`${String(type)}\``);
    }
    ipcRenderer.send(`toolgate:${type as UiMessage["type"]}`, message);
  },
  onMessage(listener: (message: HostMessage) => void) {
    const handler = (_event: IpcRendererEvent, message: HostMessage) => listener(message);
    for (const type of TO_RENDERER) ipcRenderer.on(`toolgate:${type}`, handler);
    return () => {
      for (const type of TO_RENDERER) ipcRenderer.removeListener(`toolgate:${type}`, handler);
    };
  },
};

contextBridge.exposeInMainWorld("toolgate", api);
