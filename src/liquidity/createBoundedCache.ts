/** Options of {@link createBoundedCache}. */
export type CreateBoundedCacheParameters = {
  /** Entries kept at most; setting one more evicts the least recently used. */
  maxEntries: number
  /** Milliseconds an entry lives after it was set (`Infinity`: until evicted). */
  ttlMs: number
  /** The clock, injectable for tests. Default `Date.now`. */
  now?: () => number
}

/** A map with a size bound and an expiry: what a long-lived liquidity source may keep. */
export type BoundedCache<Key, Value> = {
  /** The value, or `undefined` when absent or expired (an expired entry is dropped). Marks the entry as recently used. */
  get(key: Key): Value | undefined
  /** Whether a live entry exists (does not mark it as used). */
  has(key: Key): boolean
  /** Sets or replaces an entry; its lifetime starts now. `ttlMs` overrides the cache's for this entry. */
  set(key: Key, value: Value, ttlMs?: number): void
  delete(key: Key): void
  /** Live and expired-but-not-yet-dropped entries. */
  readonly size: number
}

/**
 * A least-recently-used cache with a per-entry expiry. A `Map` keeps
 * insertion order, so re-inserting an entry on use makes the first key the
 * least recently used one: eviction is O(1) and nothing grows past
 * `maxEntries`, whatever a caller asks for (an attacker asking about a
 * million junk tokens costs at most `maxEntries` entries).
 *
 * @example
 * const cache = createBoundedCache<string, number>({ maxEntries: 2, ttlMs: 60_000 })
 * cache.set('a', 1)
 * cache.set('b', 2)
 * cache.get('a') // 1 (now the most recently used)
 * cache.set('c', 3) // evicts 'b'
 * cache.has('b') // false
 */
export function createBoundedCache<Key, Value>({ maxEntries, ttlMs, now = Date.now }: CreateBoundedCacheParameters): BoundedCache<Key, Value> {
  const entries = new Map<Key, { value: Value; expiresAt: number }>()
  const live = (key: Key) => {
    const entry = entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    return entry
  }
  return {
    get(key) {
      const entry = live(key)
      if (entry === undefined) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    has(key) {
      return live(key) !== undefined
    },
    set(key, value, entryTtlMs = ttlMs) {
      entries.delete(key)
      entries.set(key, { value, expiresAt: now() + entryTtlMs })
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as Key)
    },
    delete(key) {
      entries.delete(key)
    },
    get size() {
      return entries.size
    },
  }
}
