// Ledger over-credit, family by family: LINK becomes a 10% buy-tax token (its devnet TestToken code
// is replaced, its pools stay), 1,000 LINK are stranded in the executor, and for each of Uniswap V2
// (step flag clear), Uniswap V3, PancakeSwap V3, Aerodrome Slipstream, Uniswap V4 and Balancer V2 a
// fill buys LINK from that family's pool and sells it on. Before, the executor credited what the
// V3-style pools, the PoolManager and the Vault reported (and V2 unless flagged), so the next hop
// spent 10% more than arrived, out of the stranded LINK. Now each step's output is measured: the
// next hop spends exactly what arrived and the stranded LINK stays.
import { type Address, type Hex, encodeFunctionData, parseEventLogs, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type ExecutorStep, buildFillCalldata, deployExecutor } from '../../src/index.js'
import { testTokenAbi } from '../devnet/abis.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from '../devnet/balancerV2.js'
import { compileTestContracts } from '../devnet/compile.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { deployPancakeV3, withPancakeV3 } from '../devnet/pancakeV3.js'
import { rpc } from '../devnet/rpc.js'
import { deploySlipstreamStandIn, withSlipstreamStandIn } from '../devnet/slipstreamStandIn.js'
import { deployUniswapV4, withUniswapV4 } from '../devnet/uniswapV4.js'
import { FAR_DEADLINE } from './support/attackDevnet.js'

const E18 = 10n ** 18n
const STRANDED = 1_000n * E18
const TAX_BPS = 1_000n
const COLLECTOR = '0x00000000000000000000000000000000000007a7'
const NATIVE_IN = 1n << 48n
const taxAbi = [
  { type: 'function', name: 'setTax', stateMutability: 'nonpayable', inputs: [{ name: 'seller', type: 'address' }, { name: 'bps', type: 'uint256' }], outputs: [] },
] as const

type Family = 'uniswapV2' | 'uniswapV3' | 'pancakeV3' | 'slipstream' | 'uniswapV4' | 'balancerV2'

describe('stranded balances vs a buy-tax hop, on every family', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  let executor: Address
  let link: Address
  let weth: Address
  let usdc: Address
  /** The step buying LINK with WETH on each family's pool, and the pool (or singleton) that pays it. */
  const buys = new Map<Family, { step: ExecutorStep; payer: Address }>()

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const pancake = await deployPancakeV3(devnet)
    const v4 = await deployUniswapV4(devnet)
    const slipstream = await deploySlipstreamStandIn(devnet)
    const balancer = await deployBalancerV2(devnet)
    const wethLink = await createBalancerV2WeightedPool(devnet, balancer, [
      { token: 'WETH', weight: 8n * 10n ** 17n, amount: (800_000n * E18) / 3_000n },
      { token: 'LINK', weight: 2n * 10n ** 17n, amount: (200_000n * E18) / 15n },
    ])
    const config = withSlipstreamStandIn(withPancakeV3(withUniswapV4(devnet.chain, v4), pancake), slipstream)
    const withBalancer = { ...config, dexes: [...config.dexes, getBalancerV2DexConfig(balancer, [wethLink.poolId])] }
    executor = (await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withBalancer })).toLowerCase() as Address
    chain = { ...withBalancer, executor }
    ;({ LINK: { address: link }, WETH: { address: weth }, USDC: { address: usdc } } = devnet.tokens)

    const dex = (family: string) => chain.dexes.findIndex((d) => d.family === family)
    const pairOf = <P extends { tokens: readonly Address[] }>(pools: readonly P[]) => {
      const found = pools.find((p) => p.tokens.includes(link) && p.tokens.includes(weth))
      if (!found) throw new Error('no LINK/WETH pool')
      return found
    }
    const step = (family: string, param: bigint): ExecutorStep => ({ dex: dex(family), tokenIn: weth, tokenOut: link, param })
    const v2 = pairOf(devnet.pools.filter((p) => p.family === 'uniswapV2'))
    const v3 = pairOf(devnet.pools.filter((p) => p.family === 'uniswapV3'))
    const cake = pairOf(pancake.pools)
    const stream = pairOf(slipstream.pools)
    const v4Pool = v4.pools.find((p) => p.native && p.tokens.includes(link) && p.hooks === zeroAddress)
    if (!v4Pool) throw new Error('no native ETH/LINK V4 pool')
    // The V2 step's "measure" flag clear: the attacker's choice.
    buys.set('uniswapV2', { step: step('uniswapV2', 0n), payer: v2.address })
    buys.set('uniswapV3', { step: step('uniswapV3', BigInt(v3.fee)), payer: v3.address })
    buys.set('pancakeV3', { step: step('pancakeV3', BigInt(cake.fee)), payer: cake.address })
    buys.set('slipstream', { step: step('slipstream', BigInt(stream.tickSpacing)), payer: stream.address })
    buys.set('uniswapV4', { step: step('uniswapV4', BigInt(v4Pool.fee) | (BigInt(v4Pool.tickSpacing) << 24n) | NATIVE_IN), payer: v4.manager })
    buys.set('balancerV2', { step: step('balancerV2', BigInt(wethLink.poolId)), payer: balancer.vault })

    // LINK becomes a buy-tax token: same storage, new code; every family's payer is taxed.
    const { AttackTaxedTestToken: taxed } = await compileTestContracts({ files: ['test/contracts/AttackTaxedTestToken.sol'] })
    await rpc(anvil.rpcUrl, 'anvil_setCode', [link, taxed!.deployedBytecode])
    for (const { payer } of buys.values()) {
      await devnet.anvil.walletClients[0]!.sendTransaction({ to: link, data: encodeFunctionData({ abi: taxAbi, functionName: 'setTax', args: [payer, TAX_BPS] }), gas: 100_000n })
    }
    await devnet.mint('LINK', executor, STRANDED)
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  it.each(['uniswapV2', 'uniswapV3', 'pancakeV3', 'slipstream', 'uniswapV4', 'balancerV2'] as const)(
    '%s: ETH -> LINK (taxed) -> WETH -> USDC spends only the LINK that arrived; the stranded LINK stays',
    async (family) => {
      const checkpoint = await anvil.checkpoint()
      try {
        const amountIn = E18
        const v2Dex = chain.dexes.findIndex((d) => d.family === 'uniswapV2')
        const data = buildFillCalldata({
          id: '0x000000000000000000000000000000a8',
          tokenIn: zeroAddress,
          tokenOut: usdc,
          amountIn,
          amountOut: 0n,
          minAmountOut: 0n,
          receiver: null,
          deadline: FAR_DEADLINE,
          feeOnOutput: false,
          fees: [],
          surplusRecipient: null,
          surplusBps: 0,
          treasury: null,
          paths: [
            {
              amountIn,
              steps: [
                buys.get(family)!.step,
                { dex: v2Dex, tokenIn: link, tokenOut: weth, param: 0n },
                { dex: v2Dex, tokenIn: weth, tokenOut: usdc, param: 0n },
              ],
            },
          ],
        })
        const trader = devnet.accounts.traders[0]!
        const wallet = anvil.walletClients.find((w) => w.account.address.toLowerCase() === trader.toLowerCase())!
        const hash = await wallet.sendTransaction({ to: executor, data: data as Hex, value: amountIn, gas: 6_000_000n })
        const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
        expect(receipt.status).toBe('success')

        const transfers = parseEventLogs({ abi: testTokenAbi, eventName: 'Transfer', logs: receipt.logs }).filter((log) => log.address.toLowerCase() === link)
        const sum = (keep: (log: (typeof transfers)[number]) => boolean) => transfers.filter(keep).reduce((total, log) => total + log.args.value, 0n)
        const arrived = sum((log) => log.args.to.toLowerCase() === executor)
        const spent = sum((log) => log.args.from.toLowerCase() === executor)
        const tax = sum((log) => log.args.to.toLowerCase() === COLLECTOR)
        expect(tax).toBeGreaterThan(0n)
        // The pool paid arrived + tax; the next hop spent exactly what arrived.
        expect(tax * 10_000n).toBeGreaterThanOrEqual((arrived + tax) * TAX_BPS - 10_000n)
        expect(spent).toBe(arrived)
        expect(await devnet.balanceOf(link, executor)).toBe(STRANDED)
      } finally {
        await checkpoint.restore()
      }
    },
  )
})
