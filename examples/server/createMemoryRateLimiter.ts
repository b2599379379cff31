import { type RateLimiter, type RateLimitRule, toRateLimitResult } from './rateLimiter.js'

export type CreateMemoryRateLimiterParameters = {
  /** Clock in ms (tests inject one). Default `Date.now`. */
  now?: () => number
  /** Expired windows are dropped every this many hits. Default 1,000. */
  sweepEvery?: number
}

type Window = { count: number; resetAt: number }

/**
 * A rate limiter whose counters live in this process: right for a single
 * instance. Behind a load balancer use `createRedisRateLimiter`, or each
 * instance would allow the full limit on its own.
 *
 * @example
 * const limiter = createMemoryRateLimiter()
 * await limiter.hit('anonymous:127.0.0.1', { limit: 3, windowMs: 60_000 }) // { allowed: true, remaining: 2, ... }
 */
export function createMemoryRateLimiter({ now = Date.now, sweepEvery = 1000 }: CreateMemoryRateLimiterParameters = {}): RateLimiter {
  const windows = new Map<string, Window>()
  let hits = 0

  const sweep = (time: number) => {
    for (const [key, window] of windows) if (window.resetAt <= time) windows.delete(key)
  }

  return {
    kind: 'memory',
    async hit(key: string, rule: RateLimitRule) {
      const time = now()
      if (++hits % sweepEvery === 0) sweep(time)
      let window = windows.get(key)
      if (!window || window.resetAt <= time) {
        window = { count: 0, resetAt: time + rule.windowMs }
        windows.set(key, window)
      }
      window.count += 1
      return toRateLimitResult(window.count, rule, window.resetAt - time)
    },
    async isHealthy() {
      return true
    },
    async close() {
      windows.clear()
    },
  }
}
