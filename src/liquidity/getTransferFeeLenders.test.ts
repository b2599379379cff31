import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { getAerodromeV2PoolAddress } from '../protocols/aerodromeV2/address.js'
import { getSlipstreamPoolAddress } from '../protocols/slipstream/address.js'
import { getUniswapV2PairAddress } from '../protocols/uniswapV2/readPools.js'
import { getUniswapV3PoolAddress } from '../protocols/uniswapV3/readPools.js'
import { getTransferFeeLenders } from './getTransferFeeLenders.js'

const TOKEN = '0x00000000000000000000000000000000000a11ce' as Address
const WETH = base.wrappedNative.address
const USDC = base.majorTokens[0]!
/** The probe's kinds (contracts/lens/TransferFeeProbe.sol), unpacked from bits 160 and up. */
const KIND_NAMES = ['uniswapV2Pair', 'uniswapV3Flash', 'pancakeV3Flash', 'aerodromePool', 'uniswapV4Manager', 'balancerVault']
const unpack = (entry: bigint) => ({
  kind: KIND_NAMES[Number(entry >> 160n)],
  address: `0x${(entry & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`,
})

describe('getTransferFeeLenders', () => {
  const lenders = getTransferFeeLenders(base, TOKEN, [TOKEN, WETH, USDC]).map(unpack)
  const dexes = (family: string) => base.dexes.filter((d) => d.family === family)

  it('asks Uniswap V2 and V3 first, as the probe did before, then each other family through its own entry point', () => {
    const kinds = lenders.map((l) => l.kind)
    const firstOf = (kind: string) => kinds.indexOf(kind)
    expect(firstOf('uniswapV2Pair')).toBe(0)
    // Every V2 pair before any other lender, so a token with a V2 pair is measured on it.
    expect(kinds.lastIndexOf('uniswapV2Pair')).toBeLessThan(firstOf('uniswapV3Flash'))
    expect(firstOf('uniswapV3Flash')).toBeLessThan(firstOf('pancakeV3Flash'))
    expect(firstOf('pancakeV3Flash')).toBeLessThan(firstOf('aerodromePool'))
    expect(firstOf('aerodromePool')).toBeLessThan(firstOf('uniswapV4Manager'))
    expect(firstOf('uniswapV4Manager')).toBeLessThan(firstOf('balancerVault'))
    expect(kinds.every((kind) => kind !== undefined)).toBe(true)
  })

  it('derives every pool from the chain config, with each partner but the token itself, and each singleton once', () => {
    const addresses = (kind: string) => lenders.filter((l) => l.kind === kind).map((l) => l.address)
    const partners = [WETH, USDC]
    expect(addresses('uniswapV2Pair')).toEqual(dexes('uniswapV2').flatMap((dex) => partners.map((p) => getUniswapV2PairAddress(dex, TOKEN, p))))
    const v3Style = (family: string) =>
      dexes(family).flatMap((dex) => partners.flatMap((p) => Object.keys(dex.feeTiers ?? {}).map((fee) => getUniswapV3PoolAddress(dex, TOKEN, p, Number(fee)))))
    const slipstream = dexes('slipstream').flatMap((dex) => partners.flatMap((p) => (dex.tickSpacings ?? []).map((s) => getSlipstreamPoolAddress(dex, TOKEN, p, s))))
    expect(addresses('uniswapV3Flash')).toEqual([...v3Style('uniswapV3'), ...slipstream])
    expect(addresses('pancakeV3Flash')).toEqual(v3Style('pancakeV3'))
    expect(addresses('aerodromePool')).toEqual(
      dexes('aerodromeV2').flatMap((dex) => partners.flatMap((p) => [false, true].map((stable) => getAerodromeV2PoolAddress(dex, TOKEN, p, stable)))),
    )
    expect(addresses('uniswapV4Manager')).toEqual([dexes('uniswapV4')[0]!.factory.toLowerCase()])
    expect(addresses('balancerVault')).toEqual([dexes('balancerV2')[0]!.factory.toLowerCase()])
    // Two dex entries over one singleton: asked once.
    const twice = { ...base, dexes: [...base.dexes, { ...dexes('balancerV2')[0]!, id: 'balancerV2Again' }] }
    expect(getTransferFeeLenders(twice, TOKEN, partners).map(unpack).filter((l) => l.kind === 'balancerVault')).toHaveLength(1)
  })

  it('leaves out dexes of families the probe cannot borrow through', () => {
    const other = { ...base, dexes: [{ ...base.dexes[0]!, id: 'curve', family: 'curve' }] }
    expect(getTransferFeeLenders(other, TOKEN, [WETH])).toEqual([])
  })
})
