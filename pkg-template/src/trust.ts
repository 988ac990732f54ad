// TrustStore: remembered allow rules (grants) and agent bypass, stand-alone or a broker's own.

import { bindings, type RawTrust } from "./bindings.js";
import { reporter } from "./callbacks.js";
import { guard, jsonText } from "./errors.js";
import type { TrustStorage } from "./storage.js";
import type { Grant, NewGrant, TrustDocument } from "./types.js";

/** Options of a stand-alone trust store. */
export interface TrustStoreOptions {
  /** A persisted document to start from (a stored one, once loaded, replaces it). */
  trust?: TrustDocument | string;
  /**
   * Where the trust document is loaded from (when the store is made; see `ready`) and saved
   * to after every change of the persisted part (always grants, bypass).
   */
  storage?: TrustStorage;
  /** The clock (Unix ms); `Date.now` by default. */
  now?: () => number;
  /**
   * Called with errors the store cannot throw: a bad stored document, failed saves. If it
   * throws itself, both errors go to `console.error`.
   */
  onError?: (error: unknown) => void;
}

/**
 * What a `TrustStore` runs on: a stand-alone store of its own, or a broker's store, whose
 * changes go through the broker (which delivers them and saves what the core says to save).
 */
export interface TrustBackend {
  grant(grant: NewGrant): Grant;
  revoke(id: string): boolean;
  list(): Grant[];
  clearSession(sessionId: string): number;
  setAgentBypass(agent: string, on: boolean): void;
  bypassAgents(): string[];
  exportText(): string;
  importText(text: string): number;
  ready(): Promise<void>;
  flush(): Promise<void>;
}

let adopting: TrustBackend | undefined;

/**
 * Remembered allow rules ("grants") and agent bypass. `export()` gives the persisted
 * document (always grants and bypass, with a checksum); `import()` replaces it, all or
 * nothing.
 */
export class TrustStore {
  #backend: TrustBackend;

  constructor(options: TrustStoreOptions = {}) {
    const backing = adopting;
    adopting = undefined;
    this.#backend = backing ?? standAlone(options);
  }

  /**
   * Resolves when the stored trust document is loaded (at once without `storage`). Rejects
   * with a `ToolgateError` (`TAMPERED`, `INVALID_TRUST_DOCUMENT`, `STORAGE`, ...) when it is
   * bad: the store then keeps what it had and never saves over the stored document.
   */
  get ready(): Promise<void> {
    return this.#backend.ready();
  }

  /** Resolves when every save started so far has finished. */
  flushStorage(): Promise<void> {
    return this.#backend.flush();
  }

  /** Remembers a rule; the stored grant (its id is stable for the same content). */
  grant(grant: NewGrant): Grant {
    return this.#backend.grant(grant);
  }

  /** Forgets a grant; whether there was one. */
  revoke(id: string): boolean {
    return this.#backend.revoke(id);
  }

  /** The grants alive now. */
  list(): Grant[] {
    return this.#backend.list();
  }

  /** Forgets a session's grants; how many. */
  clearSession(sessionId: string): number {
    return this.#backend.clearSession(sessionId);
  }

  /** Turns an agent's "Bypass Permissions" on or off (persisted). */
  setAgentBypass(agent: string, on: boolean): void {
    this.#backend.setAgentBypass(agent, on);
  }

  /** The agents with bypass on. */
  bypassAgents(): string[] {
    return this.#backend.bypassAgents();
  }

  /** The persisted document: always grants and bypass, sorted, with a checksum. */
  export(): TrustDocument {
    return JSON.parse(this.exportText()) as TrustDocument;
  }

  /** The persisted document as JSON text. */
  exportText(): string {
    return this.#backend.exportText();
  }

  /**
   * Replaces the persisted part with `document`, all or nothing; session grants stay.
   * Throws a `ToolgateError` (`TAMPERED`, `INVALID_TRUST_DOCUMENT`, `GRANT_REFUSED`, ...) and
   * keeps the current state when the document is bad. Returns the number of grants.
   */
  import(document: TrustDocument | string): number {
    return this.#backend.importText(jsonText(document, "trust document"));
  }
}

/** A store of its own, saving its persisted part to `storage` after every change. */
function standAlone(options: TrustStoreOptions): TrustBackend {
  const raw: RawTrust = guard(() => new (bindings().RawTrustStore)());
  const now = options.now ?? Date.now;
  const storage = options.storage;
  const onError = reporter(options.onError);
  // False until the stored document loaded: a bad one is never saved over. A change made
  // before then is saved once the load (which replays it) finishes.
  let loaded = false;
  let unsaved = false;
  let saving: Promise<void> = Promise.resolve();
  let ready: Promise<void> = Promise.resolve();
  const changed = () => {
    if (storage === undefined) return;
    if (!loaded) {
      unsaved = true;
      return;
    }
    const text = raw.exportText(now());
    saving = saving.then(() => storage.save(text)).catch(onError);
  };
  const backend: TrustBackend = {
    grant(grant) {
      const out = guard(() => raw.grant(jsonText(grant, "grant"), now()) as Grant);
      changed();
      return out;
    },
    revoke(id) {
      const gone = raw.revoke(id);
      // Saved even when nothing was there yet: before the stored document loads, the revoke
      // is recorded and applied to it, and the result must reach storage.
      changed();
      return gone;
    },
    list: () => guard(() => raw.list(now()) as Grant[]),
    clearSession: (sessionId) => raw.clearSession(sessionId),
    setAgentBypass(agent, on) {
      raw.setAgentBypass(agent, on);
      changed();
    },
    bypassAgents: () => raw.bypassAgents(),
    exportText: () => raw.exportText(now()),
    importText(text) {
      const n = guard(() => raw.importText(text));
      changed();
      return n;
    },
    ready: () => ready,
    flush: () => saving,
  };
  if (options.trust !== undefined) backend.importText(jsonText(options.trust, "trust document"));
  unsaved = false;
  // From here until the stored document arrives, changes are recorded by the core and
  // replayed over it, so a revoke or bypass-off issued now is not undone by the load.
  if (storage !== undefined) {
    raw.beginLoad();
    ready = (async () => {
      let text: string | null;
      try {
        text = await storage.load();
      } catch (err) {
        guard(() => raw.finishLoad(undefined));
        throw err;
      }
      guard(() => raw.finishLoad(text ?? undefined));
      loaded = true;
      if (unsaved) changed();
    })();
    // A bad stored document is reported here too, so an unawaited `ready` never crashes Node.
    ready.catch(onError);
  }
  return backend;
}

/** @internal A `TrustStore` over a broker's own store, whose changes and storage the broker runs. */
export function adoptTrustStore(backend: TrustBackend): TrustStore {
  adopting = backend;
  try {
    return new TrustStore();
  } finally {
    adopting = undefined;
  }
}
