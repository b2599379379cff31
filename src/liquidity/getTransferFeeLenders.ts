import type { Address } from 'viem'
import type { ChainConfig, DexConfig } from '../chains/types.js'
import { getAerodromeV2PoolAddress } from '../protocols/aerodromeV2/address.js'
import { getSlipstreamPoolAddress } from '../protocols/slipstream/address.js'
import { getUniswapV2PairAddress } from '../protocols/uniswapV2/readPools.js'
import { getUniswapV3PoolAddress } from '../protocols/uniswapV3/readPools.js'

/**
 * How the TransferFeeProbe (contracts/lens/TransferFeeProbe.sol) borrows from a lender: the
 * contract's lender kinds, one per entry point and callback.
 */
const TRANSFER_FEE_LENDER_KIND = {
  /** `swap` with callback data, `uniswapV2Call`. */
  uniswapV2Pair: 0n,
  /**
   * `flash`, `uniswapV3FlashCallback` (Uniswap V3 and Slipstream pools); when no lender measured,
   * an exact-output `swap`, `uniswapV3SwapCallback` (reaches a price in a range gap).
   */
  uniswapV3Flash: 1n,
  /** `flash`, `pancakeV3FlashCallback`; when no lender measured, a swap, `pancakeV3SwapCallback`. */
  pancakeV3Flash: 2n,
  /** `swap` with callback data, `hook`. */
  aerodromePool: 3n,
  /** `unlock`, then `take` inside `unlockCallback`. */
  uniswapV4Manager: 4n,
  /** `flashLoan`, `receiveFlashLoan`. */
  balancerVault: 5n,
} as const

/** Where the kind starts in a lender entry: above the address's 160 bits (as the probe unpacks it). */
const KIND_SHIFT = 160n

/** One lender entry as the probe takes it: `kind << 160 | address`. */
const packLender = (kind: bigint, address: Address): bigint => (kind << KIND_SHIFT) | BigInt(address)

type LendersOfDex = (dex: DexConfig, token: Address, others: readonly Address[]) => bigint[]

/** A V3-style dex's pools of `token` with each other token at every fee tier, borrowed from as `kind`. */
const feeTierPools =
  (kind: bigint): LendersOfDex =>
  (dex, token, others) =>
    others.flatMap((other) => Object.keys(dex.feeTiers ?? {}).map((fee) => packLender(kind, getUniswapV3PoolAddress(dex, token, other, Number(fee)))))

/** A Slipstream dex's pools of `token` with each other token at every tick spacing, borrowed from as `kind`. */
const spacingPools =
  (kind: bigint): LendersOfDex =>
  (dex, token, others) =>
    others.flatMap((other) => (dex.tickSpacings ?? []).map((spacing) => packLender(kind, getSlipstreamPoolAddress(dex, token, other, spacing))))

/**
 * Per family, in the order the probe tries them (it stops at the first lender that measures), the
 * lenders of `token` on one dex given the other candidate tokens. Pools are CREATE2-derived for
 * every pair and tier (an address without code is skipped by the probe); a singleton (V4's
 * PoolManager, Balancer's Vault) lends whatever it holds of the token, so it is asked once,
 * whichever pool holds the token. Uniswap V2 and V3 come first, so a token with such a pool is
 * measured there, as before the other families were probed. (The probe's second pass, swaps
 * through the V3-style pools, needs no entries of its own.)
 */
const LENDER_ORDER: readonly (readonly [family: string, lenders: LendersOfDex])[] = [
  ['uniswapV2', (dex, token, others) => others.map((other) => packLender(TRANSFER_FEE_LENDER_KIND.uniswapV2Pair, getUniswapV2PairAddress(dex, token, other)))],
  ['uniswapV3', feeTierPools(TRANSFER_FEE_LENDER_KIND.uniswapV3Flash)],
  // PancakeSwap V3 pools derive like Uniswap V3's, from the pool deployer (`DexConfig.factory`).
  ['pancakeV3', feeTierPools(TRANSFER_FEE_LENDER_KIND.pancakeV3Flash)],
  ['slipstream', spacingPools(TRANSFER_FEE_LENDER_KIND.uniswapV3Flash)],
  [
    'aerodromeV2',
    (dex, token, others) =>
      others.flatMap((other) => [false, true].map((stable) => packLender(TRANSFER_FEE_LENDER_KIND.aerodromePool, getAerodromeV2PoolAddress(dex, token, other, stable)))),
  ],
  ['uniswapV4', (dex) => [packLender(TRANSFER_FEE_LENDER_KIND.uniswapV4Manager, dex.factory)]],
  ['balancerV2', (dex) => [packLender(TRANSFER_FEE_LENDER_KIND.balancerVault, dex.factory)]],
]

/**
 * Where the TransferFeeProbe may borrow `token` from on `chain`, in the order it tries them: its
 * pools with each of `partners` on every dex (each family through its own flash, swap or unlock
 * entry point), packed as the probe takes them. Dexes of families the probe cannot borrow
 * through are left out.
 *
 * @example
 * const lenders = getTransferFeeLenders(base, token, [weth, usdc])
 * // [pair(token, weth) | kind 0 << 160, …, poolManager | kind 4 << 160, vault | kind 5 << 160]
 */
export function getTransferFeeLenders(chain: ChainConfig, token: Address, partners: readonly Address[]): bigint[] {
  const others = partners.filter((partner) => partner !== token)
  const lenders: bigint[] = []
  for (const [family, lendersOfDex] of LENDER_ORDER) {
    for (const dex of chain.dexes) if (dex.family === family) lenders.push(...lendersOfDex(dex, token, others))
  }
  // A singleton shared by two dex entries is asked once.
  return [...new Set(lenders)]
}
