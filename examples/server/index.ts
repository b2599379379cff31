// The reference HTTP server around weft: import from here.
export { createServer, startServer, type StartedServer, type WeftServer } from './createServer.js'
export {
  type CallerKind,
  type IssuedApp,
  type LiquidityConfig,
  type LogEntry,
  type OverloadSetting,
  type RateLimitSetting,
  type ResolvedServerConfig,
  type ServerConfig,
  defaultRateLimits,
  resolveServerConfig,
  sha256Hex,
} from './config.js'
export { loadAppsFile, loadServerConfig, type LoadedServerConfig, type LoadServerConfigParameters } from './loadServerConfig.js'
export type { RateLimiter, RateLimitResult, RateLimitRule } from './rateLimiter.js'
export { createMemoryRateLimiter, type CreateMemoryRateLimiterParameters } from './createMemoryRateLimiter.js'
export { createRedisRateLimiter, type CreateRedisRateLimiterParameters } from './createRedisRateLimiter.js'
export { type ApiKeyIndex, type Caller, type CallerCounter, getClientAddress, indexApiKeys, resolveCaller } from './resolveCaller.js'
export { createLiquidity, type ServedLiquidity } from './createLiquidity.js'
export { OverloadError, type OverloadReason, type PooledQuote, type QuoteLane, type QuotePool, createQuotePool } from './createQuotePool.js'
export { createMetrics, type ServerMetrics } from './metrics.js'
export { openApiDocument } from './openapi.js'
