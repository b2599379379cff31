import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Address,
  type Hex,
  type TransactionReceipt,
  concat,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  getCreate2Address,
  keccak256,
  maxUint256,
  numberToHex,
  parseEventLogs,
} from 'viem'
import type { ChainConfig, DexConfig, TokenInfo } from '../../src/chains/types.js'
import {
  testTokenAbi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
  v3LiquidityProviderAbi,
  weth9Abi,
} from './abis.js'
import type { Anvil } from './anvil.js'
import { compileTestContracts } from './compile.js'
import {
  getFullRangeTicks,
  getLiquidityForUsd,
  getNearestTick,
  getRawPrice,
  getSqrtPriceX96,
  toRawAmount,
} from './priceMath.js'
import { type DevnetTransaction, rpc, rpcBatch, sendDevnetTransaction, sendDevnetTransactions } from './rpc.js'
import {
  DEVNET_POOLS,
  DEVNET_TOKENS,
  DEVNET_TRADER_FUNDING,
  type DevnetPoolSpec,
  type DevnetSymbol,
  type DevnetTokenSpec,
} from './universe.js'

/** keccak256 of UniswapV2Pair's creation code (the mainnet value; the npm build matches). */
export const UNISWAP_V2_INIT_CODE_HASH: Hex = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'
/** keccak256 of UniswapV3Pool's creation code (the mainnet value; the npm build matches). */
export const UNISWAP_V3_INIT_CODE_HASH: Hex = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'
/** Uniswap V3 fee tiers (hundredths of a bip) and their tick spacings. The factory enables all but 100 itself. */
export const UNISWAP_V3_FEE_TIERS: Readonly<Record<number, number>> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }

/**
 * Explicit gas limits (anvil's own estimate can fall short when a transaction
 * lands in the next second, see toolchain.md). About twice what each uses.
 */
export const DEVNET_GAS = {
  deployWeth: 1_500_000n,
  deployToken: 2_000_000n,
  deployV2Factory: 6_000_000n,
  deployV3Factory: 9_000_000n,
  deployProvider: 2_000_000n,
  enableFeeAmount: 100_000n,
  createPair: 4_000_000n,
  createPool: 9_000_000n,
  initialize: 250_000n,
  mint: 150_000n,
  transfer: 150_000n,
  approve: 100_000n,
  deposit: 100_000n,
  v2Mint: 300_000n,
  v2Swap: 300_000n,
  v3Mint: 1_000_000n,
  v3Swap: 5_000_000n,
} as const

/** A devnet token (TokenInfo with a lowercase address) and its initial USD price. */
export type DevnetToken = TokenInfo & { symbol: DevnetSymbol; priceUsd: number }

/** A token by symbol or address. */
export type DevnetTokenRef = DevnetSymbol | Address

/** A V3 position the deploy created: owned by the deployer. */
export type DevnetPosition = { tickLower: number; tickUpper: number; liquidity: bigint }

/** A pool the deploy created. Addresses are lowercase; `tokens` are sorted (token0, token1). */
export type DevnetPool = {
  address: Address
  family: 'uniswapV2' | 'uniswapV3'
  /** `DexConfig.id` of the deployment. */
  dex: 'uniswapV2' | 'uniswapV3'
  tokens: readonly [token0: Address, token1: Address]
  symbols: readonly [DevnetSymbol, DevnetSymbol]
  /** Fee in hundredths of a bip (V2: 3000 = 0.3%). */
  fee: number
  /** V3 only. */
  tickSpacing?: number
  /** V3: the positions added at deploy; V2: empty. */
  positions: readonly DevnetPosition[]
}

/** A pool by address or as listed in `Devnet.pools`. */
export type DevnetPoolRef = Address | DevnetPool

/** Options of {@link deployDevnet}. */
export type DeployDevnetOptions = {
  /** The pools to create (default {@link DEVNET_POOLS}). */
  pools?: readonly DevnetPoolSpec[]
  /** How many trader accounts to fund (anvil accounts 1..n). Default 3. */
  traders?: number
}

/** Who sends what: for `v3Swap`, `v2Swap` and `addV3Liquidity`. */
export type DevnetTxOptions = {
  /** Pays and signs (an unlocked account). Default: the deployer, who holds plenty of every token. */
  from?: Address
  /** Receives the output or owns the position. Default: `from`. */
  recipient?: Address
}

/** The outcome of {@link Devnet.v3Swap}, from the pool's `Swap` event. */
export type DevnetV3SwapResult = {
  /** Pool deltas: positive is paid in, negative paid out. */
  amount0: bigint
  amount1: bigint
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
  receipt: TransactionReceipt
}

/** The outcome of {@link Devnet.v2Swap}. */
export type DevnetV2SwapResult = { amountOut: bigint; receipt: TransactionReceipt }

/** A deployed devnet: chain config, tokens, pools, accounts and test helpers. */
export type Devnet = {
  anvil: Anvil
  /** The weft chain config describing this devnet. */
  chain: ChainConfig
  tokens: Readonly<Record<DevnetSymbol, DevnetToken>>
  pools: readonly DevnetPool[]
  contracts: {
    weth: Address
    uniswapV2Factory: Address
    uniswapV3Factory: Address
    v3LiquidityProvider: Address
  }
  accounts: {
    /** Deployed everything, owns the LP positions, holds ~1e15 of every token and has approved the provider. */
    deployer: Address
    /** Funded with {@link DEVNET_TRADER_FUNDING} and 9,000 ETH; no approvals. */
    traders: readonly Address[]
  }
  /** Wall time of `deployDevnet`, in ms. */
  deployMs: number
  /** Transactions the deploy sent. */
  transactionCount: number
  /** A token by symbol or address; throws when unknown. */
  getToken(token: DevnetTokenRef): DevnetToken
  /** A pool by its two tokens (any order), family and (V3) fee; throws when absent. */
  getPool(tokenA: DevnetTokenRef, tokenB: DevnetTokenRef, family: DevnetPool['family'], fee?: number): DevnetPool
  /** Gives `to` `amount` raw units: TestTokens are minted; WETH is wrapped by the deployer and sent. */
  mint(token: DevnetTokenRef, to: Address, amount: bigint): Promise<void>
  /** `owner` (an unlocked account) approves `spender`. Default amount: max. */
  approve(token: DevnetTokenRef, owner: Address, spender: Address, amount?: bigint): Promise<void>
  /** Raw balance of a token, or of ETH. */
  balanceOf(token: DevnetTokenRef | 'ETH', who: Address): Promise<bigint>
  /**
   * A raw swap on a V3 pool through the V3LiquidityProvider, to move its
   * price. `amountSpecified` > 0: exact input; < 0: exact output. A `from`
   * other than the deployer must have approved the provider.
   */
  v3Swap(
    pool: DevnetPoolRef,
    zeroForOne: boolean,
    amountSpecified: bigint,
    options?: DevnetTxOptions & { sqrtPriceLimitX96?: bigint },
  ): Promise<DevnetV3SwapResult>
  /** A raw V2 swap: sends `amountIn` to the pair, then calls `swap` for the full constant-product output. */
  v2Swap(pair: DevnetPoolRef, tokenIn: DevnetTokenRef, amountIn: bigint, options?: DevnetTxOptions): Promise<DevnetV2SwapResult>
  /**
   * Adds a V3 position through the provider, paid by `from` (which must have
   * approved the provider unless it is the deployer).
   */
  addV3Liquidity(
    pool: DevnetPoolRef,
    tickLower: number,
    tickUpper: number,
    liquidity: bigint,
    options?: DevnetTxOptions,
  ): Promise<{ amount0: bigint; amount1: bigint; receipt: TransactionReceipt }>
}

const require = createRequire(import.meta.url)

function readArtifactBytecode(modulePath: string): Hex {
  const { bytecode } = JSON.parse(readFileSync(require.resolve(modulePath), 'utf8')) as { bytecode: string }
  // The V2 builds (waffle) store bytecode without 0x; the V3 ones (hardhat) with it.
  return (bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`) as Hex
}

const lower = (address: string) => address.toLowerCase() as Address

function sortTokens(a: Address, b: Address): [Address, Address] {
  return lower(a) < lower(b) ? [lower(a), lower(b)] : [lower(b), lower(a)]
}

/** The V2 pair address, derived as the factory's CREATE2 does. */
function computeV2PairAddress(factory: Address, tokenA: Address, tokenB: Address): Address {
  const [token0, token1] = sortTokens(tokenA, tokenB)
  const salt = keccak256(encodePacked(['address', 'address'], [token0, token1]))
  return lower(getCreate2Address({ from: factory, salt, bytecodeHash: UNISWAP_V2_INIT_CODE_HASH }))
}

/** The V3 pool address, derived as the factory's CREATE2 does. */
function computeV3PoolAddress(factory: Address, tokenA: Address, tokenB: Address, fee: number): Address {
  const [token0, token1] = sortTokens(tokenA, tokenB)
  const salt = keccak256(
    encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, fee]),
  )
  return lower(getCreate2Address({ from: factory, salt, bytecodeHash: UNISWAP_V3_INIT_CODE_HASH }))
}

/**
 * Deploys the devnet universe on a fresh anvil: WETH9, six TestTokens, the
 * real UniswapV2Factory and UniswapV3Factory from npm, the pools of
 * {@link DEVNET_POOLS} with liquidity at realistic prices, and funded traders.
 * About 140 transactions, all with explicit gas limits, go out in two phases
 * of JSON-RPC batches mined block by block (see `sendDevnetTransactions`);
 * every receipt is checked, and every pool address is asserted equal to its
 * CREATE2 derivation from the factory and the mainnet init-code hash before
 * any liquidity is sent to it. Takes ~0.2 s on a fresh anvil.
 *
 * @example
 * const anvil = await startAnvil()
 * const devnet = await deployDevnet(anvil)
 * const pool = devnet.getPool('WETH', 'USDC', 'uniswapV3', 500)
 * await devnet.v3Swap(pool, true, 10n ** 18n)
 */
export async function deployDevnet(anvil: Anvil, options: DeployDevnetOptions = {}): Promise<Devnet> {
  const started = performance.now()
  const url = anvil.rpcUrl
  const poolSpecs = options.pools ?? DEVNET_POOLS
  const traderCount = options.traders ?? 3
  const deployer = anvil.accounts[0]?.address
  if (!deployer || traderCount + 1 > anvil.accounts.length) throw new Error(`at most ${anvil.accounts.length - 1} traders`)
  const traders = anvil.accounts.slice(1, 1 + traderCount).map((account) => account.address)

  const compiled = await compileTestContracts({
    files: ['test/contracts/TestToken.sol', 'test/contracts/V3LiquidityProvider.sol'],
  })
  const testToken = compiled.TestToken
  const provider = compiled.V3LiquidityProvider
  if (!testToken || !provider) throw new Error('TestToken or V3LiquidityProvider did not compile')

  // Deployer ETH for wrapping the WETH the pools need.
  const [startNonceHex] = await rpcBatch<[Hex, unknown]>(url, [
    { method: 'eth_getTransactionCount', params: [deployer, 'pending'] },
    { method: 'anvil_setBalance', params: [deployer, numberToHex(10n ** 27n)] },
  ])
  let deployerNonce = Number(startNonceHex)

  // Phase 1: contracts, pool creation, balances. Everything here only depends
  // on contract addresses, which follow from the deployer's nonces.
  const phase1: DevnetTransaction[] = []
  const expectedCreations: { label: string; index: number; address: Address }[] = []
  const deploy = (label: string, data: Hex, gas: bigint): Address => {
    const address = lower(getContractAddress({ from: deployer, nonce: BigInt(deployerNonce) }))
    expectedCreations.push({ label, index: phase1.length, address })
    phase1.push({ label, from: deployer, data, gas, nonce: deployerNonce++ })
    return address
  }
  const call = (label: string, to: Address, data: Hex, gas: bigint, value?: bigint) => {
    phase1.push({ label, from: deployer, to, data, gas, nonce: deployerNonce++, ...(value ? { value } : {}) })
  }

  const tokens = {} as Record<DevnetSymbol, DevnetToken>
  for (const spec of DEVNET_TOKENS) {
    const data =
      spec.symbol === 'WETH'
        ? readArtifactBytecode('@uniswap/v2-periphery/build/WETH9.json')
        : encodeDeployData({ abi: testTokenAbi, bytecode: testToken.bytecode, args: [spec.name, spec.symbol, spec.decimals] })
    const address = deploy(`deploy ${spec.symbol}`, data, spec.symbol === 'WETH' ? DEVNET_GAS.deployWeth : DEVNET_GAS.deployToken)
    tokens[spec.symbol] = { address, symbol: spec.symbol, decimals: spec.decimals, priceUsd: spec.priceUsd }
  }
  const weth = tokens.WETH.address
  const v2Factory = deploy(
    'deploy UniswapV2Factory',
    concat([
      readArtifactBytecode('@uniswap/v2-core/build/UniswapV2Factory.json'),
      encodeAbiParameters([{ type: 'address' }], [deployer]), // feeToSetter
    ]),
    DEVNET_GAS.deployV2Factory,
  )
  const v3Factory = deploy(
    'deploy UniswapV3Factory',
    readArtifactBytecode('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
    DEVNET_GAS.deployV3Factory,
  )
  const v3LiquidityProvider = deploy('deploy V3LiquidityProvider', provider.bytecode, DEVNET_GAS.deployProvider)
  call(
    'enable V3 fee tier 100',
    v3Factory,
    encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'enableFeeAmount', args: [100, 1] }),
    DEVNET_GAS.enableFeeAmount,
  )

  const testTokenSpecs = DEVNET_TOKENS.filter((spec) => spec.symbol !== 'WETH')
  const deposit = encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' })
  call('deployer wraps 1M WETH', weth, deposit, DEVNET_GAS.deposit, 10n ** 24n)
  for (const spec of testTokenSpecs) {
    const token = tokens[spec.symbol].address
    call(
      `mint ${spec.symbol} to deployer`,
      token,
      encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [deployer, toRawAmount(1e15, spec.decimals)] }),
      DEVNET_GAS.mint,
    )
  }
  for (const spec of DEVNET_TOKENS) {
    call(
      `deployer approves provider for ${spec.symbol}`,
      tokens[spec.symbol].address,
      encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [v3LiquidityProvider, maxUint256] }),
      DEVNET_GAS.approve,
    )
  }

  const pools: DevnetPool[] = []
  for (const spec of poolSpecs) {
    const [symbolA, symbolB] = spec.pair
    const [token0, token1] = sortTokens(tokens[symbolA].address, tokens[symbolB].address)
    const symbols = (token0 === tokens[symbolA].address ? [symbolA, symbolB] : [symbolB, symbolA]) as [DevnetSymbol, DevnetSymbol]
    const name = `${symbolA}/${symbolB}`
    if (spec.family === 'uniswapV2') {
      const address = computeV2PairAddress(v2Factory, token0, token1)
      call(
        `create V2 ${name}`,
        v2Factory,
        encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [token0, token1] }),
        DEVNET_GAS.createPair,
      )
      pools.push({ address, family: 'uniswapV2', dex: 'uniswapV2', tokens: [token0, token1], symbols, fee: 3000, positions: [] })
    } else {
      const tickSpacing = UNISWAP_V3_FEE_TIERS[spec.fee]
      if (tickSpacing === undefined) throw new Error(`V3 ${name}: unknown fee tier ${spec.fee}`)
      const address = computeV3PoolAddress(v3Factory, token0, token1, spec.fee)
      call(
        `create V3 ${name} ${spec.fee}`,
        v3Factory,
        encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'createPool', args: [token0, token1, spec.fee] }),
        DEVNET_GAS.createPool,
      )
      pools.push({
        address,
        family: 'uniswapV3',
        dex: 'uniswapV3',
        tokens: [token0, token1],
        symbols,
        fee: spec.fee,
        tickSpacing,
        positions: [],
      })
    }
  }
  const seen = new Set<string>()
  for (const pool of pools) {
    if (seen.has(pool.address)) throw new Error(`pool ${pool.symbols.join('/')} ${pool.family} ${pool.fee} is listed twice`)
    seen.add(pool.address)
  }

  for (const trader of traders) {
    for (const spec of testTokenSpecs) {
      call(
        `mint ${spec.symbol} to trader ${trader}`,
        tokens[spec.symbol].address,
        encodeFunctionData({
          abi: testTokenAbi,
          functionName: 'mint',
          args: [trader, toRawAmount(DEVNET_TRADER_FUNDING[spec.symbol], spec.decimals)],
        }),
        DEVNET_GAS.mint,
      )
    }
  }

  const receipts1 = await sendDevnetTransactions(url, phase1)
  for (const { label, index, address } of expectedCreations) {
    const created = receipts1[index]?.contractAddress
    if (!created || lower(created) !== address) throw new Error(`${label}: deployed at ${created}, expected ${address}`)
  }

  // Liquidity goes to precomputed addresses, where a transfer or a call to an
  // empty account would succeed silently: first prove the factories agree.
  const registered = await rpcBatch<Hex[]>(
    url,
    pools.map((pool) => ({
      method: 'eth_call',
      params: [
        {
          to: pool.family === 'uniswapV2' ? v2Factory : v3Factory,
          data:
            pool.family === 'uniswapV2'
              ? encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [pool.tokens[0], pool.tokens[1]] })
              : encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'getPool', args: [pool.tokens[0], pool.tokens[1], pool.fee] }),
        },
        'latest',
      ],
    })),
  )
  const mismatches = pools.flatMap((pool, i) => {
    const actual = lower(`0x${(registered[i] as Hex).slice(26)}`)
    if (actual === pool.address) return []
    return [`${pool.family} ${pool.symbols.join('/')} ${pool.fee}: factory has ${actual}, CREATE2 gives ${pool.address}`]
  })
  if (mismatches.length > 0) {
    throw new Error(`pool addresses do not match the init-code hashes:\n${mismatches.join('\n')}`)
  }

  // Phase 2: prices and liquidity.
  const phase2: DevnetTransaction[] = []
  const send2 = (label: string, to: Address, data: Hex, gas: bigint) => {
    phase2.push({ label, from: deployer, to, data, gas, nonce: deployerNonce++ })
  }
  const specOf = (symbol: DevnetSymbol) => DEVNET_TOKENS.find((spec) => spec.symbol === symbol) as DevnetTokenSpec
  for (const [i, spec] of poolSpecs.entries()) {
    const pool = pools[i] as DevnetPool
    const [spec0, spec1] = [specOf(pool.symbols[0]), specOf(pool.symbols[1])]
    const name = `${pool.symbols.join('/')} ${pool.family} ${pool.fee}`
    if (spec.family === 'uniswapV2') {
      for (const tokenSpec of [spec0, spec1]) {
        const amount = toRawAmount(spec.usd / 2 / tokenSpec.priceUsd, tokenSpec.decimals)
        const token = tokens[tokenSpec.symbol].address
        send2(
          `fund ${name} with ${tokenSpec.symbol}`,
          token,
          tokenSpec.symbol === 'WETH'
            ? encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [pool.address, amount] })
            : encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [pool.address, amount] }),
          DEVNET_GAS.transfer,
        )
      }
      const mintLp = encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [deployer] })
      send2(`mint ${name} LP`, pool.address, mintLp, DEVNET_GAS.v2Mint)
    } else {
      const tickSpacing = pool.tickSpacing as number
      const price = getRawPrice(spec0, spec1)
      send2(
        `initialize ${name}`,
        pool.address,
        encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(price)] }),
        DEVNET_GAS.initialize,
      )
      // Ranges are written for the price of pair[0] in pair[1]; the pool's is token1 per token0.
      const inverted = pool.symbols[0] !== spec.pair[0]
      const positions: DevnetPosition[] = []
      for (const position of spec.positions) {
        let [tickLower, tickUpper] = getFullRangeTicks(tickSpacing)
        if (position.range !== 'full') {
          const [low, high] = inverted ? [1 / position.range[1], 1 / position.range[0]] : position.range
          tickLower = getNearestTick(price * low, tickSpacing)
          tickUpper = Math.max(getNearestTick(price * high, tickSpacing), tickLower + tickSpacing)
        }
        const liquidity = getLiquidityForUsd({ price, tickLower, tickUpper, usd: position.usd, token0: spec0, token1: spec1 })
        positions.push({ tickLower, tickUpper, liquidity })
        send2(
          `add liquidity to ${name} [${tickLower}, ${tickUpper}]`,
          v3LiquidityProvider,
          encodeFunctionData({
            abi: v3LiquidityProviderAbi,
            functionName: 'mint',
            args: [pool.address, deployer, tickLower, tickUpper, liquidity],
          }),
          DEVNET_GAS.v3Mint,
        )
      }
      pool.positions = positions
    }
  }
  // Other senders go in a later batch than the contracts they call: a block
  // orders senders by fee, and a deposit to a not-yet-deployed WETH would succeed silently.
  for (const trader of traders) {
    phase2.push({
      label: `trader ${trader} wraps WETH`,
      from: trader,
      to: weth,
      data: deposit,
      value: toRawAmount(DEVNET_TRADER_FUNDING.WETH, 18),
      gas: DEVNET_GAS.deposit,
    })
  }
  await sendDevnetTransactions(url, phase2)

  // Phase 3: a live pair has non-zero price accumulators; a fresh one writes them
  // from zero on its first swap (two 20k stores). Let time pass and sync every pair
  // so swaps here cost what they cost on a chain that has been trading.
  await rpc(url, 'evm_increaseTime', [12])
  const phase3: DevnetTransaction[] = pools
    .filter((pool) => pool.family === 'uniswapV2')
    .map((pool) => ({
      label: `sync ${pool.symbols.join('/')} V2`,
      from: deployer,
      to: pool.address,
      data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'sync' }),
      gas: DEVNET_GAS.v2Mint,
      nonce: deployerNonce++,
    }))
  await sendDevnetTransactions(url, phase3)

  const bySymbol = new Map(Object.values(tokens).map((token) => [token.symbol as string, token]))
  const byAddress = new Map(Object.values(tokens).map((token) => [token.address as string, token]))
  const getToken = (ref: DevnetTokenRef): DevnetToken => {
    const token = bySymbol.get(ref) ?? byAddress.get(ref.toLowerCase())
    if (!token) throw new Error(`unknown devnet token ${ref}`)
    return token
  }
  const poolsByAddress = new Map(pools.map((pool) => [pool.address as string, pool]))
  const resolvePool = (ref: DevnetPoolRef): DevnetPool => {
    const pool = poolsByAddress.get(typeof ref === 'string' ? ref.toLowerCase() : ref.address)
    if (!pool) throw new Error(`unknown devnet pool ${typeof ref === 'string' ? ref : ref.address}`)
    return pool
  }
  const send = (tx: DevnetTransaction) => sendDevnetTransaction(url, tx)

  const dexes: DexConfig[] = [
    {
      id: 'uniswapV2',
      family: 'uniswapV2',
      protocol: 'Uniswap V2',
      fork: 'UniswapV2',
      factory: v2Factory,
      initCodeHash: UNISWAP_V2_INIT_CODE_HASH,
      feeBps: 30,
    },
    {
      id: 'uniswapV3',
      family: 'uniswapV3',
      protocol: 'Uniswap V3',
      fork: 'UniswapV3',
      factory: v3Factory,
      initCodeHash: UNISWAP_V3_INIT_CODE_HASH,
      feeTiers: { ...UNISWAP_V3_FEE_TIERS },
    },
  ]
  const info = (symbol: DevnetSymbol): TokenInfo => {
    const { address, decimals } = tokens[symbol]
    return { address, symbol, decimals }
  }
  const chain: ChainConfig = {
    id: anvil.chainId,
    name: 'Devnet',
    status: 'active',
    nativeSymbol: 'ETH',
    wrappedNative: info('WETH'),
    tokens: (['USDC', 'USDT', 'DAI', 'WETH', 'WBTC', 'LINK', 'PEPE'] as const).map(info),
    usdStablecoins: [tokens.USDC.address, tokens.USDT.address, tokens.DAI.address],
    majorTokens: [tokens.USDC.address, tokens.USDT.address, tokens.DAI.address, weth, tokens.WBTC.address],
    dexes,
    defaultGasPriceWei: 1_000_000_000n,
  }

  const devnet: Devnet = {
    anvil,
    chain,
    tokens,
    pools,
    contracts: { weth, uniswapV2Factory: v2Factory, uniswapV3Factory: v3Factory, v3LiquidityProvider },
    accounts: { deployer, traders },
    deployMs: 0,
    transactionCount: phase1.length + phase2.length + phase3.length,
    getToken,
    getPool(tokenA, tokenB, family, fee) {
      const [token0, token1] = sortTokens(getToken(tokenA).address, getToken(tokenB).address)
      const pool = pools.find(
        (p) => p.family === family && p.tokens[0] === token0 && p.tokens[1] === token1 && (fee === undefined || p.fee === fee),
      )
      if (!pool) throw new Error(`no ${family} pool ${tokenA}/${tokenB}${fee === undefined ? '' : ` ${fee}`} on the devnet`)
      return pool
    },
    async mint(tokenRef, to, amount) {
      const token = getToken(tokenRef)
      if (token.address === weth) {
        await send({
          label: 'wrap WETH to mint',
          from: deployer,
          to: weth,
          data: deposit,
          value: amount,
          gas: DEVNET_GAS.deposit,
        })
        await send({
          label: `send WETH to ${to}`,
          from: deployer,
          to: weth,
          data: encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [to, amount] }),
          gas: DEVNET_GAS.transfer,
        })
        return
      }
      await send({
        label: `mint ${token.symbol} to ${to}`,
        from: deployer,
        to: token.address,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
        gas: DEVNET_GAS.mint,
      })
    },
    async approve(tokenRef, owner, spender, amount = maxUint256) {
      const token = getToken(tokenRef)
      await send({
        label: `${owner} approves ${spender} for ${token.symbol}`,
        from: owner,
        to: token.address,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [spender, amount] }),
        gas: DEVNET_GAS.approve,
      })
    },
    async balanceOf(tokenRef, who) {
      if (tokenRef === 'ETH') return BigInt(await rpc<Hex>(url, 'eth_getBalance', [who, 'latest']))
      const data = encodeFunctionData({ abi: testTokenAbi, functionName: 'balanceOf', args: [who] })
      return BigInt(await rpc<Hex>(url, 'eth_call', [{ to: getToken(tokenRef).address, data }, 'latest']))
    },
    async v3Swap(poolRef, zeroForOne, amountSpecified, swapOptions = {}) {
      const pool = resolvePool(poolRef)
      if (pool.family !== 'uniswapV3') throw new Error(`v3Swap: ${pool.address} is a ${pool.family} pool`)
      const from = swapOptions.from ?? deployer
      const receipt = await send({
        label: `v3Swap on ${pool.symbols.join('/')} ${pool.fee}`,
        from,
        to: v3LiquidityProvider,
        data: encodeFunctionData({
          abi: v3LiquidityProviderAbi,
          functionName: 'swap',
          args: [pool.address, swapOptions.recipient ?? from, zeroForOne, amountSpecified, swapOptions.sqrtPriceLimitX96 ?? 0n],
        }),
        gas: DEVNET_GAS.v3Swap,
      })
      const [event] = parseEventLogs({ abi: uniswapV3PoolAbi, eventName: 'Swap', logs: receipt.logs })
      if (!event) throw new Error('v3Swap: the pool emitted no Swap event')
      const { amount0, amount1, sqrtPriceX96, tick, liquidity } = event.args
      return { amount0, amount1, sqrtPriceX96, tick, liquidity, receipt }
    },
    async v2Swap(pairRef, tokenInRef, amountIn, swapOptions = {}) {
      const pair = resolvePool(pairRef)
      if (pair.family !== 'uniswapV2') throw new Error(`v2Swap: ${pair.address} is a ${pair.family} pool`)
      const tokenIn = getToken(tokenInRef).address
      const zeroForOne = tokenIn === pair.tokens[0]
      if (!zeroForOne && tokenIn !== pair.tokens[1]) throw new Error(`v2Swap: ${tokenInRef} is not in the pair`)
      const from = swapOptions.from ?? deployer
      const reserves = await rpc<Hex>(url, 'eth_call', [
        { to: pair.address, data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'getReserves' }) },
        'latest',
      ])
      const reserve0 = BigInt(reserves.slice(0, 66))
      const reserve1 = BigInt(`0x${reserves.slice(66, 130)}`)
      const [reserveIn, reserveOut] = zeroForOne ? [reserve0, reserve1] : [reserve1, reserve0]
      // UniswapV2Library.getAmountOut: 0.3% fee on the input.
      const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
      await send({
        label: `v2Swap: send ${tokenInRef} to the pair`,
        from,
        to: tokenIn,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pair.address, amountIn] }),
        gas: DEVNET_GAS.transfer,
      })
      const receipt = await send({
        label: `v2Swap on ${pair.symbols.join('/')}`,
        from,
        to: pair.address,
        data: encodeFunctionData({
          abi: uniswapV2PairAbi,
          functionName: 'swap',
          args: [zeroForOne ? 0n : amountOut, zeroForOne ? amountOut : 0n, swapOptions.recipient ?? from, '0x'],
        }),
        gas: DEVNET_GAS.v2Swap,
      })
      return { amountOut, receipt }
    },
    async addV3Liquidity(poolRef, tickLower, tickUpper, liquidity, liquidityOptions = {}) {
      const pool = resolvePool(poolRef)
      if (pool.family !== 'uniswapV3') throw new Error(`addV3Liquidity: ${pool.address} is a ${pool.family} pool`)
      const from = liquidityOptions.from ?? deployer
      const receipt = await send({
        label: `add liquidity to ${pool.symbols.join('/')} ${pool.fee} [${tickLower}, ${tickUpper}]`,
        from,
        to: v3LiquidityProvider,
        data: encodeFunctionData({
          abi: v3LiquidityProviderAbi,
          functionName: 'mint',
          args: [pool.address, liquidityOptions.recipient ?? from, tickLower, tickUpper, liquidity],
        }),
        gas: DEVNET_GAS.v3Mint,
      })
      const [event] = parseEventLogs({ abi: uniswapV3PoolAbi, eventName: 'Mint', logs: receipt.logs })
      if (!event) throw new Error('addV3Liquidity: the pool emitted no Mint event')
      return { amount0: event.args.amount0, amount1: event.args.amount1, receipt }
    },
  }
  devnet.deployMs = performance.now() - started
  return devnet
}
