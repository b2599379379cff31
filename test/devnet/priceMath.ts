import { parseUnits } from 'viem'

// Float math to *set up* pools at realistic prices. Nothing here needs to be
// exact: the pools' own integer math decides every amount that moves.

/** Uniswap V3 TickMath bounds. */
export const MIN_TICK = -887272
export const MAX_TICK = 887272

/** A token's USD price and decimals: all the pricing a pool setup needs. */
export type PricedToken = { priceUsd: number; decimals: number }

/**
 * Price of one raw unit of `token0` in raw units of `token1` (Uniswap's `P`).
 *
 * @example
 * getRawPrice({ priceUsd: 3000, decimals: 18 }, { priceUsd: 1, decimals: 6 }) // 3e-9
 */
export function getRawPrice(token0: PricedToken, token1: PricedToken): number {
  return (token0.priceUsd / token1.priceUsd) * 10 ** (token1.decimals - token0.decimals)
}

/**
 * `sqrt(price) * 2^96`, floored, for `UniswapV3Pool.initialize`.
 *
 * @example
 * getSqrtPriceX96(1) // 79228162514264337593543950336n
 */
export function getSqrtPriceX96(price: number): bigint {
  return BigInt(Math.floor(Math.sqrt(price) * 2 ** 96))
}

/**
 * The usable tick range of a spacing: MIN_TICK/MAX_TICK rounded inwards.
 *
 * @example
 * getFullRangeTicks(60) // [-887220, 887220]
 */
export function getFullRangeTicks(tickSpacing: number): [number, number] {
  return [Math.ceil(MIN_TICK / tickSpacing) * tickSpacing, Math.floor(MAX_TICK / tickSpacing) * tickSpacing]
}

/**
 * The initializable tick nearest to a raw price, clamped to the full range.
 *
 * @example
 * getNearestTick(1.0001 ** 100, 60) // 120
 */
export function getNearestTick(price: number, tickSpacing: number): number {
  const [lowest, highest] = getFullRangeTicks(tickSpacing)
  const tick = Math.round(Math.log(price) / Math.log(1.0001) / tickSpacing) * tickSpacing
  return Math.min(highest, Math.max(lowest, tick))
}

/**
 * The liquidity `L` of a position in [tickLower, tickUpper) worth about `usd`
 * at raw price `price`, with the usual V3 amounts per unit of L
 * (in range: `1/√P − 1/√Pb` of token0 and `√P − √Pa` of token1).
 *
 * @example
 * getLiquidityForUsd({ price: 3e-9, tickLower: -887270, tickUpper: 887270, usd: 1e6, token0: weth, token1: usdc })
 */
export function getLiquidityForUsd(args: {
  price: number
  tickLower: number
  tickUpper: number
  usd: number
  token0: PricedToken
  token1: PricedToken
}): bigint {
  const { price, tickLower, tickUpper, usd, token0, token1 } = args
  const sqrtP = Math.sqrt(price)
  const sqrtA = 1.0001 ** (tickLower / 2)
  const sqrtB = 1.0001 ** (tickUpper / 2)
  let amount0 = 0
  let amount1 = 0
  if (sqrtP <= sqrtA) amount0 = 1 / sqrtA - 1 / sqrtB
  else if (sqrtP >= sqrtB) amount1 = sqrtB - sqrtA
  else {
    amount0 = 1 / sqrtP - 1 / sqrtB
    amount1 = sqrtP - sqrtA
  }
  const usdPerLiquidity =
    (amount0 * token0.priceUsd) / 10 ** token0.decimals + (amount1 * token1.priceUsd) / 10 ** token1.decimals
  return BigInt(Math.floor(usd / usdPerLiquidity))
}

/**
 * Whole tokens (a float) to raw units, exact for round numbers.
 *
 * @example
 * toRawAmount(1.5, 6) // 1500000n
 */
export function toRawAmount(tokens: number, decimals: number): bigint {
  return parseUnits(tokens.toFixed(Math.min(decimals, 12)), decimals)
}
