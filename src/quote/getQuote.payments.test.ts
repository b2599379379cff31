// The gas estimate's payment into the receiver: an empty balance costs more than a funded one, and
// the estimate prices a balance it does not know as empty. Two things it does know without reading:
// native sent to the transaction's sender never creates an account, and a snapshot may list balances.
import { type Address, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { defaultSnapshot } from '../defaultSnapshot.js'
import { type Snapshot, createSnapshotSource, getQuote } from '../index.js'
import {
  ESTIMATE_MARGIN_PERCENT,
  NATIVE_TRANSFER_FRESH_GAS,
  NATIVE_TRANSFER_FUNDED_GAS,
  TOKEN_TRANSFER_FRESH_GAS,
  TOKEN_TRANSFER_FUNDED_GAS,
} from './estimateGas.js'

const WETH: Address = '0x4200000000000000000000000000000000000006'
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const SENDER: Address = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
// Another account with as many non-zero bytes as SENDER: the same calldata cost.
const OTHER: Address = '0x70997970c51812dc3a010c7d01b50e0d17dc79c9'
const id = '01900000-0000-7000-8000-000000000000'
// A fixed clock: quotes compared carry the same calldata (the deadline is seconds after the clock).
const now = () => 0x01900000_0000
const snapshots = defaultSnapshot as readonly Snapshot[]
const blind = createSnapshotSource(snapshots)

/** What a payment into an empty balance adds over one into a funded balance, after the margin (±1 for rounding). */
const surcharge = (fresh: bigint, funded: bigint) => Number(((fresh - funded) * ESTIMATE_MARGIN_PERCENT) / 100n)

const estimate = async (intent: Parameters<typeof getQuote>[0], sender?: Address, source = blind) =>
  (await getQuote(intent, source, { id, now, ...(sender ? { sender } : {}) })).gasEstimate

describe('gasEstimate: the payment into the receiver', () => {
  const toNative = { chainId: 8453, sellToken: USDC, buyToken: zeroAddress, sellAmount: 2_000n * 10n ** 6n }

  it('prices native sent to the sender as into an existing account, whatever the source knows of its balance', async () => {
    const unnamed = await estimate(toNative)
    // Before: the named sender's unknown native balance counted as empty (~28.7k more, 1.306x on a small fill).
    expect(await estimate(toNative, SENDER)).toBe(unnamed)
    expect(await estimate(toNative, SENDER.toUpperCase().replace('0X', '0x') as Address)).toBe(unnamed)
  })

  it('still prices native sent to another, unknown receiver as creating its account', async () => {
    const toSender = await estimate({ ...toNative, receiver: SENDER }, SENDER)
    const toOther = await estimate({ ...toNative, receiver: OTHER }, SENDER)
    expect(toOther - toSender).toBeCloseTo(surcharge(NATIVE_TRANSFER_FRESH_GAS, NATIVE_TRANSFER_FUNDED_GAS), -1)
  })

  it('prices a token payment into a balance the snapshot lists as funded, and an unlisted or zero one as empty', async () => {
    const toUsdc = { chainId: 8453, sellToken: WETH, buyToken: USDC, sellAmount: 10n ** 17n }
    const listing = (balance: string) =>
      createSnapshotSource(snapshots.map((snapshot) => (snapshot.chainId === 8453 ? { ...snapshot, balances: [{ token: USDC, account: SENDER, balance }] } : snapshot)))
    const unknown = await estimate(toUsdc, SENDER)
    const funded = await estimate(toUsdc, SENDER, listing('5'))
    expect(unknown - funded).toBeCloseTo(surcharge(TOKEN_TRANSFER_FRESH_GAS, TOKEN_TRANSFER_FUNDED_GAS), -1)
    expect(await estimate(toUsdc, SENDER, listing('0'))).toBe(unknown)
    // Another account's balance says nothing about the sender's.
    expect(await estimate({ ...toUsdc, receiver: OTHER }, SENDER, listing('5'))).toBeGreaterThan(funded)
  })
})
