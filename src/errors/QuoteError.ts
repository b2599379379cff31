/** HTTP-style status codes a quote can fail with (see docs/errors.md). */
export type QuoteErrorStatus = 400 | 404 | 422 | 429 | 500 | 503

/** Stable machine-readable error codes, one per status. */
export type QuoteErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'unprocessable'
  | 'rate_limited'
  | 'internal_error'
  | 'unavailable'

/** One offending request parameter. */
export type ParamIssue = { param: string; message: string }

const codeOf: Record<QuoteErrorStatus, QuoteErrorCode> = {
  400: 'invalid_request',
  404: 'not_found',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
}

export type QuoteErrorParameters = {
  statusCode: QuoteErrorStatus
  message: string
  details?: ParamIssue[] | null
  cause?: unknown
}

/**
 * The only error weft's public functions throw. `statusCode` and `code` follow
 * `decisions.md` §3; `details` lists each bad parameter for 400/422 and is
 * `null` otherwise. `toJSON()` gives the wire error body (a server adds `traceId`).
 *
 * @example
 * try { await getQuote(intent, source) } catch (e) {
 *   if (e instanceof QuoteError) console.log(e.statusCode, e.code, e.message)
 * }
 */
export class QuoteError extends Error {
  override readonly name: string = 'QuoteError'
  readonly statusCode: QuoteErrorStatus
  readonly code: QuoteErrorCode
  readonly details: ParamIssue[] | null
  /** The message without details, for log lines. */
  readonly shortMessage: string

  constructor({ statusCode, message, details = null, cause }: QuoteErrorParameters) {
    super(message, cause === undefined ? undefined : { cause })
    this.statusCode = statusCode
    this.code = codeOf[statusCode]
    this.details = details
    this.shortMessage = message
  }

  /** The error body of `quote-api.md` without `traceId` (servers add it). */
  toJSON(): { statusCode: QuoteErrorStatus; code: QuoteErrorCode; message: string; details: ParamIssue[] | null } {
    return { statusCode: this.statusCode, code: this.code, message: this.message, details: this.details }
  }
}

/** 400 with one entry per bad parameter. */
export function invalidParams(details: ParamIssue[]): QuoteError {
  return new QuoteError({ statusCode: 400, message: paramMessage('Invalid request', details), details })
}

/** 422 with one entry per parameter that is well-formed but cannot be traded. */
export function unprocessableParams(details: ParamIssue[]): QuoteError {
  return new QuoteError({ statusCode: 422, message: paramMessage('Unprocessable request', details), details })
}

function paramMessage(head: string, details: ParamIssue[]): string {
  return `${head}: ${details.map((d) => `${d.param} ${d.message}`).join('; ')}`
}

/** 404 `No route found`. */
export function noRoute(cause?: unknown): QuoteError {
  return new QuoteError({ statusCode: 404, message: 'No route found', details: null, cause })
}

/** 503: the liquidity source could not answer consistently. */
export function unavailable(message: string, cause?: unknown): QuoteError {
  return new QuoteError({ statusCode: 503, message, details: null, cause })
}

/**
 * 500 with an explicit message: the host's own data is wrong (a chain
 * configuration, a pool state, a snapshot), not the end user's request.
 */
export function hostError(message: string, cause?: unknown): QuoteError {
  return new QuoteError({ statusCode: 500, message, details: null, cause })
}

/** Runs `fn`, turning anything it throws that is not a QuoteError into one (500, no leak). */
export function guarded<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    throw toQuoteError(error)
  }
}

/** Wraps anything that is not already a QuoteError as a 500 that leaks no stack. */
export function toQuoteError(error: unknown): QuoteError {
  if (error instanceof QuoteError) return error
  return new QuoteError({ statusCode: 500, message: 'Internal error', details: null, cause: error })
}
