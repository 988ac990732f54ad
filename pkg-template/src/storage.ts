// TrustStorage: where a broker's persisted trust document lives. Implementations for
// localStorage, IndexedDB and JSON files are in their own modules.

/**
 * Persists the trust document's JSON text. `load` gives `null` when nothing was saved yet;
 * `save` must replace the stored text whole (never leave half a document).
 */
export interface TrustStorage {
  load(): Promise<string | null>;
  save(text: string): Promise<void>;
}
