/** A limit: at most `limit` requests per fixed window of `windowMs` milliseconds. */
export type RateLimitRule = {
  limit: number
  windowMs: number
}

/** The answer to one counted request. */
export type RateLimitResult = {
  /** Whether this request is within the limit. */
  allowed: boolean
  limit: number
  /** Requests left in the current window after this one (0 once exceeded). */
  remaining: number
  /** Milliseconds until the current window ends and the count starts again. */
  resetMs: number
}

/**
 * Counts requests per key in fixed windows. The first request of a key opens
 * its window; the count restarts when the window ends. Two implementations:
 * `createMemoryRateLimiter` (one process) and `createRedisRateLimiter`
 * (counters shared by every instance that uses the same Redis).
 *
 * @example
 * const result = await limiter.hit('anonymous:203.0.113.7', { limit: 30, windowMs: 60_000 })
 * if (!result.allowed) console.log(`retry in ${Math.ceil(result.resetMs / 1000)} s`)
 */
export interface RateLimiter {
  readonly kind: 'memory' | 'redis'
  /**
   * Counts one request for `key` and says whether it is allowed. Counting and
   * deciding are one atomic step, so concurrent callers never both take the
   * last slot. Rejects when the store cannot answer (the server then lets the
   * request through: see the README).
   */
  hit(key: string, rule: RateLimitRule): Promise<RateLimitResult>
  /** Whether the store answers now (for `/healthz`). */
  isHealthy(): Promise<boolean>
  /** Releases timers and connections. */
  close(): Promise<void>
}

/** The result for the `count`-th request of a window. */
export function toRateLimitResult(count: number, rule: RateLimitRule, resetMs: number): RateLimitResult {
  return {
    allowed: count <= rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetMs: Math.max(0, resetMs),
  }
}
