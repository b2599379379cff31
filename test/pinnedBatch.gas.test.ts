// The one-round-trip read on a devnet holding every family (Uniswap V2/V3, PancakeSwap V3, Uniswap
// V4, Balancer V2, Aerodrome V2 and the Slipstream stand-in): every reader's eth_call and lens go
// into ONE eth_call of PinnedBatchRead, so they share that call's gas (anvil caps it at the 30M
// block gas limit). Each lens (deployless multicalls included) once ran as a CREATE, paying 200 gas
// per byte of its answer in code deposit and 16 per byte of its creation code in calldata: LINK/USDT
// (both outside the majors: six candidate tokens) took 26M of the 30M, and with Aerodrome V2 listed
// twice (read twice) the call ran out: the Uniswap V3 lenses, queued last, reverted
// GasBudgetExhausted, a 503. Lenses now run as calls of code placed by state override (14M), and a
// family listed twice is read once.
import { type Address, type Hex, type PublicClient, createPublicClient, custom, decodeAbiParameters } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type QuoteIntent, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { aerodromeV2Family } from '../src/protocols/aerodromeV2/family.js'
import { defaultFamilies } from '../src/protocols/defaultFamilies.js'
import { deployAerodrome, withAerodrome } from './devnet/aerodrome.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from './devnet/balancerV2.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import { deployPancakeV3, withPancakeV3 } from './devnet/pancakeV3.js'
import { deploySlipstreamStandIn, withSlipstreamStandIn } from './devnet/slipstreamStandIn.js'
import { deployUniswapV4, withUniswapV4 } from './devnet/uniswapV4.js'

const E18 = 10n ** 18n
const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee0b' as Address
/** Two thirds of anvil's eth_call cap (30M): a cold quote's batch leaves room for more candidates. */
const BATCH_GAS_BUDGET = 20_000_000n

type CallFrame = { type: string; gasUsed: Hex; error?: string; calls?: CallFrame[] }
type SentCall = { call: { to: Address; data: Hex }; block: string; overrides: Record<Address, { code: Hex }> }

describe('the pinned batch on a devnet with every family: LINK/USDT within the call gas', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  /** The state-overridden eth_calls (pinned batches) the source sent, in order. */
  const batches: SentCall[] = []
  let client: PublicClient

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    const pancake = await deployPancakeV3(devnet)
    const v4 = await deployUniswapV4(devnet)
    const balancer = await deployBalancerV2(devnet)
    const wethUsdc = await createBalancerV2WeightedPool(devnet, balancer, [
      { token: 'WETH', weight: 5n * 10n ** 17n, amount: (2_000_000n * E18) / 3_000n },
      { token: 'USDC', weight: 5n * 10n ** 17n, amount: 2_000_000n * 10n ** 6n },
    ], { swapFee: 3n * 10n ** 15n })
    const aerodrome = await deployAerodrome(devnet)
    const slipstream = await deploySlipstreamStandIn(devnet)
    const config = withAerodrome(withSlipstreamStandIn(withPancakeV3(withUniswapV4(devnet.chain, v4), pancake), slipstream), aerodrome)
    const withBalancer = { ...config, dexes: [...config.dexes, getBalancerV2DexConfig(balancer, [wethUsdc.poolId])] }
    const executor = await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withBalancer })
    chain = { ...withBalancer, executor }
    // Forwards to the node and keeps each pinned batch, to replay it under a tracer.
    client = createPublicClient({
      chain: anvil.chain,
      transport: custom({
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          if (method === 'eth_call' && params?.length === 3) {
            const [call, block, overrides] = params as [SentCall['call'], string, SentCall['overrides']]
            batches.push({ call, block, overrides })
          }
          return anvil.publicClient.request({ method, params } as never)
        },
      }),
    }) as PublicClient
  }, 180_000)

  afterAll(async () => {
    await anvil?.stop()
  })

  /** The batch's gas and its reads' frames, replayed at the block it ran at. */
  async function traceBatch(sent: SentCall, blockNumber: number): Promise<CallFrame> {
    return (await anvil.publicClient.request({
      method: 'debug_traceCall',
      params: [sent.call, `0x${blockNumber.toString(16)}`, { tracer: 'callTracer', stateOverrides: sent.overrides }],
    } as never)) as CallFrame
  }

  it('reads LINK/USDT on every family in one round trip, every read answering, a third of the call cap to spare', async () => {
    const link = devnet.tokens.LINK.address
    const usdt = devnet.tokens.USDT.address
    batches.length = 0
    const source = createRpcSource({ client, chain, families: defaultFamilies })
    // The balances a quote with a fee asks for: the payee's and the fee recipient's.
    const accounts = [
      { token: usdt, account: devnet.accounts.traders[0]! },
      { token: usdt, account: FEE_RECIPIENT },
    ]
    const liquidity = await source.getLiquidity({ chain, tokenIn: link, tokenOut: usdt, accounts })
    expect(liquidity.report.roundTrips).toBe(1)
    const families = new Set(liquidity.pools.map((p) => p.family))
    for (const family of ['uniswapV2', 'uniswapV3', 'pancakeV3', 'uniswapV4', 'balancerV2', 'slipstream', 'aerodromeV2']) expect(families).toContain(family)

    expect(batches).toHaveLength(1)
    const trace = await traceBatch(batches[0]!, liquidity.blockNumber)
    const reads = trace.calls ?? []
    const [sentReads] = decodeAbiParameters([{ type: 'tuple[]', components: [{ type: 'uint8' }, { type: 'address' }, { type: 'bytes' }] }], batches[0]!.call.data)
    const failed = reads.filter((frame) => frame.error !== undefined)
    console.log(
      `pinned batch, LINK/USDT on every family: ${sentReads.length} reads (${Object.keys(batches[0]!.overrides).length - 1} lenses), ` +
        `${BigInt(trace.gasUsed)} gas, ${(batches[0]!.call.data.length - 2) / 2} bytes of calldata`,
    )
    expect(failed).toEqual([])
    expect(BigInt(trace.gasUsed)).toBeLessThan(BATCH_GAS_BUDGET)
  })

  it('quotes LINK to USDT and back with every family, Aerodrome V2 listed twice as the Aerodrome execution test did (a 503 before)', async () => {
    const families = [...defaultFamilies, aerodromeV2Family]
    for (const [sell, buy] of [['LINK', 'USDT'], ['USDT', 'LINK']] as const) {
      const intent: QuoteIntent = {
        chainId: chain.id,
        sellToken: devnet.tokens[sell].address,
        buyToken: devnet.tokens[buy].address,
        sellAmount: sell === 'LINK' ? 500n * E18 : 7_500n * 10n ** 6n,
        slippageBps: 50,
        feeBps: 25,
        feeRecipient: FEE_RECIPIENT,
      }
      const quote = await getQuote(intent, createRpcSource({ client, chain, families }), { chains: [chain], sender: devnet.accounts.traders[0]!, families })
      expect(BigInt(quote.amountOut)).toBeGreaterThan(0n)
    }
  })

  it('reads a family listed twice once: no second copy of its reads or its pools', async () => {
    batches.length = 0
    const twice = [...defaultFamilies, aerodromeV2Family]
    const liquidity = await createRpcSource({ client, chain, families: twice }).getLiquidity({ chain, tokenIn: devnet.tokens.LINK.address, tokenOut: devnet.tokens.USDT.address })
    // Uniswap V4 pools share the PoolManager's address: they are told apart by their id.
    const keys = liquidity.pools.map((p) => `${p.family}:${p.address}:${'id' in p ? String(p.id) : ''}`)
    expect(new Set(keys).size).toBe(keys.length)
    expect(liquidity.pools.some((p) => p.family === 'aerodromeV2')).toBe(true)
  })
})
