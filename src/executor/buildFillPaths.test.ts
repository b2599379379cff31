// buildFillPaths: each path's minimum from the quote and the slippage, and the order rule for paths
// through tokens the chain does not list (run last, unless moving them would change any amount).
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { ethereum } from '../chains/ethereum.js'
import type { ExecutorStep, Pool } from '../protocols/types.js'
import type { Plan, PlanSegment } from '../router/types.js'
import { buildFillPaths } from './buildFillPaths.js'

const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' as Address
const weth = ethereum.wrappedNative.address
const dai = '0x6b175474e89094c44da98b954eedeac495271d0f' as Address
// Not in the chain's list: may run code on every transfer.
const hooked = '0x00000000000000000000000000000000000b00c5' as Address
const other = '0x00000000000000000000000000000000000b00c6' as Address

/** A stand-in pool: buildFillPaths reads only its key and its step. */
const pool = (key: string): Pool => ({ key, buildStep: (tokenIn: Address, tokenOut: Address): ExecutorStep => ({ dex: 0, tokenIn, tokenOut, param: 0n }) }) as unknown as Pool
const hop = (key: string, tokenIn: Address, tokenOut: Address, amountIn: bigint, amountOut: bigint) => ({ pool: pool(key), tokenIn, tokenOut, amountIn, amountOut, gas: 0n })
const segment = (amountIn: bigint, ...hops: ReturnType<typeof hop>[]): PlanSegment => ({ amountIn, hops })
const plan = (segments: PlanSegment[], mode: Plan['mode'] = 'paths'): Plan => ({ paths: [], segments, mode, amountIn: 0n, amountOut: 0n, gas: 0n })
const firstPools = (paths: ReturnType<typeof buildFillPaths>, segments: PlanSegment[]) =>
  paths.map((path) => segments.findIndex((s) => s.hops[0]!.tokenIn === path.steps[0]!.tokenIn && s.hops.length === path.steps.length && s.amountIn === path.amountIn))

describe('buildFillPaths', () => {
  it('each path’s minimum is its last hop’s quoted output less the slippage (the allowance rounded down)', () => {
    const segments = [segment(600n, hop('a', usdc, weth, 600n, 1_000_001n)), segment(400n, hop('b', usdc, dai, 400n, 999n), hop('c', dai, weth, 999n, 12_345n))]
    const paths = buildFillPaths(plan(segments), { chain: ethereum, slippageBps: 50, sellToken: usdc, buyToken: weth })
    expect(paths.map((p) => p.minAmountOut)).toEqual([1_000_001n - 5_000n, 12_345n - 61n])
    expect(paths.map((p) => p.amountIn)).toEqual([600n, 400n])
    expect(paths[1]!.steps).toEqual([
      { dex: 0, tokenIn: usdc, tokenOut: dai, param: 0n },
      { dex: 0, tokenIn: dai, tokenOut: weth, param: 0n },
    ])
    expect(buildFillPaths(plan(segments), { chain: ethereum, slippageBps: 0, sellToken: usdc, buyToken: weth }).map((p) => p.minAmountOut)).toEqual([1_000_001n, 12_345n])
  })

  it('a path through an unlisted token runs after the paths through listed ones', () => {
    const segments = [
      segment(300n, hop('x1', usdc, hooked, 300n, 300n), hop('x2', hooked, weth, 300n, 3n)),
      segment(500n, hop('a', usdc, weth, 500n, 5n)),
      segment(200n, hop('b', usdc, dai, 200n, 200n), hop('c', dai, weth, 200n, 2n)),
    ]
    const paths = buildFillPaths(plan(segments), { chain: ethereum, slippageBps: 100, sellToken: usdc, buyToken: weth })
    expect(firstPools(paths, segments)).toEqual([1, 2, 0])
  })

  it('reads the chain’s token list again when the host replaces it (the listed set is kept per chain config)', () => {
    const segments = [segment(300n, hop('x1', usdc, hooked, 300n, 300n), hop('x2', hooked, weth, 300n, 3n)), segment(500n, hop('a', usdc, weth, 500n, 5n))]
    const chain = { ...ethereum }
    const options = { chain, slippageBps: 100, sellToken: usdc, buyToken: weth }
    expect(firstPools(buildFillPaths(plan(segments), options), segments)).toEqual([1, 0])
    chain.tokens = [...ethereum.tokens, { address: hooked, symbol: 'HOOK', decimals: 18 }]
    expect(firstPools(buildFillPaths(plan(segments), options), segments)).toEqual([0, 1])
    chain.tokens = ethereum.tokens
    expect(firstPools(buildFillPaths(plan(segments), options), segments)).toEqual([1, 0])
  })

  it('never moves a path past one it shares a pool with (it would trade another state)', () => {
    const segments = [
      segment(300n, hop('x1', usdc, hooked, 300n, 300n), hop('x2', hooked, weth, 300n, 3n)),
      segment(500n, hop('a', usdc, weth, 500n, 5n)),
      segment(200n, hop('x1', usdc, hooked, 200n, 199n), hop('d', hooked, weth, 199n, 2n)),
      segment(100n, hop('e', usdc, dai, 100n, 100n), hop('x2', dai, weth, 100n, 1n)),
    ]
    // Segment 3 (listed) shares pool x2 with segment 0, so it waits for it, then still goes before
    // segment 2 (unlisted); segment 1 goes first.
    const paths = buildFillPaths(plan(segments), { chain: ethereum, slippageBps: 100, sellToken: usdc, buyToken: weth })
    expect(firstPools(paths, segments)).toEqual([1, 0, 3, 2])
  })

  it('a flow keeps every token’s producers before its consumers and "all that is held" last', () => {
    const segments = [
      // From USDC: an explicit amount into the unlisted token, then the rest into DAI.
      segment(300n, hop('x1', usdc, hooked, 300n, 300n)),
      segment(0n, hop('b', usdc, dai, 700n, 700n)),
      segment(0n, hop('x2', hooked, weth, 300n, 3n)),
      segment(0n, hop('c', dai, weth, 700n, 7n)),
    ]
    const paths = buildFillPaths(plan(segments, 'flow'), { chain: ethereum, slippageBps: 100, sellToken: usdc, buyToken: weth })
    // USDC's "rest" segment must follow the explicit one; DAI -> WETH (listed) moves before HOOKED -> WETH.
    expect(paths.map((p) => [p.steps[0]!.tokenIn, p.steps[0]!.tokenOut])).toEqual([
      [usdc, hooked],
      [usdc, dai],
      [dai, weth],
      [hooked, weth],
    ])
  })

  it('the traded tokens never count as unlisted: selling an unlisted token keeps the plan’s order', () => {
    const segments = [segment(300n, hop('p', hooked, other, 300n, 300n), hop('q', other, weth, 300n, 3n)), segment(700n, hop('r', hooked, weth, 700n, 7n))]
    const paths = buildFillPaths(plan(segments), { chain: ethereum, slippageBps: 100, sellToken: hooked, buyToken: weth })
    // OTHER is an unlisted intermediate: its path goes last.
    expect(firstPools(paths, segments)).toEqual([1, 0])
    const direct = [segment(700n, hop('r', hooked, weth, 700n, 7n)), segment(300n, hop('s', hooked, usdc, 300n, 300n), hop('t', usdc, weth, 300n, 3n))]
    expect(firstPools(buildFillPaths(plan(direct), { chain: ethereum, slippageBps: 100, sellToken: hooked, buyToken: '0x0000000000000000000000000000000000000000' }), direct)).toEqual([0, 1])
  })
})
