import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  type Hex,
  type PublicClient,
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  http,
  numberToHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QuoteError } from '../src/errors/QuoteError.js'
import { pinnedBatchReadBytecode, uniswapV3LensAbi, uniswapV3LensBytecode } from '../src/executor/lensArtifacts.js'
import { createRpcSource } from '../src/liquidity/createRpcSource.js'
import type { Liquidity } from '../src/liquidity/types.js'
import type { PoolFamily } from '../src/protocols/types.js'
import { uniswapV2Family } from '../src/protocols/uniswapV2/family.js'
import type { UniswapV2PoolState } from '../src/protocols/uniswapV2/state.js'
import { uniswapV3Family } from '../src/protocols/uniswapV3/family.js'
import { getUniswapV3PoolAddress, getUniswapV3WordRadius, readUniswapV3Pools } from '../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../src/protocols/uniswapV3/state.js'
import { testTokenAbi, uniswapV2PairAbi, uniswapV3FactoryAbi, uniswapV3PoolAbi } from './devnet/abis.js'
import { type Anvil, startAnvil } from './devnet/anvil.js'
import { compileTestContracts } from './devnet/compile.js'
import { DEVNET_GAS, type Devnet, deployDevnet } from './devnet/deployDevnet.js'
import { getSqrtPriceX96 } from './devnet/priceMath.js'
import { rpc, sendDevnetTransaction } from './devnet/rpc.js'
import type { DevnetSymbol } from './devnet/universe.js'

const MIN_TICK = -887272
const MAX_TICK = 887272

// The V3 family with its reader, whether or not family.ts wires it yet.
const families = [uniswapV2Family, { ...uniswapV3Family, readPools: readUniswapV3Pools }] as readonly PoolFamily[]

let anvil: Anvil
let devnet: Devnet

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31_337, pruneHistory: 64 })
  devnet = await deployDevnet(anvil)
})

afterAll(async () => {
  await anvil?.stop()
})

/** One JSON-RPC HTTP request the source sent, and the sequential stage it went out in. */
type SentRequest = { methods: string[]; params: unknown[][]; stage: number; body: string }

/**
 * A client whose http transport records every HTTP request. A request that
 * starts while none is in flight opens a new stage: the number of stages is
 * the number of sequential round trips.
 */
function createCountingClient(url: string, options: { timeout?: number } = {}) {
  const requests: SentRequest[] = []
  let inFlight = 0
  let stage = 0
  const client = createPublicClient({
    chain: anvil.chain,
    pollingInterval: 10,
    transport: http(url, {
      retryCount: 0,
      timeout: options.timeout ?? 10_000,
      onFetchRequest(_request, init) {
        if (inFlight === 0) stage++
        inFlight++
        const body = String(init.body)
        const parsed = JSON.parse(body) as { method: string; params: unknown[] } | { method: string; params: unknown[] }[]
        const calls = Array.isArray(parsed) ? parsed : [parsed]
        requests.push({ methods: calls.map((c) => c.method), params: calls.map((c) => c.params), stage, body })
      },
      onFetchResponse() {
        inFlight--
      },
    }),
  }) as PublicClient
  return {
    client,
    requests,
    stages: () => stage,
    reset() {
      requests.length = 0
      stage = 0
      inFlight = 0
    },
  }
}

const token = (symbol: DevnetSymbol) => devnet.tokens[symbol].address
const isV3 = (state: { family: string }): state is UniswapV3PoolState => state.family === 'uniswapV3'
const isV2 = (state: { family: string }): state is UniswapV2PoolState => state.family === 'uniswapV2'

/** The devnet pools among `symbols`, as `family:address`. */
function devnetPoolsAmong(symbols: readonly DevnetSymbol[]): string[] {
  const addresses = new Set(symbols.map(token))
  return devnet.pools
    .filter((pool) => addresses.has(pool.tokens[0]) && addresses.has(pool.tokens[1]))
    .map((pool) => `${pool.family}:${pool.address}`)
    .sort()
}

const majors: DevnetSymbol[] = ['USDC', 'USDT', 'DAI', 'WETH', 'WBTC']

/** Every initialized tick of the words [wordLower, wordUpper], read straight from the pool. */
async function readTicksDirectly(pool: Address, tickSpacing: number, wordLower: number, wordUpper: number, blockNumber: bigint) {
  const client = anvil.publicClient
  const ticks: { index: number; liquidityNet: string }[] = []
  for (let word = wordLower; word <= wordUpper; word++) {
    const bitmap = await client.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'tickBitmap', args: [word], blockNumber })
    for (let bit = 0; bit < 256; bit++) {
      if (((bitmap >> BigInt(bit)) & 1n) === 0n) continue
      const index = (word * 256 + bit) * tickSpacing
      const info = await client.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'ticks', args: [index], blockNumber })
      expect(info[7], `tick ${index} of ${pool} is initialized`).toBe(true)
      ticks.push({ index, liquidityNet: info[1].toString() })
    }
  }
  return ticks
}

/** Asserts a V3 state equals the pool contract at `blockNumber`, read getter by getter. */
async function expectMatchesPool(state: UniswapV3PoolState, blockNumber: bigint) {
  const client = anvil.publicClient
  const address = state.address
  const [slot0, liquidity, fee, tickSpacing, token0, token1] = await Promise.all([
    client.readContract({ address, abi: uniswapV3PoolAbi, functionName: 'slot0', blockNumber }),
    client.readContract({ address, abi: uniswapV3PoolAbi, functionName: 'liquidity', blockNumber }),
    client.readContract({ address, abi: uniswapV3PoolAbi, functionName: 'fee', blockNumber }),
    client.readContract({ address, abi: uniswapV3PoolAbi, functionName: 'tickSpacing', blockNumber }),
    client.readContract({ address, abi: uniswapV3PoolAbi, functionName: 'token0', blockNumber }),
    client.readContract({ address, abi: uniswapV3PoolAbi, functionName: 'token1', blockNumber }),
  ])
  expect(state.sqrtPriceX96).toBe(slot0[0].toString())
  expect(state.tick).toBe(slot0[1])
  expect(state.liquidity).toBe(liquidity.toString())
  expect(state.fee).toBe(fee)
  expect(state.tickSpacing).toBe(tickSpacing)
  expect([state.token0, state.token1]).toEqual([token0.toLowerCase(), token1.toLowerCase()])

  // The range is whole bitmap words around the current one, clamped to the tick bounds.
  const word = Math.floor(Math.floor(slot0[1] / tickSpacing) / 256)
  const radius = getUniswapV3WordRadius(tickSpacing)
  const wordLower = Math.max(word - radius, Math.floor(Math.floor(MIN_TICK / tickSpacing) / 256))
  const wordUpper = Math.min(word + radius, Math.floor(Math.floor(MAX_TICK / tickSpacing) / 256))
  expect(state.tickLower).toBe(Math.max(MIN_TICK, wordLower * 256 * tickSpacing))
  expect(state.tickUpper).toBe(Math.min(MAX_TICK, (wordUpper * 256 + 255) * tickSpacing))

  expect(state.ticks).toEqual(await readTicksDirectly(address, tickSpacing, wordLower, wordUpper, blockNumber))
}

describe('getUniswapV3PoolAddress and the word radius', () => {
  it('derives every devnet V3 pool address by CREATE2', () => {
    const dex = devnet.chain.dexes.find((d) => d.family === 'uniswapV3')!
    for (const pool of devnet.pools.filter((p) => p.family === 'uniswapV3')) {
      expect(getUniswapV3PoolAddress(dex, pool.tokens[1], pool.tokens[0], pool.fee)).toBe(pool.address)
    }
  })

  it('covers about ±13,900 ticks with at most 32 words a side', () => {
    expect([1, 10, 50, 60, 200].map(getUniswapV3WordRadius)).toEqual([32, 6, 2, 1, 1])
  })
})

describe('createRpcSource on a devnet', () => {
  it("discovers exactly the devnet's pools among the pair and the major tokens", async () => {
    const source = createRpcSource({ client: anvil.publicClient as PublicClient, chain: devnet.chain, families })
    const liquidity = await source.getLiquidity({ chain: devnet.chain, tokenIn: token('WETH'), tokenOut: token('USDC') })
    const found = liquidity.pools.map((pool) => `${pool.family}:${pool.address}`).sort()
    expect(found).toEqual(devnetPoolsAmong(majors))
    // WETH/USDC: V2 and all four V3 tiers.
    const wethUsdc = liquidity.pools.filter((pool) => {
      const p = pool as UniswapV3PoolState
      return [p.token0, p.token1].includes(token('WETH')) && [p.token0, p.token1].includes(token('USDC'))
    })
    expect(wethUsdc.map((p) => (isV3(p) ? p.fee : 'v2')).sort()).toEqual([10000, 100, 3000, 500, 'v2'].sort())

    const longTail = await source.getLiquidity({ chain: devnet.chain, tokenIn: token('LINK'), tokenOut: token('PEPE') })
    expect(longTail.pools.map((pool) => `${pool.family}:${pool.address}`).sort()).toEqual(devnetPoolsAmong([...majors, 'LINK', 'PEPE']))
    for (const pool of longTail.pools) expect(pool.dex).toBe(pool.family)
  })

  it('returns V3 states equal to the pool contracts: slot0, liquidity and every initialized tick in range', async () => {
    const source = createRpcSource({ client: anvil.publicClient as PublicClient, chain: devnet.chain, families })
    const liquidity = await source.getLiquidity({ chain: devnet.chain, tokenIn: token('LINK'), tokenOut: token('PEPE') })
    const states = liquidity.pools.filter(isV3)
    expect(states.length).toBe(devnet.pools.filter((p) => p.family === 'uniswapV3').length)
    const blockNumber = BigInt(liquidity.blockNumber)
    let ticksChecked = 0
    for (const state of states) {
      await expectMatchesPool(state, blockNumber)
      ticksChecked += state.ticks.length
      // Independently of the bitmap: every position edge the deploy created lies in the state iff it is in range.
      const pool = devnet.pools.find((p) => p.address === state.address)!
      const indices = new Set(state.ticks.map((t) => t.index))
      for (const position of pool.positions) {
        for (const edge of [position.tickLower, position.tickUpper]) {
          expect(indices.has(edge), `${pool.symbols.join('/')} ${pool.fee} tick ${edge}`).toBe(edge >= state.tickLower && edge <= state.tickUpper)
        }
      }
      const sorted = [...state.ticks].sort((a, b) => a.index - b.index)
      expect(state.ticks).toEqual(sorted)
    }
    expect(ticksChecked).toBeGreaterThan(20)
  })

  it('keeps a pool without liquidity, drops an uninitialized one, and clamps the range at MAX_TICK', async () => {
    const checkpoint = await anvil.checkpoint()
    try {
      const factory = devnet.contracts.uniswapV3Factory
      const deployer = devnet.accounts.deployer
      const [link, pepe] = [token('LINK'), token('PEPE')]
      const send = (label: string, to: Address, data: Hex, gas: bigint) => sendDevnetTransaction(anvil.rpcUrl, { label, from: deployer, to, data, gas })
      const dex = devnet.chain.dexes.find((d) => d.family === 'uniswapV3')!
      for (const fee of [500, 3000, 10000]) {
        await send(`create LINK/PEPE ${fee}`, factory, encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'createPool', args: [link, pepe, fee] }), DEVNET_GAS.createPool)
      }
      const empty = getUniswapV3PoolAddress(dex, link, pepe, 3000)
      const nearMax = getUniswapV3PoolAddress(dex, link, pepe, 10000)
      await send('initialize at 1', empty, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(1)] }), DEVNET_GAS.initialize)
      // A price of 1.0001^880000: the current word reaches past MAX_TICK.
      const sqrtNearMax = getSqrtPriceX96(Math.exp(880_000 * Math.log(1.0001)))
      await send('initialize near MAX_TICK', nearMax, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [sqrtNearMax] }), DEVNET_GAS.initialize)

      const blockNumber = await anvil.publicClient.getBlockNumber()
      const states = await readUniswapV3Pools({
        client: anvil.publicClient as PublicClient,
        chain: devnet.chain,
        blockNumber,
        tokens: [link, pepe],
        dexes: [dex],
      })
      expect(states.map((s) => s.address).sort()).toEqual([empty, nearMax].sort())
      const emptyState = states.find((s) => s.address === empty)!
      expect(emptyState.liquidity).toBe('0')
      expect(emptyState.ticks).toEqual([])
      expect(emptyState.tick).toBe(0)
      expect([emptyState.tickLower, emptyState.tickUpper]).toEqual([-15360, 30660])
      const nearMaxState = states.find((s) => s.address === nearMax)!
      expect(nearMaxState.tickUpper).toBe(MAX_TICK)
      expect(nearMaxState.tickLower).toBe(16 * 256 * 200)
      for (const state of states) await expectMatchesPool(state, blockNumber)
    } finally {
      await checkpoint.restore()
    }
  })

  it('survives broken contracts at candidate addresses', async () => {
    const checkpoint = await anvil.checkpoint()
    try {
      const dex = devnet.chain.dexes.find((d) => d.family === 'uniswapV3')!
      const [link, pepe] = [token('LINK'), token('PEPE')]
      // At three empty CREATE2 candidates: a contract that reverts, one that answers one byte, and an endless loop.
      const broken: Hex[] = ['0x5f5ffd', '0x60015ff3', '0x5b5f56']
      const fees = [500, 3000, 10000]
      for (const [i, code] of broken.entries()) {
        await anvil.testClient.setCode({ address: getUniswapV3PoolAddress(dex, link, pepe, fees[i]!), bytecode: code })
      }
      const source = createRpcSource({ client: anvil.publicClient as PublicClient, chain: devnet.chain, families })
      const liquidity = await source.getLiquidity({ chain: devnet.chain, tokenIn: link, tokenOut: pepe })
      expect(liquidity.pools.map((pool) => `${pool.family}:${pool.address}`).sort()).toEqual(devnetPoolsAmong([...majors, 'LINK', 'PEPE']))
    } finally {
      await checkpoint.restore()
    }
  })

  it('pins every read to one block: state moves with the block number, and an older block still reads', async () => {
    const counting = createCountingClient(anvil.rpcUrl)
    const source = createRpcSource({ client: counting.client, chain: devnet.chain, families })
    const request = { chain: devnet.chain, tokenIn: token('WETH'), tokenOut: token('USDC') }

    const first = await source.getLiquidity(request)
    const calls = counting.requests.flatMap((r) => r.methods.map((method, i) => ({ method, params: r.params[i]! })))
    // Every read in ONE eth_call (PinnedBatchRead by state override) at latest, which returns the
    // block it saw with the reads: one block by construction, no eth_blockNumber first.
    const ethCalls = calls.filter((c) => c.method === 'eth_call')
    expect(ethCalls).toHaveLength(1)
    expect(ethCalls[0]!.params[1]).toBe('latest')
    expect(Object.values(ethCalls[0]!.params[2] as Record<string, { code: string }>)[0]!.code).toBe(pinnedBatchReadBytecode)
    expect(calls.map((c) => c.method)).not.toContain('eth_blockNumber')
    expect(first.report).toMatchObject({ roundTrips: 1, requests: counting.requests.length })

    const v3Pool = devnet.getPool('WETH', 'USDC', 'uniswapV3', 500)
    const v2Pair = devnet.getPool('WETH', 'USDC', 'uniswapV2')
    await devnet.v3Swap(v3Pool, v3Pool.tokens[0] === token('WETH'), 200n * 10n ** 18n)
    await devnet.v2Swap(v2Pair, 'WETH', 50n * 10n ** 18n)
    const second = await source.getLiquidity(request)
    expect(second.blockNumber).toBeGreaterThan(first.blockNumber)

    const stateOf = (liquidity: Liquidity, address: Address) => liquidity.pools.find((p) => p.address === address)!
    const v3Before = stateOf(first, v3Pool.address) as UniswapV3PoolState
    const v3After = stateOf(second, v3Pool.address) as UniswapV3PoolState
    expect(BigInt(v3After.sqrtPriceX96)).not.toBe(BigInt(v3Before.sqrtPriceX96))
    const v2Before = stateOf(first, v2Pair.address) as UniswapV2PoolState
    const v2After = stateOf(second, v2Pair.address) as UniswapV2PoolState
    expect(v2After.reserve0).not.toBe(v2Before.reserve0)
    // Both quotes equal the chain at their own block: the first one's block is now in the past.
    await expectMatchesPool(v3Before, BigInt(first.blockNumber))
    await expectMatchesPool(v3After, BigInt(second.blockNumber))
    for (const [state, block] of [[v2Before, first.blockNumber], [v2After, second.blockNumber]] as const) {
      const [reserve0, reserve1] = await anvil.publicClient.readContract({ address: state.address, abi: uniswapV2PairAbi, functionName: 'getReserves', blockNumber: BigInt(block) })
      expect([state.reserve0, state.reserve1]).toEqual([reserve0.toString(), reserve1.toString()])
    }

    // Reading again at the older block gives the older state exactly.
    const again = await readUniswapV3Pools({
      client: anvil.publicClient as PublicClient,
      chain: devnet.chain,
      blockNumber: BigInt(first.blockNumber),
      tokens: [token('WETH'), token('USDC')],
      dexes: devnet.chain.dexes.filter((d) => d.family === 'uniswapV3'),
    })
    expect(again).toEqual(first.pools.filter((p) => isV3(p) && [p.token0, p.token1].includes(token('WETH')) && [p.token0, p.token1].includes(token('USDC'))))

    // Past the 64 blocks anvil keeps, the node refuses instead of answering with another block's state.
    await anvil.testClient.mine({ blocks: 80 })
    await expect(
      readUniswapV3Pools({
        client: anvil.publicClient as PublicClient,
        chain: devnet.chain,
        blockNumber: BigInt(first.blockNumber),
        tokens: [token('WETH'), token('USDC')],
        dexes: devnet.chain.dexes.filter((d) => d.family === 'uniswapV3'),
      }),
    ).rejects.toThrow()
  })

  it('reads cold in at most 2 requests and 1 stage', async () => {
    // A token the chain config does not know, so the cold read also fetches its metadata and runs
    // the transfer-fee probe (FOO has no pool to borrow it from: its fee is unknown, null).
    const { TestToken } = await compileTestContracts({ files: ['test/contracts/TestToken.sol'] })
    const receipt = await sendDevnetTransaction(anvil.rpcUrl, {
      label: 'deploy FOO',
      from: devnet.accounts.deployer,
      data: encodeDeployData({ abi: testTokenAbi, bytecode: TestToken!.bytecode, args: ['Foo', 'FOO', 9] }),
      gas: DEVNET_GAS.deployToken,
    })
    const foo = receipt.contractAddress!.toLowerCase() as Address

    const counting = createCountingClient(anvil.rpcUrl)
    const source = createRpcSource({ client: counting.client, chain: devnet.chain, families })
    const started = performance.now()
    const cold = await source.getLiquidity({ chain: devnet.chain, tokenIn: foo, tokenOut: token('WETH') })
    const coldMs = performance.now() - started
    const coldRequests = counting.requests.map((r) => r.methods.join('+'))
    const coldStages = counting.stages()
    expect(cold.tokens.find((t) => t.address === foo)).toMatchObject({ symbol: 'FOO', decimals: 9, transferFeeBps: null })
    expect(cold.pools.map((pool) => `${pool.family}:${pool.address}`).sort()).toEqual(devnetPoolsAmong(majors))

    counting.reset()
    const warmStarted = performance.now()
    const warmLiquidity = await source.getLiquidity({ chain: devnet.chain, tokenIn: foo, tokenOut: token('WETH') })
    const warmMs = performance.now() - warmStarted
    const warmRequests = counting.requests.map((r) => r.methods.join('+'))
    const warmStages = counting.stages()
    const warm = counting.requests.length

    // Gas of the lens call for these candidates, at the same block.
    const dexes = devnet.chain.dexes.filter((d) => d.family === 'uniswapV3')
    const lensCall = await captureLensCall(cold.blockNumber, [foo, ...majors.map(token)], dexes)
    const lensGas = await anvil.publicClient.estimateGas({ data: lensCall.data, blockNumber: BigInt(cold.blockNumber) })
    // Mined as a transaction (and reverted away), the receipt gives the gas actually used.
    const checkpoint = await anvil.checkpoint()
    const lensReceipt = await sendDevnetTransaction(anvil.rpcUrl, { label: 'lens', from: devnet.accounts.deployer, data: lensCall.data, gas: 10_000_000n })
    await checkpoint.restore()

    console.log(
      `cold getLiquidity: ${coldRequests.length} requests in ${coldStages} stages, ${coldMs.toFixed(1)} ms [${coldRequests.join(', ')}], ` +
        `report ${JSON.stringify(cold.report)}; warm: ${warmRequests.length} requests in ${warmStages} stages, ${warmMs.toFixed(1)} ms; ` +
        `lens: ${lensCall.candidates} candidates, ${cold.pools.filter(isV3).length} pools, ${cold.pools.filter(isV3).reduce((n, p) => n + p.ticks.length, 0)} ticks, ` +
        `${lensReceipt.gasUsed} gas used (estimate ${lensGas}), ${lensCall.resultBytes} bytes returned`,
    )
    // The batch and eth_gasPrice, side by side: one round trip even with a new token's metadata and probe.
    expect(coldRequests.length).toBeLessThanOrEqual(2)
    expect(coldStages).toBe(1)
    expect(cold.report.roundTrips).toBe(1)
    expect(cold.report.requests).toBe(coldRequests.length)
    expect(warmRequests.length).toBeLessThanOrEqual(4)
    expect(warmLiquidity.report.requests).toBe(warm)
    expect(warmStages).toBeLessThanOrEqual(2)
    expect(warmRequests).not.toContain('eth_chainId')
    expect(cold.pools.filter(isV2).length).toBeGreaterThan(0)
  })

  describe('turns node failures into 503', () => {
    let proxy: Awaited<ReturnType<typeof startRpcProxy>>
    beforeAll(async () => {
      proxy = await startRpcProxy(anvil.rpcUrl)
    })
    afterAll(async () => {
      await proxy?.close()
    })

    const expect503 = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(QuoteError)
      expect((error as QuoteError).statusCode).toBe(503)
      return error as QuoteError
    }
    const request = () => ({ chain: devnet.chain, tokenIn: token('WETH'), tokenOut: token('USDC') })

    it('when nothing listens at the node address', async () => {
      const port = await getClosedPort()
      const { client } = createCountingClient(`http://127.0.0.1:${port}`)
      await expect503(createRpcSource({ client, chain: devnet.chain, families }).getLiquidity(request()))
    })

    it('when the node stops answering (timeout)', async () => {
      proxy.rule = (call) => (isLensCall(call) ? 'hang' : 'pass')
      const { client } = createCountingClient(proxy.url, { timeout: 300 })
      // The lens call hangs for good: only the client's 300 ms timeout can end this with a 503.
      await expect503(createRpcSource({ client, chain: devnet.chain, families }).getLiquidity(request()))
    })

    it('when the node answers the lens call with a JSON-RPC error', async () => {
      proxy.rule = (call) => (isLensCall(call) ? 'error' : 'pass')
      const { client } = createCountingClient(proxy.url)
      const error = await expect503(createRpcSource({ client, chain: devnet.chain, families }).getLiquidity(request()))
      expect(error.message).toMatch(/could not serve/)
    })

    it('when the node answers eth_gasPrice with a JSON-RPC error', async () => {
      proxy.rule = (call) => (call.method === 'eth_gasPrice' ? 'error' : 'pass')
      const { client } = createCountingClient(proxy.url)
      await expect503(createRpcSource({ client, chain: devnet.chain, families }).getLiquidity(request()))
    })

    it('not for a node without eth_call state overrides: the reads go one by one at a block learned first', async () => {
      proxy.rule = (call) => (call.method === 'eth_call' && call.params.length > 2 ? 'invalid-params' : 'pass')
      const counting = createCountingClient(proxy.url)
      const source = createRpcSource({ client: counting.client, chain: devnet.chain, families })
      const liquidity = await source.getLiquidity(request())
      const direct = await createRpcSource({ client: anvil.publicClient as PublicClient, chain: devnet.chain, families }).getLiquidity(request())
      expect(liquidity.blockNumber).toBe(direct.blockNumber)
      expect(liquidity.pools).toEqual(direct.pools)
      // The refused batch, eth_blockNumber, then every read pinned to that block.
      expect(liquidity.report.roundTrips).toBe(3)
      expect(liquidity.report.requests).toBe(counting.requests.length)
      const calls = counting.requests.flatMap((r) => r.methods.map((method, i) => ({ method, params: r.params[i]! })))
      const pinnedCalls = calls.filter((c) => c.method === 'eth_call' && c.params.length === 2)
      expect(pinnedCalls.length).toBeGreaterThan(1)
      for (const call of pinnedCalls) expect(call.params[1]).toBe(numberToHex(liquidity.blockNumber))
    })

    it('when the node goes down between quotes', async () => {
      proxy.rule = () => 'pass'
      const { client } = createCountingClient(proxy.url)
      const source = createRpcSource({ client, chain: devnet.chain, families })
      await source.getLiquidity(request())
      await proxy.close()
      await expect503(source.getLiquidity(request()))
    })
  })
})

/** The lens call readUniswapV3Pools sends for `tokens`, captured from its transport. */
async function captureLensCall(blockNumber: number, tokens: Address[], dexes: Devnet['chain']['dexes']) {
  const counting = createCountingClient(anvil.rpcUrl)
  await readUniswapV3Pools({ client: counting.client, chain: devnet.chain, blockNumber: BigInt(blockNumber), tokens, dexes })
  const [sent] = counting.requests
  const call = (sent!.params[0]![0] as { data: Hex })
  const raw = await rpc<Hex>(anvil.rpcUrl, 'eth_call', [{ data: call.data }, numberToHex(blockNumber)])
  const candidates = dexes.reduce((n, d) => n + Object.keys(d.feeTiers ?? {}).length, 0) * ((tokens.length * (tokens.length - 1)) / 2)
  return { data: call.data, candidates, resultBytes: (raw.length - 2) / 2 }
}

type ProxiedCall = { method: string; params: unknown[] }
type ProxyRule = (call: ProxiedCall) => 'pass' | 'error' | 'hang' | 'invalid-params'

/** An eth_call carrying the V3 lens: alone (its data), or in the RPC source's pinned batch (a state override's code). */
const isLensCall = (call: ProxiedCall) =>
  call.method === 'eth_call' &&
  [String((call.params[0] as { data?: string }).data ?? ''), ...Object.values((call.params[2] ?? {}) as Record<string, { code?: string }>).map((o) => o.code ?? '')].some(
    (code) => code.includes(uniswapV3LensBytecode.slice(2)),
  )

/** A JSON-RPC proxy in front of anvil that can fail or stall chosen calls. */
async function startRpcProxy(target: string) {
  const state: { rule: ProxyRule } = { rule: () => 'pass' }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[]
      const calls = Array.isArray(parsed) ? parsed : [parsed]
      const verdicts = calls.map((call) => state.rule(call))
      if (verdicts.includes('hang')) return // never answers; the socket closes with the server
      if (verdicts.includes('error') || verdicts.includes('invalid-params')) {
        const error = verdicts.includes('error') ? { code: -32603, message: 'proxy: injected failure' } : { code: -32602, message: 'proxy: too many params' }
        const answers = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, error }))
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]))
        return
      }
      try {
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text())
      } catch {
        res.writeHead(502).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  let closed: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}`,
    get rule() {
      return state.rule
    },
    set rule(rule: ProxyRule) {
      state.rule = rule
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closed
    },
  }
}

/** A local port nothing listens on (bound, then released). */
async function getClosedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
