// The transfer-fee probe through every family, on anvil with each family's real bytecode. An
// unlisted token whose only pool is a Uniswap V4 pool (DAI), an Aerodrome V2 pool (LINK), a
// Balancer V2 pool (PEPE), a PancakeSwap V3 pool (USDC), a Slipstream pool (USDT) or a Uniswap V3
// pool whose price sits in a range gap (WBTC: `flash` needs active liquidity) had no lender the
// probe could borrow from, so it was refused (422). The probe now borrows through each family's
// own entry point (the PoolManager's unlock/take, the pool's swap hook, the Vault's flashLoan, the
// pools' flash, a V3 exact-output swap). Fee-free, each is measured at 0 and its quotes execute
// exactly. Then DAI, LINK, PEPE and WBTC turn into fee-on-transfer tokens (their TestToken code
// replaced, pools kept): each is measured at its fee, and since none of these families can trade
// such a token (docs/decisions.md) the quote is a 404, never a fill that comes up short. A buy-only
// tax fits no one fee: still a clear 422.
import { type Address, type Hex, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type QuoteIntent, QuoteError, createRpcSource, deployExecutor, getQuote } from '../src/index.js'
import { deployAerodrome, withAerodrome } from './devnet/aerodrome.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { createBalancerV2WeightedPool, deployBalancerV2, getBalancerV2DexConfig } from './devnet/balancerV2.js'
import { compileTestContracts } from './devnet/compile.js'
import { type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import { deployPancakeV3, withPancakeV3 } from './devnet/pancakeV3.js'
import { rpc } from './devnet/rpc.js'
import { deploySlipstreamReal, withSlipstreamReal } from './devnet/slipstreamReal.js'
import { deployUniswapV4, withUniswapV4 } from './devnet/uniswapV4.js'
import type { DevnetSymbol } from './devnet/universe.js'
import { executeQuote } from './support/fill.js'

const POOL_USD = 1_000_000
/** Each unlisted token, the one pool it has (always against WETH) and the swap's protocol/fork. */
const ONLY_POOLS = [
  { symbol: 'DAI', family: 'uniswapV4', swap: 'Uniswap V4/UniswapV4' },
  { symbol: 'LINK', family: 'aerodromeV2', swap: 'Solidly/AeroDrome' },
  { symbol: 'PEPE', family: 'balancerV2', swap: 'Balancer V2/BalancerV2' },
  { symbol: 'USDC', family: 'pancakeV3', swap: 'Uniswap V3/PancakeV3' },
  { symbol: 'USDT', family: 'slipstream', swap: 'Uniswap V3/AeroDromeCL' },
  // Its price in a range gap (no active liquidity): `flash` cannot lend, a swap can.
  { symbol: 'WBTC', family: 'uniswapV3 (price in a gap)', swap: 'Uniswap V3/UniswapV3' },
] as const satisfies readonly { symbol: DevnetSymbol; family: string; swap: string }[]
/** Those that turn fee-on-transfer, each at its own fee (bps). */
const DEFLATING_FEES = { DAI: 100, LINK: 250, PEPE: 37, WBTC: 50 } as const
const setFeeAbi = [
  { type: 'function', name: 'setFee', stateMutability: 'nonpayable', inputs: [{ type: 'uint256' }, { type: 'uint8' }], outputs: [] },
] as const
const liquidityAbi = [{ type: 'function', name: 'liquidity', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint128' }] }] as const
const setTaxAbi = [
  { type: 'function', name: 'setTax', stateMutability: 'nonpayable', inputs: [{ type: 'address' }, { type: 'uint256' }], outputs: [] },
] as const

describe('the transfer-fee probe borrows through every family', () => {
  let anvil: Anvil
  let devnet: Devnet
  let chain: ChainConfig
  let weth: Address
  let trader: Address
  let poolManager: Address

  beforeAll(async () => {
    anvil = await startAnvil()
    const full = [{ range: 'full', usd: POOL_USD }] as const
    // No Uniswap V2 pair, one V3 pool: each token's only pool is the one below. WBTC's V3 pool
    // holds liquidity only 5%-40% above and below its price.
    const gap = [
      { range: [1.05, 1.4], usd: POOL_USD / 2 },
      { range: [1 / 1.4, 1 / 1.05], usd: POOL_USD / 2 },
    ] as const
    devnet = await deployDevnet(anvil, { pools: [{ family: 'uniswapV3', pair: ['WBTC', 'WETH'], fee: 3000, positions: gap }], traders: 1 })
    const gapPool = devnet.getPool('WBTC', 'WETH', 'uniswapV3', 3000).address
    expect(await anvil.publicClient.readContract({ address: gapPool, abi: liquidityAbi, functionName: 'liquidity' })).toBe(0n)
    const v4 = await deployUniswapV4(devnet, { pools: [{ pair: ['WETH', 'DAI'], fee: 3000, tickSpacing: 60, positions: full }] })
    const aerodrome = await deployAerodrome(devnet, { pools: [{ pair: ['WETH', 'LINK'], stable: false, usdPerSide: POOL_USD / 2 }] })
    const pancake = await deployPancakeV3(devnet, { pools: [{ pair: ['WETH', 'USDC'], fee: 500, positions: full }] })
    const slipstream = await deploySlipstreamReal(devnet, { pools: [{ pair: ['WETH', 'USDT'], tickSpacing: 100, positions: full }] })
    const balancer = await deployBalancerV2(devnet)
    const { WETH } = devnet.tokens
    const wethPepe = await createBalancerV2WeightedPool(devnet, balancer, [
      { token: 'WETH', weight: 5n * 10n ** 17n, amount: usdOf('WETH', POOL_USD / 2) },
      { token: 'PEPE', weight: 5n * 10n ** 17n, amount: usdOf('PEPE', POOL_USD / 2) },
    ])
    const withFamilies = withSlipstreamReal(withPancakeV3(withAerodrome(withUniswapV4(devnet.chain, v4), aerodrome), pancake), slipstream)
    // WETH is the chain's only major and only listed token: the five others are unlisted, so the RPC source measures their fee.
    const config: ChainConfig = {
      ...withFamilies,
      dexes: [...withFamilies.dexes, getBalancerV2DexConfig(balancer, [wethPepe.poolId])],
      majorTokens: [WETH.address],
      tokens: withFamilies.tokens.filter((token) => token.address === WETH.address),
    }
    chain = { ...config, executor: await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: config }) }
    weth = WETH.address
    trader = devnet.accounts.traders[0]!
    poolManager = v4.manager
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  /** A fresh RPC source each time: its metadata cache would keep a fee measured before the token changed. */
  const quote = (intent: Omit<QuoteIntent, 'chainId' | 'slippageBps'>) =>
    getQuote({ chainId: chain.id, slippageBps: 0, ...intent } as QuoteIntent, createRpcSource({ client: anvil.publicClient, chain }), { chains: [chain], sender: trader })
  const measuredFee = async (token: Address) => {
    const liquidity = await createRpcSource({ client: anvil.publicClient, chain }).getLiquidity({ chain, tokenIn: token, tokenOut: weth })
    return liquidity.tokens.find((t) => t.address === token)?.transferFeeBps
  }
  const send = async (to: Address, data: Hex) => {
    const hash = await anvil.walletClients[0]!.sendTransaction({ to, data, gas: 200_000n })
    expect((await anvil.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
  }
  /** `usd` worth of the token, in raw units. */
  const usdOf = (symbol: DevnetSymbol, usd: number) => {
    const token = devnet.tokens[symbol]
    return (BigInt(Math.round((usd / token.priceUsd) * 1e6)) * 10n ** BigInt(token.decimals)) / 1_000_000n
  }
  const thousandUsd = (symbol: DevnetSymbol) => usdOf(symbol, 1_000)

  it.each(ONLY_POOLS)('fee-free $symbol, whose only pool is $family: measured at 0; selling and buying it execute exactly', async ({ symbol, swap }) => {
    const token = devnet.tokens[symbol].address
    expect(await measuredFee(token)).toBe(0)
    for (const intent of [
      { sellToken: token, buyToken: weth, sellAmount: thousandUsd(symbol) },
      { sellToken: weth, buyToken: token, buyAmount: thousandUsd(symbol) },
    ]) {
      const checkpoint = await anvil.checkpoint()
      try {
        const q = await quote(intent)
        expect(q.route.swaps.flat().map((s) => `${s.protocol}/${s.fork}`)).toEqual([swap])
        const outcome = await executeQuote(devnet, q, intent.buyToken, trader)
        expect(outcome.receipt.status).toBe('success')
        expect(outcome.received).toBe(BigInt(q.amountOut))
        expect(Object.values(outcome.executorLeft).every((left) => left === 0n)).toBe(true)
      } finally {
        await checkpoint.restore()
      }
    }
  })

  describe('fee-on-transfer tokens', () => {
    let restore: () => Promise<void>
    beforeAll(async () => {
      restore = (await anvil.checkpoint()).restore
      const { DeflatingTestToken: deflating } = await compileTestContracts({ files: ['test/contracts/DeflatingTestToken.sol'] })
      for (const [symbol, bps] of Object.entries(DEFLATING_FEES)) {
        const token = devnet.tokens[symbol as DevnetSymbol].address
        await rpc(anvil.rpcUrl, 'anvil_setCode', [token, deflating!.deployedBytecode])
        await send(token, encodeFunctionData({ abi: setFeeAbi, functionName: 'setFee', args: [BigInt(bps), devnet.tokens[symbol as DevnetSymbol].decimals] }))
      }
    })
    afterAll(async () => {
      await restore?.()
    })
    it.each(ONLY_POOLS.filter((p) => p.symbol in DEFLATING_FEES))(
      '$symbol, whose only pool is $family, is measured at its fee; the family cannot trade it: 404, not a short fill',
      async ({ symbol }) => {
        const token = devnet.tokens[symbol].address
        expect(await measuredFee(token)).toBe(DEFLATING_FEES[symbol as keyof typeof DEFLATING_FEES])
        const refused = await quote({ sellToken: token, buyToken: weth, sellAmount: thousandUsd(symbol) }).catch((error: unknown) => error)
        expect(refused).toBeInstanceOf(QuoteError)
        expect(refused).toMatchObject({ statusCode: 404 })
      },
    )
  })

  it('a buy-only tax (the PoolManager pays 5% less than it sends, the way back is free) fits no one fee: 422', async () => {
    const dai = devnet.tokens.DAI.address
    const checkpoint = await anvil.checkpoint()
    try {
      const { AttackTaxedTestToken: taxed } = await compileTestContracts({ files: ['test/contracts/AttackTaxedTestToken.sol'] })
      await rpc(anvil.rpcUrl, 'anvil_setCode', [dai, taxed!.deployedBytecode])
      await send(dai, encodeFunctionData({ abi: setTaxAbi, functionName: 'setTax', args: [poolManager, 500n] }))
      expect(await measuredFee(dai)).toBeNull()
      const refused = await quote({ sellToken: dai, buyToken: weth, sellAmount: thousandUsd('DAI') }).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(QuoteError)
      expect(refused).toMatchObject({ statusCode: 422, message: expect.stringContaining('sellToken is a token whose fee on transfer could not be determined') })
    } finally {
      await checkpoint.restore()
    }
  })
})
