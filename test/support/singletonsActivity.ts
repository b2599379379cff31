// Uniswap V4 and Balancer V2 third-party activity for the live source's tests (see
// liveActivity.ts), on the real PoolManager and Vault bytecode: V4 swaps from 0.01% to 40% price
// moves (large ones cross ticks and bitmap words), liquidity added around the price, on one side
// and far outside the tick window, partial and full removals, donations, protocol fee changes, new pools
// (some with hooks, which weft skips); Balancer swaps of every size, proportional joins and exits,
// swap fee changes, new 2- and 3-token weighted pools. The fresh reads list the pools from the
// chain itself (the PoolManager's Initialize logs, the factory's PoolCreated logs) at the block,
// so they need no bookkeeping across reorgs.
import { type Address, type Hex, concat, encodeAbiParameters, encodeFunctionData, maxUint256, parseAbi, parseEventLogs, zeroAddress } from 'viem'
import type { ChainConfig, DexConfig, PoolStateBase } from '../../src/index.js'
import { readBalancerV2Pools } from '../../src/protocols/balancerV2/readPools.js'
import type { BalancerV2PoolState } from '../../src/protocols/balancerV2/state.js'
import { getUniswapV4PoolId, type UniswapV4PoolKey } from '../../src/protocols/uniswapV4/poolKey.js'
import { readUniswapV4Pools } from '../../src/protocols/uniswapV4/readPools.js'
import type { UniswapV4PoolState } from '../../src/protocols/uniswapV4/state.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/protocols/uniswapV3/tickMath.js'
import {
  type BalancerV2Deployment,
  balancerVaultAbi,
  balancerWeightedPoolAbi,
  balancerWeightedPoolFactoryAbi,
  deployBalancerV2,
  getBalancerV2DexConfig,
} from '../devnet/balancerV2.js'
import { type Anvil, type Devnet, type DevnetToken, type DevnetTransaction, compileTestContracts, getFullRangeTicks, getLiquidityForUsd, getRawPrice, getSqrtPriceX96, rpc, sendDevnetTransactions, testTokenAbi } from '../devnet/index.js'
import { type UniswapV4Deployment, V4_HOOK_ADDRESSES, deployUniswapV4, poolManagerAbi, v4TestRouterAbi, withUniswapV4 } from '../devnet/uniswapV4.js'
import type { LiveActivityFamily, LiveActivityPlan } from './liveActivity.js'
import type { LiveActivitySetup } from './liveActivityFamilies.js'
import { randomPositionRange } from './randomPositionRange.js'

const GAS = { v4Donate: 300_000n, v4Swap: 2_000_000n, v4Modify: 1_000_000n, v4Initialize: 300_000n, v4ProtocolFee: 150_000n, balancerSwap: 400_000n, balancerJoin: 600_000n, balancerCreate: 9_000_000n, balancerFee: 150_000n }
const E18 = 10n ** 18n
const ZERO_SALT = `0x${'0'.repeat(64)}` as Hex
// V4 protocol fees are at most 1000 pips per direction.
const PROTOCOL_FEE_STEPS = [0, 0, 0, 50, 250, 1000] as const
// New V4 pools: fee / spacing pairs, standard and not.
const NEW_V4_SHAPES = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
  [2500, 50],
  [777, 7],
] as const
// Balancer bounds: swap fee 1e12..1e17; a GIVEN_IN swap at most 30% of the balance in.
const BALANCER_POOLS_PER_READ = 6
const BALANCER_FEES = [10n ** 12n, 10n ** 15n, 3n * 10n ** 15n, 10n ** 16n, 10n ** 17n] as const

const initializeEventAbi = parseAbi([
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
])
/** V4TestDonor (test/contracts/V4TestDonor.sol). */
const v4TestDonorAbi = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function donate(PoolKey key, uint256 amount0, uint256 amount1) payable',
])
const weightedPoolOwnerAbi = parseAbi(['function setSwapFeePercentage(uint256 swapFeePercentage)', 'function balanceOf(address) view returns (uint256)'])

/** A V4 position the activity holds (owned by the test router, salt 0): liquidity by pool id and range. */
type V4Book = { positions: ReadonlyMap<string, bigint> }
const positionKey = (id: Hex, tickLower: number, tickUpper: number) => `${id}:${tickLower}:${tickUpper}`

/** What the activities need: the devnet (its deployer pays everything). */
export type SingletonsActivityParameters = { anvil: Anvil; devnet: Devnet; random: () => number }

/**
 * Uniswap V4 activity on a `deployUniswapV4` deployment (donations through `donor`, a
 * V4TestDonor the deployer has approved), and the fresh read of every pool the
 * PoolManager initialized up to the block, by `readUniswapV4Pools` (pools with hooks or a dynamic
 * fee are left out, as it reports them skipped).
 *
 * @example
 * const v4Activity = createUniswapV4Activity({ anvil, devnet, random, v4, donor })
 */
export function createUniswapV4Activity({ anvil, devnet, random, v4, donor }: SingletonsActivityParameters & { v4: UniswapV4Deployment; donor: Address }): LiveActivityFamily {
  const initial = new Map<string, bigint>()
  for (const pool of v4.pools) {
    for (const p of pool.positions) initial.set(positionKey(pool.id, p.tickLower, p.tickUpper), (initial.get(positionKey(pool.id, p.tickLower, p.tickUpper)) ?? 0n) + p.liquidity)
  }
  let book: V4Book = { positions: initial }
  /** Keys of every pool initialized so far (from the last fresh read), to create only new ones. */
  let knownKeys: UniswapV4PoolKey[] = []
  const pick = <T,>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)]
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))
  const deployer = devnet.accounts.deployer
  const tx = (label: string, to: Address, data: Hex, gas: bigint, value = 0n): DevnetTransaction => ({ label, from: deployer, to, data, gas, ...(value > 0n ? { value } : {}) })
  const priced = (currency: Address): DevnetToken => (currency === zeroAddress ? devnet.tokens.WETH : devnet.getToken(currency))
  const keyOf = (pool: UniswapV4PoolState): UniswapV4PoolKey => ({ currency0: pool.currency0, currency1: pool.currency1, fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks })
  // Native liquidity is paid as value: at most the whole position in ETH, twice over (the router refunds the rest).
  const nativeValue = (key: UniswapV4PoolKey, usd: number) => (key.currency0 === zeroAddress ? BigInt(Math.ceil((2 * usd) / devnet.tokens.WETH.priceUsd) + 1) * E18 : 0n)
  const modifyTx = (key: UniswapV4PoolKey, tickLower: number, tickUpper: number, delta: bigint, value: bigint) =>
    tx(
      delta > 0n ? 'v4 add liquidity' : 'v4 remove liquidity',
      v4.router,
      encodeFunctionData({ abi: v4TestRouterAbi, functionName: 'modifyLiquidity', args: [key, tickLower, tickUpper, delta, ZERO_SALT] }),
      GAS.v4Modify,
      value,
    )

  return {
    name: 'uniswapV4',
    async freshRead(blockNumber) {
      const logs = await anvil.publicClient.getLogs({ address: v4.manager, event: initializeEventAbi[0], fromBlock: 0n, toBlock: blockNumber })
      const keys = logs.map((log) => ({
        currency0: log.args.currency0!.toLowerCase() as Address,
        currency1: log.args.currency1!.toLowerCase() as Address,
        fee: log.args.fee!,
        tickSpacing: log.args.tickSpacing!,
        hooks: log.args.hooks!.toLowerCase() as Address,
      }))
      knownKeys = keys
      const tokens = Object.values(devnet.tokens).map((t) => t.address)
      const dex: DexConfig = { ...v4.dex, feeTiers: {}, poolKeys: keys }
      const { pools } = await readUniswapV4Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens, dexes: [dex] })
      return pools as PoolStateBase[]
    },
    save: () => book,
    restore: (saved) => (book = saved as V4Book),
    async planBlock(states, actions, gasBudget): Promise<LiveActivityPlan> {
      const pools = states as UniswapV4PoolState[]
      const txs: DevnetTransaction[] = []
      const positions = new Map(book.positions)
      const swapped = new Set<string>()
      let gas = 0n
      for (let k = 0; k < actions; k++) {
        const roll = random()
        const planned: DevnetTransaction[] = []
        const changes: [string, bigint][] = []
        if (roll < 0.4) {
          // A swap moving the price 0.01%–1%, or 5%–40% (across ticks and words), stopped at that price.
          // One per pool per block: a second one's price limit could already be passed.
          const pool = pick(pools.filter((p) => !swapped.has(p.id) && BigInt(p.liquidity) > 0n))
          if (!pool) continue
          swapped.add(pool.id)
          const zeroForOne = random() < 0.5
          const move = random() < 0.15 ? 0.05 + random() * 0.35 : 0.0001 + random() * 0.01
          const sqrtPrice = Number(pool.sqrtPriceX96) / 2 ** 96
          const liquidity = Number(pool.liquidity)
          const amount = zeroForOne ? (liquidity / sqrtPrice) * (Math.sqrt(1 + move) - 1) : liquidity * sqrtPrice * (Math.sqrt(1 + move) - 1)
          const factor = zeroForOne ? 1 / Math.sqrt(1 + move) : Math.sqrt(1 + move)
          const limit = (BigInt(pool.sqrtPriceX96) * BigInt(Math.round(factor * 1e12))) / 10n ** 12n
          if (limit <= MIN_SQRT_RATIO || limit >= MAX_SQRT_RATIO) continue
          // V4 signs: a negative amount is an exact input; native input is sent along (the rest refunded).
          const amountIn = BigInt(Math.floor(amount * 2)) + 1000n
          const value = zeroForOne && pool.currency0 === zeroAddress ? amountIn : 0n
          planned.push(
            tx('v4 swap', v4.router, encodeFunctionData({ abi: v4TestRouterAbi, functionName: 'swap', args: [keyOf(pool), zeroForOne, -amountIn, limit, deployer] }), GAS.v4Swap, value),
          )
        } else if (roll < 0.6) {
          // Liquidity added: around the price, wholly on one side, or far outside the tick window.
          const pool = pick(pools)
          if (!pool) continue
          const spacing = pool.tickSpacing
          const [lower, upper] = randomPositionRange(random, between, pool.tick, spacing)
          if (lower >= upper) continue
          const usd = between(500, 50_000)
          const price = (Number(pool.sqrtPriceX96) / 2 ** 96) ** 2
          const liquidity = getLiquidityForUsd({ price, tickLower: lower, tickUpper: upper, usd, token0: priced(pool.currency0), token1: priced(pool.currency1) })
          if (liquidity <= 0n) continue
          planned.push(modifyTx(keyOf(pool), lower, upper, liquidity, nativeValue(keyOf(pool), usd)))
          changes.push([positionKey(pool.id, lower, upper), liquidity])
        } else if (roll < 0.78) {
          // Part or all of a position removed (tick gross may return to zero: the tick disappears).
          const open = [...positions.entries()].filter(([key, liquidity]) => liquidity > 0n && pools.some((p) => key.startsWith(p.id)))
          const chosen = pick(open)
          if (!chosen) continue
          const [key, held] = chosen
          const [id, lowerText, upperText] = key.split(':') as [Hex, string, string]
          const pool = pools.find((p) => p.id === id)!
          const amount = random() < 0.5 ? held : held / BigInt(between(2, 5))
          if (amount <= 0n) continue
          planned.push(modifyTx(keyOf(pool), Number(lowerText), Number(upperText), -amount, 0n))
          changes.push([key, -amount])
        } else if (roll < 0.82) {
          // The protocol fee of a pool, each direction 0 or up to the 1000-pip cap.
          const pool = pick(pools)
          if (!pool) continue
          const protocolFee = (pick(PROTOCOL_FEE_STEPS)! << 12) | pick(PROTOCOL_FEE_STEPS)!
          planned.push(tx('v4 protocol fee', v4.manager, encodeFunctionData({ abi: poolManagerAbi, functionName: 'setProtocolFee', args: [keyOf(pool), protocolFee] }), GAS.v4ProtocolFee))
        } else if (roll < 0.86) {
          // A donation to the liquidity in range, of one currency or both (the first ends its fee growth's freshness).
          const pool = pick(pools.filter((p) => BigInt(p.liquidity) > 0n))
          if (!pool) continue
          const shape = random()
          const usd = between(10, 5_000)
          const amountOf = (currency: Address) => BigInt(Math.floor((usd / priced(currency).priceUsd) * 10 ** priced(currency).decimals)) + 1n
          const amount0 = shape < 0.66 ? amountOf(pool.currency0) : 0n
          const amount1 = shape >= 0.33 ? amountOf(pool.currency1) : 0n
          const value = pool.currency0 === zeroAddress ? amount0 : 0n
          planned.push(tx('v4 donate', donor, encodeFunctionData({ abi: v4TestDonorAbi, functionName: 'donate', args: [keyOf(pool), amount0, amount1] }), GAS.v4Donate, value))
        } else if (roll < 0.91) {
          // A new pool between two devnet currencies (native ETH among them), a tenth with a hook weft skips.
          const currencies: Address[] = [zeroAddress, ...Object.values(devnet.tokens).filter((t) => t.symbol !== 'PEPE').map((t) => t.address)]
          const a = pick(currencies)!
          const b = pick(currencies.filter((c) => c !== a && !(a === zeroAddress && c === devnet.tokens.WETH.address) && !(c === zeroAddress && a === devnet.tokens.WETH.address)))!
          const [currency0, currency1] = a < b ? [a, b] : [b, a]
          const [fee, tickSpacing] = pick(NEW_V4_SHAPES)!
          const hooks = random() < 0.1 ? (V4_HOOK_ADDRESSES.beforeSwap.toLowerCase() as Address) : zeroAddress
          const key: UniswapV4PoolKey = { currency0, currency1, fee, tickSpacing, hooks }
          const id = getUniswapV4PoolId(key)
          if (knownKeys.some((known) => getUniswapV4PoolId(known) === id) || txs.concat(planned).some((t) => t.label === `v4 initialize ${id}`)) continue
          const price = getRawPrice(priced(currency0), priced(currency1))
          planned.push(tx(`v4 initialize ${id}`, v4.manager, encodeFunctionData({ abi: poolManagerAbi, functionName: 'initialize', args: [key, getSqrtPriceX96(price)] }), GAS.v4Initialize))
          const tick = Math.round(Math.log(price) / Math.log(1.0001) / tickSpacing) * tickSpacing
          const [lowest, highest] = getFullRangeTicks(tickSpacing)
          const [lower, upper] = [Math.max(lowest, tick - 100 * tickSpacing), Math.min(highest, tick + 100 * tickSpacing)]
          const usd = between(10_000, 300_000)
          const liquidity = getLiquidityForUsd({ price, tickLower: lower, tickUpper: upper, usd, token0: priced(currency0), token1: priced(currency1) })
          if (liquidity > 0n) {
            planned.push(modifyTx(key, lower, upper, liquidity, nativeValue(key, usd)))
            changes.push([positionKey(id, lower, upper), liquidity])
          }
        }
        const plannedGas = planned.reduce((sum, t) => sum + t.gas, 0n)
        if (gas + plannedGas > gasBudget) break
        gas += plannedGas
        txs.push(...planned)
        for (const [key, delta] of changes) positions.set(key, (positions.get(key) ?? 0n) + delta)
      }
      return { txs, onMined: () => (book = { positions }) }
    },
  }
}

/**
 * Balancer V2 activity on a `deployBalancerV2` deployment, and the fresh read of every pool its
 * WeightedPoolFactory created up to the block, by `readBalancerV2Pools`.
 *
 * @example
 * const balancerActivity = createBalancerV2Activity({ anvil, devnet, random, balancer })
 */
export function createBalancerV2Activity({ anvil, devnet, random, balancer }: SingletonsActivityParameters & { balancer: BalancerV2Deployment }): LiveActivityFamily {
  const pick = <T,>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)]
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))
  const deployer = devnet.accounts.deployer
  const tx = (label: string, to: Address, data: Hex, gas: bigint): DevnetTransaction => ({ label, from: deployer, to, data, gas })
  const symbols = ['WETH', 'USDC', 'DAI', 'WBTC', 'LINK', 'USDT'] as const
  const poolIdsAt = async (blockNumber: bigint): Promise<Hex[]> => {
    const created = await anvil.publicClient.getLogs({ address: balancer.weightedPoolFactory, event: balancerWeightedPoolFactoryAbi.find((item) => item.type === 'event' && item.name === 'PoolCreated') as (typeof balancerWeightedPoolFactoryAbi)[2], fromBlock: 0n, toBlock: blockNumber })
    if (created.length === 0) return []
    const ids = await anvil.publicClient.multicall({
      contracts: created.map((log) => ({ address: log.args.pool!, abi: balancerWeightedPoolAbi, functionName: 'getPoolId' as const })),
      allowFailure: false,
      blockNumber,
      deployless: true,
    })
    return ids.map((id) => id.toLowerCase() as Hex)
  }
  const joinData = (poolId: Hex, tokens: readonly Address[], amounts: readonly bigint[], init: boolean) =>
    encodeFunctionData({
      abi: balancerVaultAbi,
      functionName: 'joinPool',
      args: [
        poolId,
        deployer,
        deployer,
        {
          assets: [...tokens],
          maxAmountsIn: [...amounts],
          // WeightedPoolUserData: INIT = 0 (amountsIn), EXACT_TOKENS_IN_FOR_BPT_OUT = 1 (amountsIn, minimum BPT).
          userData: init
            ? encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256[]' }], [0n, [...amounts]])
            : encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256[]' }, { type: 'uint256' }], [1n, [...amounts], 0n]),
          fromInternalBalance: false,
        },
      ],
    })

  return {
    name: 'balancerV2',
    async freshRead(blockNumber) {
      const ids = await poolIdsAt(blockNumber)
      const tokens = Object.values(devnet.tokens).map((t) => t.address)
      // A few pools per read: the reader's one deployless multicall answers as code, capped at 24,576
      // bytes, and fails whole (every pool skipped) past ~15 pools.
      const chunks = Array.from({ length: Math.ceil(ids.length / BALANCER_POOLS_PER_READ) }, (_, k) => ids.slice(k * BALANCER_POOLS_PER_READ, (k + 1) * BALANCER_POOLS_PER_READ))
      const reads = await Promise.all(
        chunks.map((chunk) => readBalancerV2Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber, tokens, dexes: [getBalancerV2DexConfig(balancer, chunk)] })),
      )
      return reads.flatMap((read) => read.pools) as PoolStateBase[]
    },
    save: () => undefined,
    restore: () => undefined,
    async planBlock(states, actions, gasBudget): Promise<LiveActivityPlan> {
      const all = states as BalancerV2PoolState[]
      // Pools created empty take no trade before their INIT join.
      const pools = all.filter((p) => p.balances.some((b) => b !== '0'))
      const txs: DevnetTransaction[] = []
      let gas = 0n
      for (let k = 0; k < actions; k++) {
        const roll = random()
        const planned: DevnetTransaction[] = []
        const pool = pick(pools)
        if (roll < 0.45 && pool) {
          // A GIVEN_IN swap of 0.01%–1%, or up to 15%, of the balance in (the pool takes at most 30%,
          // and an earlier swap of the block may have drawn the token down).
          const into = between(0, pool.tokens.length - 1)
          const outOf = pick([...pool.tokens.keys()].filter((i) => i !== into))!
          const share = random() < 0.2 ? 0.01 + random() * 0.14 : 0.0001 + random() * 0.01
          const amount = BigInt(Math.floor(Number(pool.balances[into]) * share)) + 1n
          planned.push(
            tx(
              'balancer swap',
              balancer.vault,
              encodeFunctionData({
                abi: balancerVaultAbi,
                functionName: 'swap',
                args: [
                  { poolId: pool.poolId, kind: 0, assetIn: pool.tokens[into]!, assetOut: pool.tokens[outOf]!, amount, userData: '0x' },
                  { sender: deployer, fromInternalBalance: false, recipient: deployer, toInternalBalance: false },
                  0n,
                  maxUint256,
                ],
              }),
              GAS.balancerSwap,
            ),
          )
        } else if (roll < 0.65 && pool) {
          // A join of 0.1%–5% of the balances, proportional or not (a non-proportional one pays swap fees).
          const share = 0.001 + random() * 0.049
          const amounts = pool.balances.map((b) => (random() < 0.3 ? 0n : BigInt(Math.floor(Number(b) * share * (0.5 + random())))))
          if (amounts.every((a) => a === 0n)) continue
          planned.push(tx('balancer join', balancer.vault, joinData(pool.poolId, pool.tokens, amounts, false), GAS.balancerJoin))
        } else if (roll < 0.85 && pool) {
          // A proportional exit of 1%–20% of the deployer's BPT (EXACT_BPT_IN_FOR_TOKENS_OUT = 1).
          const held = await anvil.publicClient.readContract({ address: pool.pool, abi: weightedPoolOwnerAbi, functionName: 'balanceOf', args: [deployer] })
          const bptIn = (held * BigInt(between(1, 20))) / 100n
          if (bptIn === 0n) continue
          planned.push(
            tx(
              'balancer exit',
              balancer.vault,
              encodeFunctionData({
                abi: parseAbi([
                  'struct ExitPoolRequest { address[] assets; uint256[] minAmountsOut; bytes userData; bool toInternalBalance; }',
                  'function exitPool(bytes32 poolId, address sender, address recipient, ExitPoolRequest request)',
                ]),
                functionName: 'exitPool',
                args: [
                  pool.poolId,
                  deployer,
                  deployer,
                  { assets: pool.tokens, minAmountsOut: pool.tokens.map(() => 0n), userData: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, bptIn]), toInternalBalance: false },
                ],
              }),
              GAS.balancerJoin,
            ),
          )
        } else if (roll < 0.92 && pool) {
          // The owner sets a new swap fee (the pool contract's SwapFeePercentageChanged).
          planned.push(tx('balancer swap fee', pool.pool, encodeFunctionData({ abi: weightedPoolOwnerAbi, functionName: 'setSwapFeePercentage', args: [pick(BALANCER_FEES)!] }), GAS.balancerFee))
        } else if (roll < 0.95) {
          // A new 2- or 3-token weighted pool; it is joined (INIT) once it exists, in a later block.
          const count = random() < 0.5 ? 2 : 3
          const chosen = [...symbols].sort(() => random() - 0.5).slice(0, count).map((s) => devnet.tokens[s].address).sort()
          const weights = count === 2 ? [random() < 0.5 ? 5n * 10n ** 17n : 8n * 10n ** 17n] : [4n * 10n ** 17n, 3n * 10n ** 17n]
          weights.push(E18 - weights.reduce((sum, w) => sum + w, 0n))
          planned.push(
            tx(
              'balancer create pool',
              balancer.weightedPoolFactory,
              encodeFunctionData({
                abi: balancerWeightedPoolFactoryAbi,
                functionName: 'create',
                args: [`live-${between(0, 1e9)}`, 'B-live', chosen, weights, chosen.map(() => zeroAddress), pick(BALANCER_FEES)!, deployer],
              }),
              GAS.balancerCreate,
            ),
          )
        }
        const plannedGas = planned.reduce((sum, t) => sum + t.gas, 0n)
        if (gas + plannedGas > gasBudget) break
        gas += plannedGas
        txs.push(...planned)
      }
      // Pools created empty get their INIT join in the next block that plans for this family.
      for (const empty of all.filter((p) => p.balances.every((b) => b === '0'))) {
        const amounts = empty.tokens.map((token) => {
          const priced = devnet.getToken(token)
          return BigInt(Math.floor((50_000 / priced.priceUsd) * 10 ** priced.decimals))
        })
        if (gas + GAS.balancerJoin > gasBudget) break
        gas += GAS.balancerJoin
        txs.unshift(tx('balancer init join', balancer.vault, joinData(empty.poolId, empty.tokens, amounts, true), GAS.balancerJoin))
      }
      return { txs }
    },
  }
}

/**
 * Everything the singletons' activity needs on a devnet: Uniswap V4 (its default pools, native ETH
 * among them, and a hooked and a dynamic-fee pool weft skips) and Balancer V2 (two weighted
 * pools, 2 and 3 tokens, plus a pool the deployer registers by hand, which no known factory created),
 * a V4TestDonor, the deployer funded and its approvals given. Returns the chain with both dexes.
 *
 * @example
 * const { chain, v4, balancer } = await deploySingletons({ anvil, devnet, chain: devnet.chain })
 */
export async function deploySingletons({ anvil, devnet, chain }: { anvil: Anvil; devnet: Devnet; chain: ChainConfig }): Promise<{ chain: ChainConfig; v4: UniswapV4Deployment; balancer: BalancerV2Deployment; donor: Address }> {
  const deployer = devnet.accounts.deployer
  await rpc(anvil.rpcUrl, 'anvil_setBalance', [deployer, `0x${(10n ** 30n).toString(16)}`])
  const v4 = await deployUniswapV4(devnet)
  const balancer = await deployBalancerV2(devnet)
  await devnet.mint('WETH', deployer, 10n ** 24n)
  const { V4TestDonor } = await compileTestContracts({ files: ['test/contracts/V4TestDonor.sol'] })
  if (!V4TestDonor) throw new Error('test/contracts/V4TestDonor.sol did not compile')
  const [deployedDonor] = await sendDevnetTransactions(anvil.rpcUrl, [
    { label: 'deploy V4TestDonor', from: deployer, data: concat([V4TestDonor.bytecode, encodeAbiParameters([{ type: 'address' }], [v4.manager])]), gas: 2_000_000n },
  ])
  const donor = deployedDonor!.contractAddress!.toLowerCase() as Address
  const setup: DevnetTransaction[] = Object.values(devnet.tokens).flatMap((token) =>
    [balancer.vault, donor].map((spender) => ({
      label: `deployer approves ${spender} for ${token.symbol}`,
      from: deployer,
      to: token.address,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [spender, maxUint256] }),
      gas: 100_000n,
    })),
  )
  const { WETH, USDC, DAI, WBTC } = devnet.tokens
  const pairs: [Address[], bigint[]][] = [
    [[WETH.address, USDC.address], [5n * 10n ** 17n, 5n * 10n ** 17n]],
    [[WETH.address, DAI.address, WBTC.address], [4n * 10n ** 17n, 3n * 10n ** 17n, 3n * 10n ** 17n]],
  ]
  for (const [tokens, weights] of pairs) {
    const order = tokens.map((t, i) => [t, weights[i]!] as const).sort(([a], [b]) => (a < b ? -1 : 1))
    setup.push({
      label: 'balancer create pool',
      from: deployer,
      to: balancer.weightedPoolFactory,
      data: encodeFunctionData({
        abi: balancerWeightedPoolFactoryAbi,
        functionName: 'create',
        args: ['seed', 'B-seed', order.map(([t]) => t), order.map(([, w]) => w), order.map(() => zeroAddress), 3n * 10n ** 15n, deployer],
      }),
      gas: GAS.balancerCreate,
    })
  }
  // A pool no known factory created: the deployer registers itself (two-token specialization) and two tokens.
  setup.push({ label: 'register a rogue Balancer pool', from: deployer, to: balancer.vault, data: encodeFunctionData({ abi: balancerVaultAbi, functionName: 'registerPool', args: [2] }), gas: 300_000n })
  const receipts = await sendDevnetTransactions(anvil.rpcUrl, setup)
  const rogue = parseEventLogs({ abi: parseAbi(['event PoolRegistered(bytes32 indexed poolId, address indexed poolAddress, uint8 specialization)']), logs: receipts.at(-1)!.logs })[0]!
  const rogueTokens = [WETH.address, USDC.address].sort()
  await sendDevnetTransactions(anvil.rpcUrl, [
    {
      label: 'register the rogue pool tokens',
      from: deployer,
      to: balancer.vault,
      data: encodeFunctionData({ abi: balancerVaultAbi, functionName: 'registerTokens', args: [rogue.args.poolId, rogueTokens, [zeroAddress, zeroAddress]] }),
      gas: 300_000n,
    },
  ])
  const withV4 = withUniswapV4(chain, v4)
  return { chain: { ...withV4, dexes: [...withV4.dexes, getBalancerV2DexConfig(balancer, [])] }, v4, balancer, donor }
}

/**
 * Uniswap V4 and Balancer V2 for the long run (liveActivityFamilies.ts): deploys both
 * (deploySingletons) and drives them together.
 *
 * @example
 * const { chain, family } = await singletonsActivitySetup.setup({ anvil, devnet, chain: devnet.chain, random })
 */
export const singletonsActivitySetup: LiveActivitySetup = {
  familyIds: ['uniswapV4', 'balancerV2'],
  async setup({ anvil, devnet, chain, random }) {
    const deployed = await deploySingletons({ anvil, devnet, chain })
    return { chain: deployed.chain, family: combineActivities('uniswapV4+balancerV2', [createUniswapV4Activity({ anvil, devnet, random, v4: deployed.v4, donor: deployed.donor }), createBalancerV2Activity({ anvil, devnet, random, balancer: deployed.balancer })]) }
  },
}

/**
 * Several activities as one, each named after the family id of its pools: each plans its share of
 * the block's actions on its own pools.
 *
 * @example
 * combineActivities('singletons', [v4Activity, balancerActivity])
 */
export function combineActivities(name: string, parts: readonly LiveActivityFamily[]): LiveActivityFamily {
  return {
    name,
    freshRead: async (blockNumber) => (await Promise.all(parts.map((part) => part.freshRead(blockNumber)))).flat(),
    save: () => parts.map((part) => part.save()),
    restore: (saved) => parts.forEach((part, i) => part.restore((saved as unknown[])[i])),
    async planBlock(pools, actions, gasBudget) {
      const txs: DevnetTransaction[] = []
      const mined: (() => void)[] = []
      let left = gasBudget
      for (const [i, part] of parts.entries()) {
        const own = pools.filter((p) => p.family === part.name)
        const plan = await part.planBlock(own, i === parts.length - 1 ? actions - Math.floor(actions / 2) : Math.floor(actions / 2), left)
        left -= plan.txs.reduce((sum, t) => sum + t.gas, 0n)
        txs.push(...plan.txs)
        if (plan.onMined) mined.push(plan.onMined)
      }
      return { txs, onMined: () => mined.forEach((onMined) => onMined()) }
    },
  }
}
