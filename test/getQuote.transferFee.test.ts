// How getQuote treats the fee-on-transfer figures a liquidity source reports, on the embedded
// Base snapshot with one token's metadata changed. (Execution on anvil: feeOnTransfer.e2e.test.ts.)
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { defaultSnapshot } from '../src/defaultSnapshot.js'
import { QuoteError, type Snapshot, createSnapshotSource, getQuote } from '../src/index.js'
import { afterTransferFee } from '../src/protocols/transferFee.js'

const baseSnapshot = defaultSnapshot.find((s) => s.chainId === 8453)!
const WETH: Address = '0x4200000000000000000000000000000000000006'
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const intent = { chainId: 8453, sellToken: WETH, buyToken: USDC, sellAmount: 10n ** 18n }

/** The Base snapshot with USDC's transfer fee set as given. */
const withUsdcFee = (transferFeeBps: number | null) => {
  const snapshot = structuredClone(baseSnapshot) as Snapshot
  const usdc = snapshot.tokens.find((t) => t.address === USDC)!
  usdc.transferFeeBps = transferFeeBps
  return createSnapshotSource(snapshot)
}

describe('fee-on-transfer tokens in getQuote', () => {
  it('routes a fee-on-transfer token only through families that can trade it (V2), and says what arrives', async () => {
    const plain = await getQuote(intent, createSnapshotSource(defaultSnapshot))
    // Control: without a fee the route uses Uniswap V3 pools.
    expect(plain.route.swaps.flat().some((s) => s.protocol === 'Uniswap V3')).toBe(true)
    const taxed = await getQuote(intent, withUsdcFee(100))
    for (const swap of taxed.route.swaps.flat())
      if (swap.tokenIn === USDC || swap.tokenOut === USDC) expect(swap.protocol).toBe('Uniswap V2')
    expect(taxed.tokens.find((t) => t.address === USDC)?.transferFeeBps).toBe(100)
    // The route's output is what the executor holds; the receiver gets it less the token's fee.
    expect(BigInt(taxed.amountOut)).toBe(afterTransferFee(BigInt(taxed.route.amountOut), 100))
  })

  it('an unknown fee (the probe failed) refuses the token: 422 for the traded token', async () => {
    const error = await getQuote(intent, withUsdcFee(null)).catch((e) => e)
    expect(error).toBeInstanceOf(QuoteError)
    expect(error.statusCode).toBe(422)
    expect(error.details).toEqual([{ param: 'buyToken', message: 'is a token whose fee on transfer could not be determined' }])
  })

  it('an unknown fee on an intermediate token drops every pool through it', async () => {
    const DAI: Address = baseSnapshot.tokens.find((t) => t.symbol === 'DAI')!.address
    const sellDai = { chainId: 8453, sellToken: DAI, buyToken: WETH, sellAmount: 10n ** 21n }
    // Control: on the plain snapshot this route passes through USDC.
    const plain = await getQuote(sellDai, createSnapshotSource(defaultSnapshot))
    expect(plain.route.swaps.flat().some((s) => s.tokenOut === USDC)).toBe(true)
    const quote = await getQuote(sellDai, withUsdcFee(null))
    expect(quote.route.swaps.flat().some((s) => s.tokenIn === USDC || s.tokenOut === USDC)).toBe(false)
  })
})
