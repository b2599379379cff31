// A split far from its exact balance over many hops, on the hard bench's 100-pool market
// (scripts/bench/hardMarket.ts, seed 104, H15 -> H19, 30% of its depth, at most 6 hops). The route
// weft gave before 228f76c: eight paths of 43 hops, so polishSplit's hop budget gave it one
// round (one move between one pair of paths) while the paths' exact rates at the plan differed up
// to 7,000-fold (USDC -> DAI -> H19 took 1% of the input, H16 -> ... -> H10 seven times that). A
// round that gains visibly now earns another: the same paths, balanced, give 539 bp more. (The
// route no longer comes to this split: a solve made again when its prices collapse leads elsewhere.)
import { describe, expect, it } from 'vitest'
import { createHardUniverse } from '../../scripts/bench/hardMarket.js'
import { polishSplit } from '../../src/router/polishSplit.js'
import { simulatePlan } from '../../src/router/simulatePlan.js'
import type { Hop } from '../../src/router/types.js'

/** The route's paths: its input and each hop's pool (the last five hex digits of its key) and output token. */
const SPLIT: [amountIn: bigint, hops: string][] = [
  [139090427656242161231893559n, '2ea4a H1 2ea03 H2 2ea05 H3 2ea4c H20 2ea5f WBTC 2ea52 H19'],
  [574855170879413835326816256n, '2ea4a H1 2ea03 H2 2ea04 H3 2ea4c H20 2ea63 H13 2ea56 H19'],
  [225278872392069227921634969n, '2ea4a H1 2ea61 USDC 2ea2f USDT 2ea2a WBTC 2ea16 H10 2ea49 H19'],
  [132993707834838241679245312n, '2ea4a H1 2ea03 H2 2ea05 H3 2ea4c H20 2ea55 DAI 2ea29 H19'],
  [815274872960014511958293288n, '2ea20 H16 2ea23 H17 2ea5d H8 2ea11 H9 2ea13 H10 2ea49 H19'],
  [316104260580223160091943892n, '2ea4a H1 2ea02 H2 2ea05 H3 2ea4c H20 2ea55 DAI 2ea29 H19'],
  [178123722818935974252249088n, '2ea21 H16 2ea23 H17 2ea5d H8 2ea11 H9 2ea13 H10 2ea49 H19'],
  [27262828971984030351133031n, '2ea4a H1 2ea61 USDC 2ea2b DAI 2ea29 H19'],
]

describe('a many-hop split far from its balance (hard market)', () => {
  it('is polished while each round gains (seed 104, H15 -> H19, 30%, 6 hops)', () => {
    const universe = createHardUniverse(100, 104)
    const pools = universe.market.pools.map((p) => p.pool)
    const address = (symbol: string) => universe.market.tokens.find((t) => t.symbol === symbol)!.address
    const allocations = SPLIT.map(([amountIn, hops]) => {
      const words = hops.split(' ')
      const path: Hop[] = []
      let tokenIn = address('H15')
      for (let k = 0; k < words.length; k += 2) {
        const pool = pools.find((p) => p.key.endsWith(words[k]!))!
        const tokenOut = address(words[k + 1]!)
        path.push({ pool, tokenIn, tokenOut })
        tokenIn = tokenOut
      }
      return { path, amountIn }
    })
    const plan = simulatePlan(allocations)!
    expect(plan.amountOut).toBe(1423198497628245n)
    // 1499955947295332 balanced over seven rounds; one round: 1456577863009742.
    expect(polishSplit(plan, 0).amountOut).toBeGreaterThan(1_490_000_000_000_000n)
  })
})
