import type { IncomingMessage } from 'node:http'
import { type CallerKind, type ResolvedApp, appIdPattern } from './config.js'
import type { RateLimitRule } from './rateLimiter.js'

/** Who a request comes from, and which counter and limit apply to it. */
export type Caller = {
  kind: CallerKind
  /** The `x-app-id` value when it is a well-formed id, else null. */
  appId: string | null
  /** The counter key: per client address for anonymous and self-chosen ids, per app id for issued ids. */
  key: string
  rule: RateLimitRule
  /** The client address the key uses (after trusted proxies). */
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

/**
 * Classifies a request by its `x-app-id` header. No header (or a malformed
 * one, which `parseQuoteParams` refuses anyway) is anonymous; an id in the
 * operator's issued apps is issued; any other id is self-chosen. Self-chosen
 * ids share one counter per client address, so switching ids does not reset
 * the limit; issued ids count per id wherever the requests come from.
 *
 * @example
 * resolveCaller(request, { apps, rateLimits, trustProxyHops: 0 }).kind // 'self-chosen'
 */
export function resolveCaller(
  request: IncomingMessage,
  {
    apps,
    rateLimits,
    trustProxyHops,
  }: { apps: ReadonlyMap<string, ResolvedApp>; rateLimits: Readonly<Record<CallerKind, RateLimitRule>>; trustProxyHops: number },
): Caller {
  const clientAddress = getClientAddress(request, trustProxyHops)
  const header = request.headers['x-app-id']
  const value = Array.isArray(header) ? header.join(', ') : header
  const appId = value !== undefined && appIdPattern.test(value) ? value : null
  if (appId === null) return { kind: 'anonymous', appId, key: `anonymous:${clientAddress}`, rule: rateLimits.anonymous, clientAddress }
  const app = apps.get(appId)
  if (app) return { kind: 'issued', appId, key: `issued:${appId}`, rule: app.rule ?? rateLimits.issued, clientAddress }
  return { kind: 'self-chosen', appId, key: `self-chosen:${clientAddress}`, rule: rateLimits['self-chosen'], clientAddress }
}
