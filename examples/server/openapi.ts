// The OpenAPI 3.1 document of GET /v1/quote and GET /v1/chains, served at /openapi.json.
// Shapes follow /work/shared/spec/quote-api.md field for field; status codes and the
// error body follow decisions.md §3. Response schemas are closed (additionalProperties
// false) so the tests can check real bodies against them.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] })

const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed in the current window for this caller.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'The limit as `<limit>;w=<window seconds>`.', schema: { type: 'string' } },
  'X-Trace-Id': { description: 'The trace id of the request (also in error bodies and the server log).', schema: { type: 'string' } },
}

const errorResponse = (description: string, headers: object = { 'X-Trace-Id': rateLimitHeaders['X-Trace-Id'] }) => ({
  description,
  headers,
  content: { 'application/json': { schema: ref('Error') } },
})

const bpsParameter = (name: string, description: string, maximum: number) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'integer', minimum: 0, maximum },
})

const addressParameter = (name: string, required: boolean, description: string) => ({
  name,
  in: 'query',
  required,
  description,
  schema: ref('AddressInput'),
})

const appIdHeader = {
  name: 'x-app-id',
  in: 'header',
  required: false,
  description:
    'Identifies the calling app. Absent: the strictest rate limit. Present: a looser limit on the same per-address counter. An id issued by the operator gets its own limit and fee configuration only with its x-api-key or from one of its allowed origins.',
  schema: { type: 'string', pattern: '^[\\x20-\\x7e]{1,128}$' },
}

const apiKeyHeader = {
  name: 'x-api-key',
  in: 'header',
  required: false,
  description: 'A secret the operator issued to an app: the request is that app\'s (its limit and fees), with or without x-app-id. A key this server did not issue is ignored.',
  schema: { type: 'string' },
}

const commonErrors = {
  '429': errorResponse('Rate limit exceeded (`rate_limited`); see `Retry-After`.', {
    ...rateLimitHeaders,
    'Retry-After': { description: 'Seconds until the window ends.', schema: { type: 'integer' } },
  }),
  '500': errorResponse('Internal error (`internal_error`).'),
}

/** The OpenAPI 3.1 document of the weft quote server (`GET /openapi.json`). */
export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'weft quote API',
    version: '1.0.0',
    description:
      'Read-only routing and quoting for token swaps on EVM chains: a swap intent in, a ready-to-sign fill plan out. The service never executes trades; the caller signs and sends `transaction`.',
  },
  paths: {
    '/v1/quote': {
      get: {
        operationId: 'getQuote',
        summary: 'Quote a swap',
        description:
          'Exactly one of `sellAmount` and `buyAmount`. Integers are base-10 strings in the token\'s smallest unit; the native token is the zero address.',
        parameters: [
          { name: 'chainId', in: 'query', required: true, description: 'Chain on which the trade is executed.', schema: { type: 'integer', minimum: 1 } },
          addressParameter('sellToken', true, 'Token sold.'),
          addressParameter('buyToken', true, 'Token bought.'),
          { name: 'sellAmount', in: 'query', required: false, description: 'Amount to sell. Mutually exclusive with buyAmount.', schema: ref('DecString') },
          { name: 'buyAmount', in: 'query', required: false, description: 'Amount to buy. Mutually exclusive with sellAmount.', schema: ref('DecString') },
          { ...bpsParameter('slippageBps', 'Maximum accepted slippage in basis points.', 10000), schema: { type: 'integer', minimum: 0, maximum: 10000, default: 100 } },
          {
            ...bpsParameter('priceImpactLimitBps', 'Maximum tolerated price impact in basis points.', 10000),
            schema: { type: 'integer', minimum: 0, maximum: 10000, default: 1000 },
          },
          addressParameter('receiver', false, 'Recipient of the output tokens; defaults to the caller (msg.sender).'),
          bpsParameter('feeBps', 'Integrator swap fee in basis points.', 1000),
          addressParameter('feeRecipient', false, 'Required when feeBps is set.'),
          bpsParameter('surplusFeeBps', 'Integrator share of surplus in basis points.', 10000),
          addressParameter('surplusFeeRecipient', false, 'Required when surplusFeeBps is set.'),
          bpsParameter('referralFeeBps', 'Referral fee in basis points.', 1000),
          addressParameter('referralFeeRecipient', false, 'Required when referralFeeBps is set.'),
          appIdHeader,
          apiKeyHeader,
        ],
        responses: {
          '200': {
            description: 'The quote.',
            headers: rateLimitHeaders,
            content: { 'application/json': { schema: ref('Quote') } },
          },
          '400': errorResponse(
            '`invalid_request`: a missing or malformed parameter, a chain that is not supported, or a price impact above priceImpactLimitBps ("Price impact of <N> bps too high (limit = <M> bps)", details null).',
          ),
          '404': errorResponse('`not_found`: "No route found" (details null).'),
          '422': errorResponse('`unprocessable`: well-formed but cannot be traded (the same token twice, an unknown token, a zero-address receiver).'),
          ...commonErrors,
          '503': errorResponse(
            '`unavailable`: the liquidity source cannot answer, the server is saturated ("Server busy: …; retry shortly", with Retry-After), or the quote ran past the server\'s time budget.',
            {
              'X-Trace-Id': rateLimitHeaders['X-Trace-Id'],
              'Retry-After': { description: 'Seconds to wait, when the server is saturated.', schema: { type: 'integer' } },
            },
          ),
        },
      },
    },
    '/v1/chains': {
      get: {
        operationId: 'getChains',
        summary: 'List the supported chains',
        parameters: [appIdHeader, apiKeyHeader],
        responses: {
          '200': {
            description: 'The chains currently supported.',
            headers: rateLimitHeaders,
            content: { 'application/json': { schema: ref('Chains') } },
          },
          ...commonErrors,
        },
      },
    },
  },
  components: {
    schemas: {
      DecString: { type: 'string', pattern: '^[0-9]+$', description: 'A base-10 integer in the token\'s smallest unit.' },
      Address: { type: 'string', pattern: '^0x[0-9a-f]{40}$', description: 'An EVM address, lowercase.' },
      AddressInput: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', description: 'An EVM address in any letter case (not checksum-verified).' },
      Hex: { type: 'string', pattern: '^0x([0-9a-fA-F]{2})*$' },
      Token: {
        type: 'object',
        additionalProperties: false,
        required: ['address', 'symbol', 'decimals', 'transferFeeBps', 'priceUsd'],
        properties: {
          address: ref('Address'),
          symbol: { type: 'string' },
          decimals: { type: 'integer', minimum: 0, maximum: 255 },
          transferFeeBps: { type: 'number', minimum: 0 },
          priceUsd: { type: ['number', 'null'] },
        },
      },
      Swap: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'address', 'protocol', 'fork', 'tokenIn', 'tokenOut', 'amountIn', 'amountOut'],
        properties: {
          key: { type: 'string', description: 'Unique key of the pool (its address, or the pool id of a singleton vault).' },
          address: ref('Address'),
          protocol: { type: 'string' },
          fork: { type: 'string' },
          tokenIn: ref('Address'),
          tokenOut: ref('Address'),
          amountIn: ref('DecString'),
          amountOut: ref('DecString'),
        },
      },
      Route: {
        type: 'object',
        additionalProperties: false,
        required: ['swaps', 'amountIn', 'amountOut'],
        properties: {
          swaps: { type: 'array', description: 'The paths; each an ordered sequence of swaps.', items: { type: 'array', items: ref('Swap') } },
          amountIn: ref('DecString'),
          amountOut: ref('DecString'),
        },
      },
      Approval: {
        type: 'object',
        additionalProperties: false,
        required: ['token', 'amount', 'spender'],
        properties: { token: ref('Address'), amount: ref('DecString'), spender: ref('Address') },
      },
      Transaction: {
        type: 'object',
        additionalProperties: false,
        required: ['to', 'data', 'value'],
        properties: { to: ref('Address'), data: ref('Hex'), value: ref('DecString') },
      },
      Fee: {
        type: 'object',
        additionalProperties: false,
        required: ['token', 'amount', 'recipient'],
        properties: { token: ref('Address'), amount: ref('DecString'), recipient: ref('Address') },
      },
      Quote: {
        type: 'object',
        additionalProperties: false,
        required: [
          'blockNumber', 'amountIn', 'amountOut', 'minimumAmountOut', 'price', 'priceImpactBps', 'description', 'tokens',
          'route', 'approval', 'transaction', 'gasEstimate', 'fees', 'id', 'appId',
        ],
        properties: {
          blockNumber: { type: 'integer', minimum: 0 },
          amountIn: ref('DecString'),
          amountOut: ref('DecString'),
          minimumAmountOut: ref('DecString'),
          price: { type: ['number', 'null'], description: 'Spot rate that priceImpactBps is measured against: whole tokens of output per whole token of input.' },
          priceImpactBps: { type: 'number', minimum: 0 },
          description: { type: 'string' },
          tokens: { type: 'array', items: ref('Token') },
          route: ref('Route'),
          approval: { ...nullable(ref('Approval')), description: 'Null when the sell token is native.' },
          transaction: ref('Transaction'),
          gasEstimate: { type: 'integer', minimum: 0 },
          fees: { type: 'array', items: ref('Fee') },
          id: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$', description: 'UUID v7.' },
          appId: { type: ['string', 'null'] },
        },
      },
      Chain: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name'],
        properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
      },
      Chains: {
        type: 'object',
        additionalProperties: false,
        required: ['chains'],
        properties: { chains: { type: 'array', items: ref('Chain') } },
      },
      ParamIssue: {
        type: 'object',
        additionalProperties: false,
        required: ['param', 'message'],
        properties: { param: { type: 'string' }, message: { type: 'string' } },
      },
      Error: {
        type: 'object',
        additionalProperties: false,
        required: ['statusCode', 'code', 'traceId', 'message', 'details'],
        properties: {
          statusCode: { type: 'integer', enum: [400, 404, 405, 422, 429, 500, 503] },
          code: {
            type: 'string',
            enum: ['invalid_request', 'not_found', 'method_not_allowed', 'unprocessable', 'rate_limited', 'internal_error', 'unavailable'],
          },
          traceId: { type: 'string', pattern: '^[0-9a-f]{32}$' },
          message: { type: 'string' },
          details: { ...nullable({ type: 'array', items: ref('ParamIssue') }), description: 'One entry per offending parameter for 400/422; null otherwise.' },
        },
      },
    },
  },
} as const
