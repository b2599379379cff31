import type { IncomingMessage } from 'node:http'
import { type CallerKind, type ResolvedApp, apiKeyPattern, appIdPattern, sha256Hex } from './config.js'
import type { RateLimitRule } from './rateLimiter.js'

/** One budget a request counts against: a counter key, its limit, and whose budget it is (for the 429 message). */
export type CallerCounter = { key: string; rule: RateLimitRule; who: string }

/** Who a request comes from, and which counters and limits apply to it. */
export type Caller = {
  kind: CallerKind
  /**
   * The app id the quote carries: the `x-app-id` value when it is well formed, or the
   * app an `x-api-key` belongs to (the key wins over a different `x-app-id`); else null.
   */
  appId: string | null
  /** How an issued caller proved it is the app; null for the other kinds. */
  authenticatedBy: 'api-key' | 'origin' | null
  /**
   * Every budget the request counts against; it is refused when any is spent.
   * Anonymous and self-chosen requests share ONE counter per client address
   * (only the limit differs), so sending an id does not open a second budget.
   */
  counters: readonly CallerCounter[]
  /** The client address the per-address counter uses (after trusted proxies). */
  clientAddress: string
}

/**
 * The client's address: the socket's, or with `trustProxyHops` = n the entry
 * n places from the right of `x-forwarded-for` (entries further left are
 * whatever the client claimed, so they are not trusted).
 */
export function getClientAddress(request: IncomingMessage, trustProxyHops: number): string {
  const socketAddress = request.socket.remoteAddress ?? 'unknown'
  if (trustProxyHops === 0) return socketAddress
  const header = request.headers['x-forwarded-for']
  const entries = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
  return entries[entries.length - trustProxyHops] ?? entries[0] ?? socketAddress
}

/** Which issued app each API key digest belongs to. */
export type ApiKeyIndex = ReadonlyMap<string, string>

/**
 * Indexes the issued apps' API key digests (the configuration has already
 * refused a key shared by two apps).
 *
 * @example
 * const keys = indexApiKeys(apps)
 * keys.get(sha256Hex(request.headers['x-api-key'])) // 'acme-wallet'
 */
export function indexApiKeys(apps: ReadonlyMap<string, ResolvedApp>): ApiKeyIndex {
  const index = new Map<string, string>()
  for (const [id, app] of apps) for (const digest of app.apiKeySha256) index.set(digest, id)
  return index
}

const headerValue = (request: IncomingMessage, name: string): string | undefined => {
  const header = request.headers[name]
  return Array.isArray(header) ? header.join(', ') : header
}

/**
 * Classifies a request and lists the budgets it counts against:
 * - an `x-api-key` the operator issued: the key's app, counted per app id
 *   across addresses (server-to-server callers proxy many users);
 * - an issued `x-app-id` from one of the app's `allowedOrigins`: the app, counted
 *   per app id AND against the client address's self-chosen budget (anyone can
 *   forge `Origin` outside a browser, so one address cannot drain the app);
 * - any other well-formed `x-app-id`, issued ones included: self-chosen;
 * - no (or a malformed) `x-app-id`: anonymous.
 * Anonymous and self-chosen requests share one counter per client address:
 * anonymous ones are refused once it reaches the anonymous limit, self-chosen
 * ones once it reaches theirs, so an address never gets the two budgets added.
 * An `x-api-key` the server did not issue is ignored (clients such as spanDEX
 * send their own key to every provider).
 *
 * @example
 * resolveCaller(request, { apps, apiKeys: indexApiKeys(apps), rateLimits, trustProxyHops: 0 }).kind // 'self-chosen'
 */
export function resolveCaller(
  request: IncomingMessage,
  {
    apps,
    apiKeys,
    rateLimits,
    trustProxyHops,
  }: {
    apps: ReadonlyMap<string, ResolvedApp>
    apiKeys: ApiKeyIndex
    rateLimits: Readonly<Record<CallerKind, RateLimitRule>>
    trustProxyHops: number
  },
): Caller {
  const clientAddress = getClientAddress(request, trustProxyHops)
  const addressKey = `address:${clientAddress}`
  const apiKey = headerValue(request, 'x-api-key')
  const keyOwner = apiKey !== undefined && apiKeyPattern.test(apiKey) ? apiKeys.get(sha256Hex(apiKey)) : undefined
  if (keyOwner !== undefined) {
    const app = apps.get(keyOwner)
    if (app)
      return {
        kind: 'issued',
        appId: keyOwner,
        authenticatedBy: 'api-key',
        counters: [{ key: `issued:${keyOwner}`, rule: app.rule ?? rateLimits.issued, who: `app ${keyOwner}` }],
        clientAddress,
      }
  }
  const value = headerValue(request, 'x-app-id')
  const appId = value !== undefined && appIdPattern.test(value) ? value : null
  if (appId === null)
    return {
      kind: 'anonymous',
      appId,
      authenticatedBy: null,
      counters: [{ key: addressKey, rule: rateLimits.anonymous, who: 'anonymous callers' }],
      clientAddress,
    }
  const selfChosen = { key: addressKey, rule: rateLimits['self-chosen'], who: 'self-chosen app ids' }
  const app = apps.get(appId)
  const origin = headerValue(request, 'origin')
  if (app && origin !== undefined && app.allowedOrigins.has(origin))
    return {
      kind: 'issued',
      appId,
      authenticatedBy: 'origin',
      counters: [{ key: `issued:${appId}`, rule: app.rule ?? rateLimits.issued, who: `app ${appId}` }, selfChosen],
      clientAddress,
    }
  return { kind: 'self-chosen', appId, authenticatedBy: null, counters: [selfChosen], clientAddress }
}
