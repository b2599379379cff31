// Ledger over-credit: the executor used to credit what a pool *reported* sending (always for V3, V4
// and Balancer; for V2 unless a step flag was set), not what arrived. With a buy-tax token as an
// intermediate hop the next hop then spent more than arrived, and the difference came out of tokens
// stranded in the executor (an arbitrage made 7,139 USDC more than the honest route that way). Now
// every step's output is measured as the executor's balance increase, for every family (one check
// around every step in WeftExecutor._runPaths), so the next hop spends only what arrived and the
// stranded tokens stay where they are. Here: a 10% buy tax on TAX, 1,000 TAX stranded in the
// executor, the attacker's order crossing TAX on a V2 pair (its "measure" flag clear) and on a V3
// pool.
import { type Address, type Hex, encodeFunctionData, parseEventLogs, zeroAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ExecutorStep } from '../../src/index.js'
import { testTokenAbi } from '../devnet/abis.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type AttackDevnet, type AttackTx, buildAttackFill, startAttackDevnet, v2Step, v3Step } from './support/attackDevnet.js'

const E18 = 10n ** 18n
const STRANDED = 1_000n * E18
const TAX_BPS = 1_000n
const V3_FEE = 3_000
const taxTokenAbi = [
  {
    type: 'function',
    name: 'setTax',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'seller', type: 'address' }, { name: 'bps', type: 'uint256' }],
    outputs: [],
  },
] as const

describe('stranded balances vs a buy-tax hop: every credit is measured', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  let tax: Address
  let pair: Address
  let pool: Address

  beforeAll(async () => {
    stage = await startAttackDevnet()
    usdc = stage.devnet.tokens.USDC.address
    weth = stage.devnet.tokens.WETH.address
    tax = await stage.deploy('AttackTaxToken')
    // TAX/USDC on a V2 pair (1 TAX = 1 USDC) and TAX/WETH on a V3 pool (1:1 in raw units).
    pair = await stage.createV2Pair(tax, 1_000_000n * E18, usdc, 1_000_000n * 10n ** 6n)
    pool = await stage.createV3Pool(tax, weth, V3_FEE, 10n ** 24n)
    // Purchases from either pool pay 10%.
    for (const seller of [pair, pool]) {
      await stage.sendOk('setTax', { from: stage.deployer, to: tax, data: encodeFunctionData({ abi: taxTokenAbi, functionName: 'setTax', args: [seller, TAX_BPS] }) })
    }
    // Someone's TAX, stranded in the executor (sent there by mistake).
    await stage.fund(tax, stage.executor, STRANDED)
    await stage.devnet.mint('USDC', stage.attacker, 1_000_000n * 10n ** 6n)
    await stage.devnet.approve('USDC', stage.attacker, stage.executor)
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const fromAttacker = (data: Hex, value = 0n): AttackTx => ({ from: stage.attacker, to: stage.executor, data, value })
  const strandedLeft = async () => (await stage.readBalances([[tax, stage.executor]]))[0]!
  /** TAX that moved into and out of the executor during a fill, by its Transfer events. */
  const taxFlows = (logs: Parameters<typeof parseEventLogs>[0]['logs']) => {
    const transfers = parseEventLogs({ abi: testTokenAbi, eventName: 'Transfer', logs }).filter((log) => log.address.toLowerCase() === tax)
    const sum = (rows: typeof transfers) => rows.reduce((total, log) => total + log.args.value, 0n)
    return {
      arrived: sum(transfers.filter((log) => log.args.to.toLowerCase() === stage.executor)),
      spent: sum(transfers.filter((log) => log.args.from.toLowerCase() === stage.executor)),
      taxed: sum(transfers.filter((log) => log.args.to.toLowerCase() === '0x00000000000000000000000000000000000007a7')),
    }
  }
  /** The V2 step with its "output keeps a fee on transfer, measure it" bit clear, as the attacker sends it. */
  const unflaggedV2 = (tokenIn: Address, tokenOut: Address): ExecutorStep => ({ ...v2Step(stage, tokenIn, tokenOut), param: 0n })

  it('V2 pair -> TAX (reported, not flagged) -> V3 pool: the V3 hop spends only what arrived, the stranded TAX stays', async () => {
    const amountIn = 10_000n * 10n ** 6n
    const data = buildAttackFill({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      paths: [{ amountIn, steps: [unflaggedV2(usdc, tax), v3Step(stage, tax, weth, V3_FEE)] }],
    })
    const receipt = await stage.sendOk('fill through the taxed hop', fromAttacker(data))
    const flows = taxFlows(receipt.logs)
    expect(flows.taxed).toBeGreaterThan(0n)
    // The pool sent arrived + taxed; the next hop paid the V3 pool exactly what arrived.
    expect(flows.spent).toBe(flows.arrived)
    expect(await strandedLeft()).toBe(STRANDED)
  })

  it('native -> V3 pool -> TAX (reported) -> V2 pair: the V2 hop spends only what arrived, the stranded TAX stays', async () => {
    const amountIn = 5n * E18
    const data = buildAttackFill({
      tokenIn: zeroAddress,
      tokenOut: usdc,
      amountIn,
      paths: [{ amountIn, steps: [v3Step(stage, weth, tax, V3_FEE), unflaggedV2(tax, usdc)] }],
    })
    const receipt = await stage.sendOk('fill through the taxed V3 output', fromAttacker(data, amountIn))
    const flows = taxFlows(receipt.logs)
    expect(flows.taxed).toBeGreaterThan(0n)
    expect(flows.spent).toBe(flows.arrived)
    expect(await strandedLeft()).toBe(STRANDED)
  })

  it('a second path that spends the reported amount of TAX explicitly: Overdraw, nothing moves', async () => {
    const amountIn = 10_000n * 10n ** 6n
    // What the pair reports sending for 10,000 USDC (the V2 formula on its reserves): the
    // executor holds 10% less of it, plus the stranded 1,000 TAX that would have covered the gap.
    const reported = (amountIn * 997n * 1_000_000n * E18) / (1_000_000n * 10n ** 6n * 1000n + amountIn * 997n)
    const data = buildAttackFill({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      paths: [
        { amountIn, steps: [unflaggedV2(usdc, tax)] },
        { amountIn: reported, steps: [v3Step(stage, tax, weth, V3_FEE)] },
      ],
    })
    const revert = await stage.getRevert(fromAttacker(data))
    expect(revert?.errorName).toBe('Overdraw')
    const [token, requested, held] = revert!.args as readonly [string, bigint, bigint]
    expect(token.toLowerCase()).toBe(tax)
    expect(requested).toBe(reported)
    expect(held).toBe(reported - (reported * TAX_BPS) / 10_000n)
    expect((await stage.send(fromAttacker(data))).status).toBe('reverted')
    expect(await strandedLeft()).toBe(STRANDED)
  })
})
