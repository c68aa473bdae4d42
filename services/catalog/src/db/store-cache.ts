/** What the read routes serve for one store, already encoded: forwarded as bytes, never re-parsed. */
export interface CachedStore {
  /** public Merchant JSON */
  merchant: Uint8Array;
  /** public menus JSON: an array holding the single menu */
  menus: Uint8Array;
  /** MerchantSnapshot JSON */
  snapshot: Uint8Array;
  /** epoch ms when this answer stops being true (a pause ends): not served after it */
  until?: number;
}

export interface StoreCacheOptions {
  /** safety net against a lost invalidation (e.g. during a NATS reconnect) */
  ttlMs: number;
  /** memory budget of the rendered bytes held; the oldest entries go first */
  maxBytes: number;
  now?: () => number;
}

/**
 * Per-replica cache of rendered stores. Every replica drops an entry when any replica announces an
 * edit of that store (core NATS broadcast, published after commit, on the same connection as the RPC
 * replies, so a read that follows an edit's answer always finds the entry gone). A load that raced
 * with an invalidation is not stored (generation check). Unknown stores are not cached.
 */
export class StoreCache {
  private readonly entries = new Map<string, { value: CachedStore; at: number; bytes: number }>();
  private generation = 0;
  private bytes = 0;
  private readonly now: () => number;

  constructor(
    private readonly load: (merchantId: string) => Promise<CachedStore | null>,
    private readonly opts: StoreCacheOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  async get(merchantId: string): Promise<CachedStore | null> {
    const e = this.entries.get(merchantId);
    if (
      e &&
      this.now() - e.at < this.opts.ttlMs &&
      !(e.value.until !== undefined && this.now() >= e.value.until)
    )
      return e.value;
    const generation = this.generation;
    const value = await this.load(merchantId);
    if (value && generation === this.generation) {
      this.drop(merchantId);
      const bytes = value.merchant.byteLength + value.menus.byteLength + value.snapshot.byteLength;
      if (bytes <= this.opts.maxBytes) {
        for (const oldest of this.entries.keys()) {
          if (this.bytes + bytes <= this.opts.maxBytes) break;
          this.drop(oldest);
        }
        this.entries.set(merchantId, { value, at: this.now(), bytes });
        this.bytes += bytes;
      }
    }
    return value;
  }

  invalidate(merchantId: string): void {
    this.generation++;
    this.drop(merchantId);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  private drop(merchantId: string): void {
    const e = this.entries.get(merchantId);
    if (!e) return;
    this.entries.delete(merchantId);
    this.bytes -= e.bytes;
  }
}
