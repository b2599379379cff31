import { describe, expect, it } from 'vitest'
import { createBoundedCache } from './createBoundedCache.js'

describe('createBoundedCache', () => {
  it('never holds more than maxEntries: the least recently used goes first', () => {
    const cache = createBoundedCache<string, number>({ maxEntries: 3, ttlMs: Number.POSITIVE_INFINITY })
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i)
    expect(cache.get('a')).toBe(0) // 'a' is now the most recently used
    cache.set('d', 3)
    expect(cache.has('b')).toBe(false)
    expect(['a', 'c', 'd'].map((key) => cache.get(key))).toEqual([0, 2, 3])
    for (let i = 0; i < 10_000; i++) cache.set(`junk-${i}`, i)
    expect(cache.size).toBe(3)
  })

  it('expires entries after ttlMs, or the per-entry ttl given to set', () => {
    let now = 1_000
    const cache = createBoundedCache<string, string>({ maxEntries: 10, ttlMs: 500, now: () => now })
    cache.set('long', 'x')
    cache.set('short', 'y', 100)
    now += 100
    expect(cache.get('short')).toBeUndefined()
    expect(cache.get('long')).toBe('x')
    now += 400
    expect(cache.has('long')).toBe(false)
    expect(cache.size).toBe(0) // each expired entry is dropped when it is next looked up
  })

  it('replacing an entry restarts its lifetime; delete removes it', () => {
    let now = 0
    const cache = createBoundedCache<string, number>({ maxEntries: 10, ttlMs: 100, now: () => now })
    cache.set('k', 1)
    now = 90
    cache.set('k', 2)
    now = 150
    expect(cache.get('k')).toBe(2)
    cache.delete('k')
    expect(cache.has('k')).toBe(false)
  })
})
