// The floor with gas priced in: the single path best net of gas is often not the walk holding most
// at its last token (a walk a little behind through cheaper pools wins once gas is weighed), at the
// output or at a token on the way. The floor kept one walk per token and one per length, so with
// no connector to bring the cheaper path's token in, routes came in below the best single path net
// of gas (hard bench: 100 pools seed 8 H13->H15 at 20 gwei, 20.7 bp; seed 10 H9->H13, 25.3 bp).
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { bestSinglePath, v2Pool, v3Pool } from '../../test/support/randomMarkets.js'
import { findRoute } from './findRoute.js'
import { findSinglePaths } from './findSinglePaths.js'

const token = (n: number) => `0x${(0xf0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X, Y, Z] = [0, 1, 2, 3, 4].map(token) as [Address, Address, Address, Address, Address]
const E18 = 10n ** 18n
const DEEP = 1_000_000n * E18
/** A deep V3 pool at price 1 with a 0.05% fee (more gas than a V2 pair, a better rate than two of them). */
const cheapFee = (a: Address, b: Address) => v3Pool(a, b, { fee: 500, spacing: 10 }, 0, [[-1000, 1000, 100n * DEEP]], false)
const amountIn = E18

/** The plan's output net of gas at `gasCost`, against the best single path's by brute force. */
function check(pools: ReturnType<typeof v2Pool>[], maxHops: number, gasCost: number) {
  const gross = bestSinglePath(pools, A, B, amountIn, maxHops)!
  const net = bestSinglePath(pools, A, B, amountIn, maxHops, gasCost)!
  const plan = findRoute({ pools, tokenIn: A, tokenOut: B, connectors: [], maxHops, gasCostInOutput: gasCost }, amountIn)!
  return { gross, net, planNet: Number(plan.amountOut) - gasCost * Number(plan.gas), plan }
}

describe('the floor net of gas', () => {
  it('keeps the path best net of gas at the output, not only the one giving most', () => {
    // A -> X -> B: a V2 pair then a 0.05% V3 pool (most output, more gas). A -> Y -> B: two V2 pairs.
    const pools = [v2Pool(A, X, DEEP, DEEP), cheapFee(X, B), v2Pool(A, Y, DEEP, DEEP), v2Pool(Y, B, DEEP, DEEP)]
    // 18,400 more gas for 0.25% more output: at 3e11 output units per gas the V2 path wins by ~0.3%.
    const { gross, net, planNet, plan } = check(pools, 2, 3e11)
    expect(gross.gas).toBeGreaterThan(net.gas)
    expect(plan.paths[0]!.path.map((hop) => hop.tokenOut)).toEqual([Y, B])
    expect(planNet).toBeGreaterThanOrEqual(net.value * (1 - 1e-12))
    // Gas-free, the most output wins.
    expect(findSinglePaths(pools, A, B, Number(amountIn), 2)).toHaveLength(1)
  })

  it('keeps a walk behind at a token on the way when its pools cost less gas', () => {
    // To Z: A -> X -> Z through the 0.05% pool (holds most at Z) or A -> Y -> Z through V2 pairs; then Z -> B.
    const pools = [v2Pool(A, X, DEEP, DEEP), cheapFee(X, Z), v2Pool(A, Y, DEEP, DEEP), v2Pool(Y, Z, DEEP, DEEP), v2Pool(Z, B, DEEP, DEEP)]
    const { gross, net, planNet, plan } = check(pools, 3, 3e11)
    expect(gross.gas).toBeGreaterThan(net.gas)
    expect(plan.paths[0]!.path.map((hop) => hop.tokenOut)).toEqual([Y, Z, B])
    expect(planNet).toBeGreaterThanOrEqual(net.value * (1 - 1e-12))
  })
})
