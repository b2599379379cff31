// The default devnet market: which tokens exist, at what USD prices, and which
// pools hold how much of them. Plain data; deployDevnet.ts turns it into
// transactions and priceMath.ts into ticks and liquidity.

/** Symbols of the devnet tokens. */
export type DevnetSymbol = 'WETH' | 'USDC' | 'USDT' | 'DAI' | 'WBTC' | 'LINK' | 'PEPE'

/** A devnet token: WETH is the real WETH9, the others are TestTokens. */
export type DevnetTokenSpec = {
  symbol: DevnetSymbol
  name: string
  decimals: number
  /** The USD price every pool is initialised at. */
  priceUsd: number
}

/**
 * The devnet tokens, in deployment order (which fixes their addresses on a
 * fresh anvil). Long-tail LINK and PEPE only pair with WETH and USDC.
 */
export const DEVNET_TOKENS: readonly DevnetTokenSpec[] = [
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceUsd: 3000 },
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, priceUsd: 1 },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6, priceUsd: 1 },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, priceUsd: 1 },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, priceUsd: 60_000 },
  { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, priceUsd: 15 },
  { symbol: 'PEPE', name: 'Pepe', decimals: 18, priceUsd: 0.00001 },
]

/**
 * A V3 position: `full` range, or a price range given as multipliers of the
 * pool's initial price of `pair[0]` in `pair[1]` ([0.9, 1.1]: ±10%). A range
 * entirely above or below 1 holds one token only and leaves a gap.
 */
export type DevnetPositionSpec = {
  range: 'full' | readonly [lower: number, upper: number]
  /** Approximate value of the position at the initial price, in USD. */
  usd: number
}

/** A pool of the default universe. */
export type DevnetPoolSpec =
  | {
      family: 'uniswapV2'
      pair: readonly [DevnetSymbol, DevnetSymbol]
      /** Total value of the reserves (half on each side), in USD. */
      usd: number
    }
  | {
      family: 'uniswapV3'
      pair: readonly [DevnetSymbol, DevnetSymbol]
      /** Fee tier in hundredths of a bip: 100, 500, 3000 or 10000. */
      fee: number
      positions: readonly DevnetPositionSpec[]
    }

/**
 * The default pools. WETH/USDC exists on V2 and all four V3 tiers so splits
 * pay; stable pairs are concentrated on the low tiers; LINK/WETH has gaps on
 * both sides of the active full-range position; LINK/USDC has no full-range
 * position at all, so large trades run through empty tick ranges.
 */
export const DEVNET_POOLS: readonly DevnetPoolSpec[] = [
  { family: 'uniswapV2', pair: ['WETH', 'USDC'], usd: 12_000_000 },
  { family: 'uniswapV2', pair: ['WETH', 'USDT'], usd: 3_000_000 },
  { family: 'uniswapV2', pair: ['WETH', 'DAI'], usd: 2_000_000 },
  { family: 'uniswapV2', pair: ['WBTC', 'WETH'], usd: 6_000_000 },
  { family: 'uniswapV2', pair: ['USDC', 'USDT'], usd: 4_000_000 },
  { family: 'uniswapV2', pair: ['DAI', 'USDC'], usd: 2_000_000 },
  { family: 'uniswapV2', pair: ['LINK', 'WETH'], usd: 1_500_000 },
  { family: 'uniswapV2', pair: ['PEPE', 'WETH'], usd: 1_000_000 },

  {
    family: 'uniswapV3',
    pair: ['WETH', 'USDC'],
    fee: 100,
    positions: [{ range: [0.99, 1.01], usd: 1_000_000 }],
  },
  {
    family: 'uniswapV3',
    pair: ['WETH', 'USDC'],
    fee: 500,
    positions: [
      { range: 'full', usd: 2_000_000 },
      { range: [0.9, 1.1], usd: 5_000_000 },
      { range: [0.97, 1.03], usd: 3_000_000 },
      { range: [1.2, 1.5], usd: 1_000_000 },
    ],
  },
  {
    family: 'uniswapV3',
    pair: ['WETH', 'USDC'],
    fee: 3000,
    positions: [
      { range: 'full', usd: 4_000_000 },
      { range: [0.5, 2], usd: 2_000_000 },
    ],
  },
  { family: 'uniswapV3', pair: ['WETH', 'USDC'], fee: 10000, positions: [{ range: 'full', usd: 300_000 }] },
  {
    family: 'uniswapV3',
    pair: ['WETH', 'USDT'],
    fee: 500,
    positions: [
      { range: 'full', usd: 500_000 },
      { range: [0.85, 1.15], usd: 2_000_000 },
    ],
  },
  { family: 'uniswapV3', pair: ['WETH', 'DAI'], fee: 3000, positions: [{ range: 'full', usd: 800_000 }] },
  {
    family: 'uniswapV3',
    pair: ['USDC', 'USDT'],
    fee: 100,
    positions: [
      { range: [0.995, 1.005], usd: 5_000_000 },
      { range: [0.98, 1.02], usd: 2_000_000 },
    ],
  },
  { family: 'uniswapV3', pair: ['USDC', 'USDT'], fee: 500, positions: [{ range: 'full', usd: 1_000_000 }] },
  {
    family: 'uniswapV3',
    pair: ['DAI', 'USDC'],
    fee: 100,
    positions: [
      { range: 'full', usd: 200_000 },
      { range: [0.998, 1.002], usd: 3_000_000 },
    ],
  },
  { family: 'uniswapV3', pair: ['DAI', 'USDT'], fee: 500, positions: [{ range: [0.99, 1.01], usd: 500_000 }] },
  {
    family: 'uniswapV3',
    pair: ['WBTC', 'WETH'],
    fee: 500,
    positions: [
      { range: 'full', usd: 1_000_000 },
      { range: [0.8, 1.25], usd: 4_000_000 },
    ],
  },
  { family: 'uniswapV3', pair: ['WBTC', 'WETH'], fee: 3000, positions: [{ range: 'full', usd: 2_000_000 }] },
  {
    family: 'uniswapV3',
    pair: ['WBTC', 'USDC'],
    fee: 3000,
    positions: [
      { range: 'full', usd: 500_000 },
      { range: [0.7, 1.4], usd: 3_000_000 },
    ],
  },
  {
    family: 'uniswapV3',
    pair: ['LINK', 'WETH'],
    fee: 3000,
    positions: [
      { range: 'full', usd: 500_000 },
      { range: [0.8, 0.95], usd: 300_000 },
      { range: [1.05, 1.3], usd: 300_000 },
    ],
  },
  {
    family: 'uniswapV3',
    pair: ['LINK', 'USDC'],
    fee: 10000,
    positions: [
      { range: [0.5, 0.8], usd: 100_000 },
      { range: [0.9, 1.1], usd: 200_000 },
      { range: [1.25, 2], usd: 100_000 },
    ],
  },
  {
    family: 'uniswapV3',
    pair: ['PEPE', 'WETH'],
    fee: 10000,
    positions: [
      { range: 'full', usd: 400_000 },
      { range: [0.5, 2], usd: 300_000 },
    ],
  },
]

/** How many whole tokens each trader account receives. WETH is wrapped from the trader's own ETH. */
export const DEVNET_TRADER_FUNDING: Readonly<Record<DevnetSymbol, number>> = {
  WETH: 1_000,
  USDC: 10_000_000,
  USDT: 10_000_000,
  DAI: 10_000_000,
  WBTC: 100,
  LINK: 100_000,
  PEPE: 100_000_000_000,
}
