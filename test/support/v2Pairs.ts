import type { Address } from 'viem'
import { base } from '../../src/chains/base.js'
import type { ChainConfig } from '../../src/chains/types.js'
import type { Pool } from '../../src/protocols/types.js'
import { uniswapV2Family } from '../../src/protocols/uniswapV2/family.js'

/** A Uniswap V2 pair holding `reserveA` raw units of tokenA and `reserveB` of tokenB, on dex `dex` of the chain. */
export type V2PairMaker = (tokenA: Address, tokenB: Address, reserveA: bigint, reserveB: bigint, dex?: number) => Pool

/**
 * Makes in-memory Uniswap V2 pairs for the router's unit tests: the tokens in either order (the
 * pair sorts them and their reserves), each pair at the next of `nextAddress`'s addresses, built
 * for `chain` (default Base) with the state's dex that chain's dex at index `dex` (default 0).
 *
 * @example
 * const pair = createV2Pairs({ nextAddress: createAddressCounter(0xe000) })
 * pair(A, B, 1_000n * E18, 2_000n * E18) // a pool at 0x…e001 holding 1,000 A and 2,000 B
 */
export function createV2Pairs(options: { chain?: ChainConfig; nextAddress: () => Address }): V2PairMaker {
  const { chain = base, nextAddress } = options
  return (tokenA, tokenB, reserveA, reserveB, dex = 0) => {
    const [token0, token1, reserve0, reserve1] = tokenA < tokenB ? [tokenA, tokenB, reserveA, reserveB] : [tokenB, tokenA, reserveB, reserveA]
    const dexConfig = chain.dexes[dex]!
    return uniswapV2Family.fromState(
      { family: 'uniswapV2', dex: dexConfig.id, address: nextAddress(), token0, token1, reserve0: String(reserve0), reserve1: String(reserve1) },
      { chain, dex: dexConfig, dexIndex: dex },
    )
  }
}

/**
 * Addresses `first + 1`, `first + 2`, … in turn (40 hex digits): distinct pool addresses whose
 * order a test can rely on.
 *
 * @example
 * const nextAddress = createAddressCounter(0xf000)
 * nextAddress() // '0x000000000000000000000000000000000000f001'
 */
export function createAddressCounter(first: number): () => Address {
  let counter = 0
  return () => `0x${(first + ++counter).toString(16).padStart(40, '0')}` as Address
}
