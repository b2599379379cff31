// Third-party activity on the Uniswap forks' real bytecode, for the live source's tests (the
// driver is liveActivity.ts): PancakeSwap V3 and Slipstream swaps of every size (a few wei to 40%
// price moves), mints around the price, on one side and far outside the tick window, partial and
// full burns, new pools, fee changes (Pancake protocol fees set and collected; Slipstream custom
// fees and a switch of the factory's fee module); Aerodrome V2 swaps on volatile and stable pools,
// donations and sync(), deposits and withdrawals, new pools, custom fees and pauses.
import { type Address, type Hex, encodeDeployData, encodeFunctionData, getAddress, maxUint128, parseAbi } from 'viem'
import type { ChainConfig, PoolStateBase } from '../../src/index.js'
import type { AerodromeV2PoolState } from '../../src/protocols/aerodromeV2/state.js'
import { getAerodromeV2PoolAddress } from '../../src/protocols/aerodromeV2/address.js'
import { readAerodromeV2Pools } from '../../src/protocols/aerodromeV2/readPools.js'
import { readPancakeV3Pools } from '../../src/protocols/pancakeV3/readPools.js'
import { getSlipstreamPoolAddress } from '../../src/protocols/slipstream/address.js'
import { readSlipstreamPools } from '../../src/protocols/slipstream/readPools.js'
import { getUniswapV3PoolAddress } from '../../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/protocols/uniswapV3/tickMath.js'
import { aerodromePoolAbi, aerodromePoolFactoryAbi, type AerodromeDeployment } from '../devnet/aerodrome.js'
import { type Anvil, type Devnet, type DevnetTransaction, getLiquidityForUsd, getRawPrice, getSqrtPriceX96, testTokenAbi, uniswapV3PoolAbi, v3LiquidityProviderAbi } from '../devnet/index.js'
import { type PancakeV3Deployment, pancakeV3FactoryAbi } from '../devnet/pancakeV3.js'
import { compileNpmSolidity } from '../devnet/compileNpmSolidity.js'
import { type SlipstreamRealDeployment, clFactoryAbi, customSwapFeeModuleAbi } from '../devnet/slipstreamReal.js'
import { sendDevnetTransactions } from '../devnet/rpc.js'
import type { LiveActivityFamily, LiveActivityPlan } from './liveActivity.js'
import { randomPositionRange } from './randomPositionRange.js'

/** A V3-style pool state of any fork (the fork's family tag aside, the Uniswap V3 shape). */
type ForkState = Omit<UniswapV3PoolState, 'family'> & { family: string }
/** A position the activity minted (owned by the deployer). */
type Position = { pool: Address; tickLower: number; tickUpper: number; liquidity: bigint }

// Gas limits per transaction, about twice what each uses (a swap crossing dozens of ticks included).
const GAS = { swap: 2_000_000n, mint: 1_000_000n, burn: 600_000n, createPancakePool: 7_000_000n, createClPool: 1_000_000n, initialize: 250_000n, setting: 200_000n, transfer: 150_000n, aerodromeSwap: 400_000n, aerodromeCreate: 3_000_000n }

const pancakeFactoryExtraAbi = parseAbi([
  'function setFeeProtocol(address pool, uint32 feeProtocol0, uint32 feeProtocol1)',
  'function collectProtocol(address pool, address recipient, uint128 amount0Requested, uint128 amount1Requested) returns (uint128 amount0, uint128 amount1)',
])
/** The Aerodrome Pool's own LP token and its withdrawal (interfaces/IPool.sol). */
const aerodromeLpAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function burn(address to) returns (uint256 amount0, uint256 amount1)',
])
/** PancakeV3Pool.setFeeProtocol accepts 0 or 1000–4000 (ten-thousandths of the swap fee) per token. */
const PANCAKE_FEE_PROTOCOLS = [0, 1000, 2500, 3200, 4000] as const
const MAX_MINT_LIQUIDITY = 10n ** 28n
/** Aerodrome's zero-fee marker (a custom fee of 420 means 0) and highest fee (bps). */
const AERODROME_ZERO_FEE = 420
const AERODROME_MAX_FEE = 300
/** Slipstream's CustomSwapFeeModule: zero-fee marker and highest fee (hundredths of a bip). */
const SLIPSTREAM_ZERO_FEE = 420
const SLIPSTREAM_MAX_FEE = 30_000

/** What every fork's activity gets. */
type Context = { anvil: Anvil; devnet: Devnet; chain: ChainConfig; random: () => number }

function helpers({ devnet, random }: Context) {
  const deployer = devnet.accounts.deployer
  const pick = <T,>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)]
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))
  const tx = (label: string, to: Address, data: Hex, gas: bigint): DevnetTransaction => ({ label, from: deployer, to, data, gas })
  const priced = (address: Address) => Object.values(devnet.tokens).find((t) => t.address.toLowerCase() === address.toLowerCase())!
  const tokenPair = () => {
    const symbols = Object.values(devnet.tokens)
    const a = pick(symbols)!
    const b = pick(symbols.filter((t) => t.address !== a.address))!
    return a.address.toLowerCase() < b.address.toLowerCase() ? [a, b] : [b, a]
  }
  return { deployer, pick, between, tx, priced, tokenPair }
}

/** How one V3 fork differs in the activity: its reader, its provider, how it creates pools and changes fees. */
type V3ForkSpec<Book> = {
  name: string
  read(blockNumber: bigint): Promise<ForkState[]>
  /** The liquidity provider (mint and swap with v3-core's callbacks). */
  provider: Address
  /** A new pool's key (fee tier or tick spacing) and spacing, its address, and the transactions creating and pricing it. */
  createPool(token0: Address, token1: Address, sqrtPriceX96: bigint): { address: Address; tickSpacing: number; txs: DevnetTransaction[] } | undefined
  /** A fee change on `pool` (or the whole dex), with what the book becomes once mined. */
  changeFees(pools: readonly ForkState[], book: Book): { txs: DevnetTransaction[]; book: Book } | undefined
  initialBook: Book
}

/** Activity on a Uniswap V3 fork's pools: swaps, mints, burns, new pools and the fork's fee changes. */
function createV3ForkActivity<Extra>(context: Context, spec: V3ForkSpec<Extra>): LiveActivityFamily {
  const { anvil } = context
  const { deployer, pick, between, tx, priced, tokenPair } = helpers(context)
  const random = context.random
  type Book = { positions: readonly Position[]; extra: Extra }
  let book: Book = { positions: [], extra: spec.initialBook }
  const mintTx = (pool: ForkState | { address: Address; token0: Address; token1: Address }, price: number, tickLower: number, tickUpper: number, usd: number, minted: Position[]) => {
    const liquidity = getLiquidityForUsd({ price, tickLower, tickUpper, usd, token0: priced(pool.token0), token1: priced(pool.token1) })
    // Far below any pool's liquidity cap per tick (spacing 1: ~1.9e32), however cheap the token.
    if (liquidity <= 0n || liquidity > MAX_MINT_LIQUIDITY) return []
    minted.push({ pool: pool.address, tickLower, tickUpper, liquidity })
    return [tx(`${spec.name} mint`, spec.provider, encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'mint', args: [pool.address, deployer, tickLower, tickUpper, liquidity] }), GAS.mint)]
  }
  return {
    name: spec.name,
    freshRead: async (blockNumber) => (await spec.read(blockNumber)) as PoolStateBase[],
    save: () => book,
    restore: (saved) => (book = saved as Book),
    async planBlock(states, actions, gasBudget): Promise<LiveActivityPlan> {
      const pools = states as readonly ForkState[]
      const txs: DevnetTransaction[] = []
      const minted: Position[] = []
      const burned: Position[] = []
      let extra = book.extra
      const used = new Set<Address>()
      let gas = 0n
      for (let k = 0; k < actions; k++) {
        const roll = random()
        const planned: DevnetTransaction[] = []
        const marks = [minted.length, burned.length] as const
        let nextExtra = extra
        if (roll < 0.4 && pools.length > 0) {
          // A swap: a few wei, a small move, or a move of up to 40% (across bitmap words); one per pool per block.
          const pool = pick(pools.filter((p) => !used.has(p.address)))
          if (!pool) continue
          used.add(pool.address)
          const zeroForOne = random() < 0.5
          const size = random()
          let amount: bigint
          let limit: bigint
          if (size < 0.1) {
            // A few wei, stopped 1% away: beyond the last position a swap walks without liquidity to its limit (at spacing 1, words by the thousand).
            amount = BigInt(between(1, 10_000))
            limit = (BigInt(pool.sqrtPriceX96) * (zeroForOne ? 995n : 1005n)) / 1000n
          } else {
            const move = size < 0.85 ? 0.0001 + random() * 0.01 : 0.05 + random() * 0.35
            const sqrtPrice = Number(pool.sqrtPriceX96) / 2 ** 96
            const liquidity = Number(pool.liquidity)
            if (liquidity <= 0) continue
            const raw = zeroForOne ? (liquidity / sqrtPrice) * (1 - 1 / Math.sqrt(1 + move)) : liquidity * sqrtPrice * (Math.sqrt(1 + move) - 1)
            amount = BigInt(Math.floor(raw * 2)) + 1000n
            const factor = zeroForOne ? 1 / Math.sqrt(1 + move) : Math.sqrt(1 + move)
            limit = (BigInt(pool.sqrtPriceX96) * BigInt(Math.round(factor * 1e12))) / 10n ** 12n
            if (limit <= MIN_SQRT_RATIO || limit >= MAX_SQRT_RATIO) continue
          }
          planned.push(tx(`${spec.name} swap`, spec.provider, encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'swap', args: [pool.address, deployer, zeroForOne, amount, limit] }), GAS.swap))
        } else if (roll < 0.6 && pools.length > 0) {
          // A mint around the price, wholly on one side, or far outside the known window.
          const pool = pick(pools)!
          const [lower, upper] = randomPositionRange(random, between, pool.tick, pool.tickSpacing)
          if (lower < upper) planned.push(...mintTx(pool, (Number(pool.sqrtPriceX96) / 2 ** 96) ** 2, lower, upper, between(500, 50_000), minted))
        } else if (roll < 0.75) {
          // A burn of part or all of a position minted earlier (one per position per block).
          const position = pick(book.positions.filter((p) => !burned.some((b) => b.pool === p.pool && b.tickLower === p.tickLower && b.tickUpper === p.tickUpper)))
          if (!position) continue
          const amount = random() < 0.5 ? position.liquidity : position.liquidity / BigInt(between(2, 5))
          if (amount <= 0n) continue
          burned.push({ ...position, liquidity: amount })
          planned.push(tx(`${spec.name} burn`, position.pool, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'burn', args: [position.tickLower, position.tickUpper, amount] }), GAS.burn))
        } else if (roll < 0.88) {
          // A fee change the fork allows.
          const change = spec.changeFees(pools.filter((p) => !used.has(p.address)), extra)
          if (!change) continue
          planned.push(...change.txs)
          nextExtra = change.book
        } else {
          // A new pool of two devnet tokens, priced at their USD prices, with liquidity around the price.
          const [token0, token1] = tokenPair()
          const price = getRawPrice(token0!, token1!)
          const created = spec.createPool(token0!.address.toLowerCase() as Address, token1!.address.toLowerCase() as Address, getSqrtPriceX96(price))
          if (!created || used.has(created.address) || (await anvil.publicClient.getCode({ address: created.address }))) continue
          used.add(created.address)
          const spacing = created.tickSpacing
          const tick = Math.round(Math.log(price) / Math.log(1.0001) / spacing) * spacing
          planned.push(...created.txs)
          planned.push(...mintTx({ address: created.address, token0: token0!.address.toLowerCase() as Address, token1: token1!.address.toLowerCase() as Address }, price, tick - 100 * spacing, tick + 100 * spacing, between(10_000, 300_000), minted))
        }
        const plannedGas = planned.reduce((sum, t) => sum + t.gas, 0n)
        if (gas + plannedGas > gasBudget) {
          minted.length = marks[0]
          burned.length = marks[1]
          break
        }
        gas += plannedGas
        txs.push(...planned)
        extra = nextExtra
      }
      return {
        txs,
        onMined: () => {
          const remaining = book.positions.flatMap((p) => {
            const burn = burned.find((b) => b.pool === p.pool && b.tickLower === p.tickLower && b.tickUpper === p.tickUpper)
            if (!burn) return [p]
            const left = p.liquidity - burn.liquidity
            return left > 0n ? [{ ...p, liquidity: left }] : []
          })
          book = { positions: [...remaining, ...minted], extra }
        },
      }
    },
  }
}

/**
 * PancakeSwap V3 activity on a deployPancakeV3 deployment; fee changes are the protocol-fee
 * settings its factory's owner (the deployer) makes: `setFeeProtocol` and `collectProtocol`.
 *
 * @example
 * createLiveActivity({ anvil, random, families: [createPancakeV3Activity({ anvil, devnet, chain, random }, pancake)] })
 */
export function createPancakeV3Activity(context: Context, pancake: PancakeV3Deployment): LiveActivityFamily {
  const { tx, pick, deployer } = helpers(context)
  const dex = context.chain.dexes.find((d) => d.family === 'pancakeV3')!
  const tiers = Object.entries(dex.feeTiers!).map(([fee, spacing]) => [Number(fee), spacing] as const)
  return createV3ForkActivity<null>(context, {
    name: 'pancakeV3',
    initialBook: null,
    provider: pancake.provider,
    read: (blockNumber) =>
      readPancakeV3Pools({ client: context.anvil.publicClient, chain: context.chain, blockNumber, tokens: Object.values(context.devnet.tokens).map((t) => t.address), dexes: [dex] }),
    createPool(token0, token1, sqrtPriceX96) {
      const [fee, tickSpacing] = pick(tiers)!
      const address = getUniswapV3PoolAddress(dex, token0, token1, fee)
      return {
        address,
        tickSpacing,
        txs: [
          tx('pancake createPool', pancake.factory, encodeFunctionData({ abi: pancakeV3FactoryAbi, functionName: 'createPool', args: [token0, token1, fee] }), GAS.createPancakePool),
          tx('pancake initialize', address, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [sqrtPriceX96] }), GAS.initialize),
        ],
      }
    },
    changeFees(pools) {
      const pool = pick(pools)
      if (!pool) return undefined
      const collect = context.random() < 0.4
      const data = collect
        ? encodeFunctionData({ abi: pancakeFactoryExtraAbi, functionName: 'collectProtocol', args: [pool.address, deployer, maxUint128, maxUint128] })
        : encodeFunctionData({ abi: pancakeFactoryExtraAbi, functionName: 'setFeeProtocol', args: [pool.address, pick(PANCAKE_FEE_PROTOCOLS)!, pick(PANCAKE_FEE_PROTOCOLS)!] })
      return { txs: [tx(collect ? 'pancake collectProtocol' : 'pancake setFeeProtocol', pancake.factory, data, GAS.setting)], book: null }
    },
  })
}

/** Slipstream's DynamicSwapFeeModule constructor (core/fees/DynamicSwapFeeModule.sol). */
const dynamicSwapFeeModuleAbi = parseAbi(['constructor(address factory, uint256 defaultScalingFactor, uint256 defaultFeeCap, address[] pools, uint24[] fees)'])
/** Its default scaling factor (fee per tick of distance from the TWAP, in millionths) and fee cap (its MAX_FEE_CAP, 5%). */
const DYNAMIC_SCALING_FACTOR = 100_000n
const DYNAMIC_FEE_CAP = 50_000n

/**
 * Slipstream activity on a deploySlipstreamReal deployment; fee changes are custom fees set on the
 * factory's current module (the 420 zero marker and resets to the default included) and, now and
 * then, a switch of the factory's module between its CustomSwapFeeModule and a
 * DynamicSwapFeeModule (compiled from the same npm sources, deployed first): every pool's fee
 * moves, and under the dynamic module the live source re-reads the dex's pools every block.
 *
 * @example
 * const activity = await createSlipstreamActivity({ anvil, devnet, chain, random }, slipstream)
 */
export async function createSlipstreamActivity(context: Context, slipstream: SlipstreamRealDeployment): Promise<LiveActivityFamily> {
  const { tx, pick, between, deployer } = helpers(context)
  const dex = context.chain.dexes.find((d) => d.family === 'slipstream')!
  const { DynamicSwapFeeModule } = await compileNpmSolidity({
    label: 'slipstream-dynamic-fee',
    solcPackage: 'solc-0.7.6',
    evmVersion: 'istanbul',
    contracts: { DynamicSwapFeeModule: 'sphere-mezo-solidity-files/domains/aerodrome-slipstream/contracts/core/fees/DynamicSwapFeeModule.sol' },
  })
  const [receipt] = await sendDevnetTransactions(context.anvil.rpcUrl, [
    {
      label: 'deploy a DynamicSwapFeeModule',
      from: deployer,
      data: encodeDeployData({ abi: dynamicSwapFeeModuleAbi, bytecode: DynamicSwapFeeModule.bytecode, args: [slipstream.factory, DYNAMIC_SCALING_FACTOR, DYNAMIC_FEE_CAP, [], []] }),
      gas: 3_000_000n,
    },
  ])
  const modules = [slipstream.feeModule, receipt!.contractAddress!.toLowerCase() as Address] as const
  return createV3ForkActivity<{ module: Address }>(context, {
    name: 'slipstream',
    initialBook: { module: slipstream.feeModule },
    provider: context.devnet.contracts.v3LiquidityProvider,
    read: async (blockNumber) =>
      (await readSlipstreamPools({ client: context.anvil.publicClient, chain: context.chain, blockNumber, tokens: Object.values(context.devnet.tokens).map((t) => t.address), dexes: [dex] })).pools,
    createPool(token0, token1, sqrtPriceX96) {
      const tickSpacing = pick(dex.tickSpacings!)!
      return {
        address: getSlipstreamPoolAddress(dex, token0, token1, tickSpacing),
        tickSpacing,
        txs: [tx('slipstream createPool', slipstream.factory, encodeFunctionData({ abi: clFactoryAbi, functionName: 'createPool', args: [token0, token1, tickSpacing, sqrtPriceX96] }), GAS.createClPool)],
      }
    },
    changeFees(pools, book) {
      if (context.random() < 0.1) {
        const module = modules.find((m) => m !== book.module)!
        return { txs: [tx('slipstream setSwapFeeModule', slipstream.factory, encodeFunctionData({ abi: clFactoryAbi, functionName: 'setSwapFeeModule', args: [module] }), GAS.setting)], book: { module } }
      }
      const pool = pick(pools)
      if (!pool) return undefined
      const roll = context.random()
      const fee = roll < 0.2 ? 0 : roll < 0.35 ? SLIPSTREAM_ZERO_FEE : between(1, SLIPSTREAM_MAX_FEE)
      return { txs: [tx('slipstream setCustomFee', book.module, encodeFunctionData({ abi: customSwapFeeModuleAbi, functionName: 'setCustomFee', args: [pool.address, fee] }), GAS.setting)], book }
    },
  })
}

/**
 * Aerodrome V2 activity on a deployAerodrome deployment: swaps (the output the pool's
 * `getAmountOut` gives at the head) on volatile and stable pools, donations and `sync()`,
 * deposits and withdrawals, new pools, custom fees (the 420 zero marker and resets included) and a
 * pause of the factory now and then (lifted a few blocks later; no swap while paused).
 *
 * @example
 * createLiveActivity({ anvil, random, families: [createAerodromeActivity({ anvil, devnet, chain, random }, aerodrome)] })
 */
export function createAerodromeActivity(context: Context, aerodrome: AerodromeDeployment): LiveActivityFamily {
  const { anvil, devnet } = context
  const random = context.random
  const { tx, pick, between, deployer, tokenPair } = helpers(context)
  const dex = context.chain.dexes.find((d) => d.family === 'aerodromeV2')!
  const transfer = (token: Address, to: Address, amount: bigint) => tx('transfer', token, encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [to, amount] }), GAS.transfer)
  const call = (label: string, to: Address, data: Hex, gas = GAS.aerodromeSwap) => tx(label, to, data, gas)
  type Book = { paused: boolean }
  let book: Book = { paused: false }
  return {
    name: 'aerodromeV2',
    async freshRead(blockNumber) {
      const { pools } = await readAerodromeV2Pools({ client: anvil.publicClient, chain: context.chain, blockNumber, tokens: Object.values(devnet.tokens).map((t) => t.address), dexes: [dex] })
      return pools
    },
    save: () => book,
    restore: (saved) => (book = saved as Book),
    async planBlock(states, actions, gasBudget): Promise<LiveActivityPlan> {
      const pools = states as readonly AerodromeV2PoolState[]
      const txs: DevnetTransaction[] = []
      const used = new Set<Address>()
      let gas = 0n
      let paused = book.paused
      for (let k = 0; k < actions; k++) {
        const roll = random()
        const planned: DevnetTransaction[] = []
        let nextPaused = paused
        const pool = pick(pools.filter((p) => !used.has(p.address)))
        if (roll < 0.4 && pool && !paused) {
          // A swap of 0.01%–5% of the input reserve, or a few units, for exactly what getAmountOut pays.
          used.add(pool.address)
          const zeroIn = random() < 0.5
          const [tokenIn, reserveIn] = zeroIn ? [pool.token0, BigInt(pool.reserve0)] : [pool.token1, BigInt(pool.reserve1)]
          const amountIn = random() < 0.1 ? BigInt(between(1, 1000)) : (reserveIn * BigInt(between(1, 500))) / 10_000n + 1n
          const amountOut = await anvil.publicClient.readContract({ address: pool.address, abi: aerodromePoolAbi, functionName: 'getAmountOut', args: [amountIn, getAddress(tokenIn)] })
          if (amountOut === 0n) continue
          planned.push(
            transfer(tokenIn, pool.address, amountIn),
            call('aerodrome swap', pool.address, encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'swap', args: [zeroIn ? 0n : amountOut, zeroIn ? amountOut : 0n, deployer, '0x'] })),
          )
        } else if (roll < 0.5 && pool) {
          // A donation taken into the reserves by sync().
          used.add(pool.address)
          const token = random() < 0.5 ? pool.token0 : pool.token1
          const reserve = BigInt(token === pool.token0 ? pool.reserve0 : pool.reserve1)
          planned.push(transfer(token, pool.address, reserve / BigInt(between(100, 10_000)) + 1n), call('aerodrome sync', pool.address, encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'sync' })))
        } else if (roll < 0.6 && pool) {
          // A deposit in proportion to the reserves.
          used.add(pool.address)
          const share = BigInt(between(1, 300))
          planned.push(
            transfer(pool.token0, pool.address, (BigInt(pool.reserve0) * share) / 10_000n + 1n),
            transfer(pool.token1, pool.address, (BigInt(pool.reserve1) * share) / 10_000n + 1n),
            call('aerodrome mint', pool.address, encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'mint', args: [deployer] })),
          )
        } else if (roll < 0.7 && pool) {
          // A withdrawal of part of the deployer's LP tokens.
          used.add(pool.address)
          const held = await anvil.publicClient.readContract({ address: pool.address, abi: aerodromeLpAbi, functionName: 'balanceOf', args: [deployer] })
          const amount = (held * BigInt(between(1, 30))) / 100n
          if (amount === 0n) continue
          planned.push(
            call('aerodrome LP transfer', pool.address, encodeFunctionData({ abi: aerodromeLpAbi, functionName: 'transfer', args: [pool.address, amount] })),
            call('aerodrome burn', pool.address, encodeFunctionData({ abi: aerodromeLpAbi, functionName: 'burn', args: [deployer] })),
          )
        } else if (roll < 0.82 && pool) {
          // A custom fee: a new one, the zero marker, or back to the default.
          used.add(pool.address)
          const choice = random()
          const fee = choice < 0.2 ? 0 : choice < 0.35 ? AERODROME_ZERO_FEE : between(1, AERODROME_MAX_FEE)
          planned.push(call('aerodrome setCustomFee', aerodrome.factory, encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'setCustomFee', args: [pool.address, BigInt(fee)] })))
        } else if (roll < 0.88 && k === 0 && (paused || random() < 0.5)) {
          // The factory paused (every pool's swaps stop), or unpaused: alone in its block, no swap after it.
          nextPaused = !paused
          planned.push(call(`aerodrome ${nextPaused ? 'pause' : 'unpause'}`, aerodrome.factory, encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'setPauseState', args: [nextPaused] })))
        } else {
          // A new pool: volatile at the tokens' USD prices, or stable with equal whole amounts.
          const [token0, token1] = tokenPair()
          const stable = random() < 0.3
          const address = getAerodromeV2PoolAddress(dex, token0!.address, token1!.address, stable)
          if (used.has(address) || (await anvil.publicClient.getCode({ address }))) continue
          used.add(address)
          const whole = between(10_000, 200_000)
          const raw = (token: typeof token0) => (stable ? BigInt(whole) * 10n ** BigInt(token!.decimals) : BigInt(Math.floor((whole / token!.priceUsd) * 10 ** Math.min(token!.decimals, 12))) * 10n ** BigInt(Math.max(0, token!.decimals - 12)))
          planned.push(
            call('aerodrome createPool', aerodrome.factory, encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'createPool', args: [token0!.address, token1!.address, stable] }), GAS.aerodromeCreate),
            transfer(token0!.address, address, raw(token0)),
            transfer(token1!.address, address, raw(token1)),
            call('aerodrome mint', address, encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'mint', args: [deployer] })),
          )
        }
        const plannedGas = planned.reduce((sum, t) => sum + t.gas, 0n)
        if (gas + plannedGas > gasBudget) break
        gas += plannedGas
        txs.push(...planned)
        paused = nextPaused
      }
      return { txs, onMined: () => (book = { paused }) }
    },
  }
}
