import type { Address } from 'viem'
import { type PairIndex, getMidRate } from './prices.js'

/**
 * A plain non-negative decimal: digits with an optional fraction and exponent (`3012.5`, `.25`,
 * `1e-6`). `Number()` alone would also take `''`, `' 3 '`, `'0x10'` and `'Infinity'`.
 */
const DECIMAL = /^(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/

/**
 * A host-given price of one whole native token in whole buy tokens (`options.nativePriceInBuyToken`)
 * as a number; undefined when it is not a finite, non-negative decimal number or string.
 *
 * @example
 * parseNativePrice('3012.5') // 3012.5
 * parseNativePrice(-1) // undefined
 */
export function parseNativePrice(value: unknown): number | undefined {
  const price = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value) ? Number(value) : Number.NaN
  return Number.isFinite(price) && price >= 0 ? price : undefined
}

/** What the native token's value in the output is read from: the pools, and the host's price when it gave one. */
export type NativeRateParameters = {
  pairs: PairIndex
  /** The chain's wrapped native token (18 decimals, as the native token). */
  weth: Address
  tokenOut: Address
  tokenOutDecimals: number
  connectors: readonly Address[]
  /** The host's price of one whole native token in whole output tokens, already checked by `parseNativePrice`. */
  hostPrice: number | string | undefined
}

/**
 * The native token's value in raw output units per wei, which gas-aware routing multiplies by the
 * gas price. The host's price wins over the pools' mid rate (an integrator who passes one means it,
 * and it is the only price when no pool path links the native token to the output); the output
 * being the native token itself is worth one either way. 0 when neither gives a price: the route
 * is then chosen gas-free.
 *
 * @example
 * getNativeRate({ pairs, weth, tokenOut: usdc, tokenOutDecimals: 6, connectors, hostPrice: '3000' }) // 3e-9
 */
export function getNativeRate(parameters: NativeRateParameters): number {
  const { pairs, weth, tokenOut, tokenOutDecimals, connectors, hostPrice } = parameters
  const price = tokenOut === weth ? undefined : parseNativePrice(hostPrice)
  if (price !== undefined) return price * 10 ** (tokenOutDecimals - 18)
  return getMidRate(pairs, weth, tokenOut, connectors) ?? 0
}
