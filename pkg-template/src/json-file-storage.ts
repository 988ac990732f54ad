// The trust document in a JSON file, for Node and Electron's main process: written to a
// temporary file beside it, flushed, then renamed over it, so a crash never leaves half a
// document. Exported by the Node entries only.

import { ToolgateError } from "./errors.js";
import type { TrustStorage } from "./storage.js";

interface FileHandle {
  writeFile(data: string, encoding: string): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}
interface FsPromises {
  readFile(path: string, encoding: string): Promise<string>;
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

declare const require: (id: string) => unknown;

function code(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

/** Stores the document in the JSON file at `path` (atomic replace via temp file + rename). */
export function jsonFileTrustStorage(path: string): TrustStorage {
  const fs = require("node:fs/promises") as FsPromises;
  let counter = 0;
  return {
    async load() {
      try {
        return await fs.readFile(path, "utf8");
      } catch (err) {
        if (code(err) === "ENOENT") return null;
        throw new ToolgateError("STORAGE", `cannot read \`${path}\`: ${String(err)}`, "",
          "check the file's permissions");
      }
    },
    async save(text) {
      counter += 1;
      const temp = `${path}.${Date.now().toString(36)}-${counter}.tmp`;
      try {
        const handle = await fs.open(temp, "wx", 0o600);
        try {
          await handle.writeFile(text, "utf8");
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(temp, path);
      } catch (err) {
        await fs.unlink(temp).catch(() => {});
        throw new ToolgateError("STORAGE", `cannot write \`${path}\`: ${String(err)}`, "",
          "check that the directory exists and is writable");
      }
    },
  };
}
