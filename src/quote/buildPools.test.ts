import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import type { Liquidity, TokenMetadata } from '../liquidity/types.js'
import { defaultFamilies } from '../protocols/defaultFamilies.js'
import type { UniswapV2PoolState } from '../protocols/uniswapV2/state.js'
import { buildPools } from './buildPools.js'
import { describeTokens } from './describeTokens.js'

const A = '0x00000000000000000000000000000000000000a1' as Address
const B = '0x00000000000000000000000000000000000000b2' as Address
const C = '0x00000000000000000000000000000000000000c3' as Address

const pair = (n: number, token0: Address, token1: Address, dex = 'uniswapV2'): UniswapV2PoolState => ({
  family: 'uniswapV2',
  dex,
  address: `0x${n.toString(16).padStart(40, '0')}` as Address,
  token0,
  token1,
  reserve0: '1000000000000000000000',
  reserve1: '2000000000000000000000',
})
const tokens: TokenMetadata[] = [
  { address: A, symbol: 'A', decimals: 18, transferFeeBps: 0 },
  { address: B, symbol: 'B', decimals: 18, transferFeeBps: 0 },
  { address: C, symbol: 'C', decimals: 18, transferFeeBps: null },
]
const liquidityOf = (pools: UniswapV2PoolState[], list = tokens): Liquidity => ({
  chainId: base.id,
  blockNumber: 1,
  tokens: list,
  pools,
  report: { roundTrips: 0, requests: 0, skipped: [] },
})
function build(liquidity: Liquidity) {
  const metadata = describeTokens(base, liquidity.tokens)
  return buildPools(base, liquidity, defaultFamilies, metadata, (token) => metadata.get(token))
}

describe('buildPools', () => {
  const states = [pair(1, A, B), pair(2, A, C), pair(3, A, B, 'noSuchDex')]

  it('builds a pool list once while the source hands out the same states, and reports what it skipped every time', () => {
    const first = liquidityOf(states)
    const built = build(first)
    expect(built.pools).toHaveLength(1)
    expect([...built.unmeasured]).toEqual([C])
    expect(first.report.skipped.map((s) => s.reason)).toEqual(['a token whose fee on transfer could not be determined', 'unknown dex noSuchDex'])
    const second = liquidityOf(states)
    const again = build(second)
    expect(again).toBe(built)
    expect(again.pools).toBe(built.pools)
    expect(second.report.skipped).toEqual(first.report.skipped)
    expect(second.report.skipped[0]).not.toBe(first.report.skipped[0])
  })

  it('builds again when a state in the list, the token list or the families change', () => {
    const built = build(liquidityOf(states))
    // The same array holding another state object (a source that changes its list in place).
    const changed = [...states]
    const list = liquidityOf(changed)
    expect(build(list)).toBe(build(liquidityOf(changed)))
    changed[0] = pair(1, A, B)
    const rebuilt = build(list)
    expect(rebuilt).not.toBe(built)
    expect(rebuilt.pools).toHaveLength(1)
    // C's fee now known: its pool routes.
    const known = tokens.map((t) => (t.address === C ? { ...t, transferFeeBps: 0 } : t))
    expect(build(liquidityOf(states, known)).pools).toHaveLength(2)
    const metadata = describeTokens(base, tokens)
    const v3Only = defaultFamilies.filter((f) => f.id !== 'uniswapV2')
    expect(buildPools(base, liquidityOf(states), v3Only, metadata, (t) => metadata.get(t)).pools).toHaveLength(0)
  })
})

describe('describeTokens', () => {
  it('returns the same description while the list holds the same entries for the same chain', () => {
    const list = [...tokens]
    const first = describeTokens(base, list)
    expect(describeTokens(base, list)).toBe(first)
    expect(first.get(C)?.transferFeeBps).toBeNull()
    list[2] = { ...tokens[2]!, transferFeeBps: 5 }
    const second = describeTokens(base, list)
    expect(second).not.toBe(first)
    expect(second.get(C)?.transferFeeBps).toBe(5)
    expect(describeTokens({ ...base }, list)).not.toBe(second)
  })
})
