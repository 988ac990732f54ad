// TrustStorage: where a broker's persisted trust document lives, with implementations for
// localStorage and IndexedDB (browsers, webviews). The JSON file storage for Node and
// Electron's main process is in json-file-storage.ts (Node entry only).

import { ToolgateError } from "./errors.js";

/**
 * Persists the trust document's JSON text. `load` gives `null` when nothing was saved yet;
 * `save` must replace the stored text whole (never leave half a document). The broker
 * checks what `load` gives (checksum, shape, rules) and refuses it with a `ToolgateError`.
 */
export interface TrustStorage {
  load(): Promise<string | null>;
  save(text: string): Promise<void>;
}

function storageError(message: string, cause: unknown): ToolgateError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ToolgateError("STORAGE", `${message}: ${detail}`, "", "check that the storage is available and not full");
}

/** The `Storage` (localStorage-like) methods the storage uses. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Stores the document under `key` in `localStorage` (or any `Storage`-like object). */
export function localStorageTrustStorage(
  key = "toolgate.trust",
  storage: KeyValueStorage = globalThis.localStorage,
): TrustStorage {
  if (storage === undefined || storage === null) {
    throw new ToolgateError("STORAGE", "`localStorage` is not available here", "",
      "pass a Storage object, or use another TrustStorage");
  }
  return {
    async load() {
      try {
        return storage.getItem(key);
      } catch (err) {
        throw storageError(`cannot read \`${key}\` from localStorage`, err);
      }
    },
    async save(text) {
      try {
        storage.setItem(key, text); // one item: replaced whole, never half-written
      } catch (err) {
        throw storageError(`cannot write \`${key}\` to localStorage`, err);
      }
    },
  };
}

/** Where `indexedDbTrustStorage` keeps the document. */
export interface IndexedDbTrustStorageOptions {
  database?: string;
  store?: string;
  key?: string;
  factory?: IDBFactory;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Stores the document as one record of an IndexedDB object store (one transaction each). */
export function indexedDbTrustStorage(options: IndexedDbTrustStorageOptions = {}): TrustStorage {
  const database = options.database ?? "toolgate";
  const storeName = options.store ?? "trust";
  const key = options.key ?? "document";
  const factory = options.factory ?? globalThis.indexedDB;
  if (factory === undefined) {
    throw new ToolgateError("STORAGE", "IndexedDB is not available here", "", "use another TrustStorage");
  }
  let db: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> => {
    if (db === undefined) {
      const req = factory.open(database, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(storeName);
      db = request(req);
    }
    return db;
  };
  return {
    async load() {
      try {
        const value: unknown = await request((await open()).transaction(storeName, "readonly").objectStore(storeName).get(key));
        if (value === undefined) return null;
        if (typeof value !== "string") {
          throw new ToolgateError("INVALID_TRUST_DOCUMENT", `the IndexedDB record \`${key}\` is not JSON text`, "",
            "delete the record, or restore it from a backup");
        }
        return value;
      } catch (err) {
        if (err instanceof ToolgateError) throw err;
        throw storageError(`cannot read \`${key}\` from IndexedDB`, err);
      }
    },
    async save(text) {
      try {
        const tx = (await open()).transaction(storeName, "readwrite");
        tx.objectStore(storeName).put(text, key);
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
          tx.onabort = () => reject(tx.error);
        });
      } catch (err) {
        throw storageError(`cannot write \`${key}\` to IndexedDB`, err);
      }
    },
  };
}
