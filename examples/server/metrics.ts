import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** The server's Prometheus metrics, on a registry of its own (two servers in one process do not collide). */
export type ServerMetrics = {
  registry: Registry
  /** Every answered request, by route template, method, status and caller kind. */
  requests: Counter<'route' | 'method' | 'status' | 'app_kind'>
  /** Wall time of every request, by route template. */
  requestDuration: Histogram<'route'>
  /** Wall time of `GET /v1/quote` past the rate limit (parse + getQuote), by outcome: `ok` or the error code. */
  quoteDuration: Histogram<'outcome'>
  /** Error answers by route template and error code. */
  errors: Counter<'route' | 'code'>
  /** Requests let through because the rate-limit store failed. */
  rateLimiterFailures: Counter<string>
  /** Quotes refused or cut with 503 to keep the server responsive, by reason (queue_full, queue_wait, budget, closing). */
  overload: Counter<'reason'>
}

/**
 * Creates the metrics of one server.
 *
 * @example
 * const metrics = createMetrics({ defaultMetrics: false })
 * metrics.quoteDuration.observe({ outcome: 'ok' }, 0.004)
 * await metrics.registry.metrics() // Prometheus text
 */
export function createMetrics({ defaultMetrics }: { defaultMetrics: boolean }): ServerMetrics {
  const registry = new Registry()
  if (defaultMetrics) collectDefaultMetrics({ register: registry })
  const registers = [registry]
  return {
    registry,
    requests: new Counter({
      name: 'weft_http_requests_total',
      help: 'HTTP requests answered, by route, method, status and caller kind',
      labelNames: ['route', 'method', 'status', 'app_kind'],
      registers,
    }),
    requestDuration: new Histogram({
      name: 'weft_http_request_duration_seconds',
      help: 'HTTP request latency in seconds, by route',
      labelNames: ['route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    quoteDuration: new Histogram({
      name: 'weft_quote_duration_seconds',
      help: 'GET /v1/quote latency in seconds (parse + getQuote), by outcome (ok or error code)',
      labelNames: ['outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    errors: new Counter({
      name: 'weft_errors_total',
      help: 'Error responses by route and error code',
      labelNames: ['route', 'code'],
      registers,
    }),
    overload: new Counter({
      name: 'weft_quote_overload_total',
      help: 'Quotes answered 503 to keep the server responsive, by reason: queue_full, queue_wait, budget, closing',
      labelNames: ['reason'],
      registers,
    }),
    rateLimiterFailures: new Counter({
      name: 'weft_rate_limiter_failures_total',
      help: 'Requests let through because the rate-limit store did not answer',
      registers,
    }),
  }
}
