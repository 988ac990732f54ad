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

interface Backing {
  raw: RawTrust;
  now: () => number;
  changed: () => void;
  ready: () => Promise<void>;
  flush: () => Promise<void>;
}

let adopting: Backing | undefined;

/**
 * Remembered allow rules ("grants") and agent bypass. `export()` gives the persisted
 * document (always grants and bypass, with a checksum); `import()` replaces it, all or
 * nothing.
 */
export class TrustStore {
  #raw: RawTrust;
  #now: () => number;
  #changed: () => void;
  #ready: () => Promise<void>;
  #flush: () => Promise<void>;

  constructor(options: TrustStoreOptions = {}) {
    const backing = adopting;
    adopting = undefined;
    if (backing !== undefined) {
      this.#raw = backing.raw;
      this.#now = backing.now;
      this.#changed = backing.changed;
      this.#ready = backing.ready;
      this.#flush = backing.flush;
      return;
    }
    this.#raw = guard(() => new (bindings().RawTrustStore)());
    this.#now = options.now ?? Date.now;
    const storage = options.storage;
    const onError = reporter(options.onError);
    // False until the stored document loaded: a bad one is never saved over. A change made
    // before then is saved once the load (which replays it) finishes.
    let loaded = false;
    let unsaved = false;
    let saving: Promise<void> = Promise.resolve();
    this.#changed = () => {
      if (storage === undefined) return;
      if (!loaded) {
        unsaved = true;
        return;
      }
      const text = this.#raw.exportText(this.#now());
      saving = saving.then(() => storage.save(text)).catch(onError);
    };
    this.#flush = () => saving;
    if (options.trust !== undefined) this.import(options.trust);
    unsaved = false;
    // From here until the stored document arrives, changes are recorded by the core and
    // replayed over it, so a revoke or bypass-off issued now is not undone by the load.
    if (storage !== undefined) this.#raw.beginLoad();
    const ready = storage === undefined ? Promise.resolve() : this.#load(storage, () => {
      loaded = true;
      if (unsaved) this.#changed();
    });
    // A bad stored document is reported here too, so an unawaited `ready` never crashes Node.
    ready.catch(onError);
    this.#ready = () => ready;
  }

  /**
   * Resolves when the stored trust document is loaded (at once without `storage`). Rejects
   * with a `ToolgateError` (`TAMPERED`, `INVALID_TRUST_DOCUMENT`, `STORAGE`, ...) when it is
   * bad: the store then keeps what it had and never saves over the stored document.
   */
  get ready(): Promise<void> {
    return this.#ready();
  }

  /** Resolves when every save started so far has finished. */
  flushStorage(): Promise<void> {
    return this.#flush();
  }

  async #load(storage: TrustStorage, loaded: () => void): Promise<void> {
    let text: string | null;
    try {
      text = await storage.load();
    } catch (err) {
      guard(() => this.#raw.finishLoad(undefined));
      throw err;
    }
    guard(() => this.#raw.finishLoad(text ?? undefined));
    loaded();
  }

  /** Remembers a rule; the stored grant (its id is stable for the same content). */
  grant(grant: NewGrant): Grant {
    const out = guard(() => this.#raw.grant(jsonText(grant, "grant"), this.#now()) as Grant);
    this.#changed();
    return out;
  }

  /** Forgets a grant; whether there was one. */
  revoke(id: string): boolean {
    const gone = this.#raw.revoke(id);
    // Saved even when nothing was there yet: before the stored document loads, the revoke
    // is recorded and applied to it, and the result must reach storage.
    this.#changed();
    return gone;
  }

  /** The grants alive now. */
  list(): Grant[] {
    return guard(() => this.#raw.list(this.#now()) as Grant[]);
  }

  /** Forgets a session's grants; how many. */
  clearSession(sessionId: string): number {
    return this.#raw.clearSession(sessionId);
  }

  /** Turns an agent's "Bypass Permissions" on or off (persisted). */
  setAgentBypass(agent: string, on: boolean): void {
    this.#raw.setAgentBypass(agent, on);
    this.#changed();
  }

  /** The agents with bypass on. */
  bypassAgents(): string[] {
    return this.#raw.bypassAgents();
  }

  /** The persisted document: always grants and bypass, sorted, with a checksum. */
  export(): TrustDocument {
    return JSON.parse(this.exportText()) as TrustDocument;
  }

  /** The persisted document as JSON text. */
  exportText(): string {
    return this.#raw.exportText(this.#now());
  }

  /**
   * Replaces the persisted part with `document`, all or nothing; session grants stay.
   * Throws a `ToolgateError` (`TAMPERED`, `INVALID_TRUST_DOCUMENT`, `GRANT_REFUSED`, ...) and
   * keeps the current state when the document is bad. Returns the number of grants.
   */
  import(document: TrustDocument | string): number {
    const n = guard(() => this.#raw.importText(jsonText(document, "trust document")));
    this.#changed();
    return n;
  }
}

/** @internal A `TrustStore` over a broker's own store, whose storage the broker runs. */
export function adoptTrustStore(
  raw: RawTrust,
  now: () => number,
  changed: () => void,
  ready: () => Promise<void>,
  flush: () => Promise<void>,
): TrustStore {
  adopting = { raw, now, changed, ready, flush };
  try {
    return new TrustStore();
  } finally {
    adopting = undefined;
  }
}
