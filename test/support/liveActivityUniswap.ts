// Uniswap V2/V3 third-party activity for the live source's tests (see liveActivity.ts): V3 swaps
// from 0.01% to 40% price moves (large ones cross bitmap words), mints in range, on one side and
// far outside the tick window, partial and full burns of earlier mints, V2 swaps and donations
// followed by sync(), new V2 pairs with reserves, new V3 pools (a fifth created uninitialized and
// initialized in a later block).
import { type Address, type Hex, encodeFunctionData } from 'viem'
import type { ChainConfig, PoolStateBase } from '../../src/index.js'
import { getUniswapV2PairAddress, readUniswapV2Pools } from '../../src/protocols/uniswapV2/readPools.js'
import type { UniswapV2PoolState } from '../../src/protocols/uniswapV2/state.js'
import { getUniswapV3PoolAddress, readUniswapV3Pools } from '../../src/protocols/uniswapV3/readPools.js'
import type { UniswapV3PoolState } from '../../src/protocols/uniswapV3/state.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/protocols/uniswapV3/tickMath.js'
import {
  type Anvil,
  DEVNET_GAS,
  type Devnet,
  type DevnetTransaction,
  UNISWAP_V3_FEE_TIERS,
  getLiquidityForUsd,
  getRawPrice,
  getSqrtPriceX96,
  testTokenAbi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
  v3LiquidityProviderAbi,
} from '../devnet/index.js'
import type { LiveActivityFamily, LiveActivityPlan } from './liveActivity.js'
import { randomPositionRange } from './randomPositionRange.js'

const BURN_GAS = 600_000n

/** A V3 position the activity minted (owned by the deployer). */
type Position = { pool: Address; tickLower: number; tickUpper: number; liquidity: bigint }
/** A V3 pool the activity created without a price. */
type Uninitialized = { address: Address; token0: Address; token1: Address; fee: number }
/** What the activity remembers across blocks (immutable: a reorg restores an older one). */
type Book = { positions: readonly Position[]; uninitialized: readonly Uninitialized[] }

/** What createUniswapActivity needs: the devnet (its deployer pays everything and has approved the provider). */
export type CreateUniswapActivityParameters = { anvil: Anvil; devnet: Devnet; chain: ChainConfig; random: () => number }

/**
 * Uniswap V2 and V3 activity on the devnet of `deployDevnet` (real bytecode), and the fresh read
 * of every V2/V3 pool among its tokens by `readUniswapV2Pools` / `readUniswapV3Pools`.
 *
 * @example
 * const activity = createLiveActivity({ anvil, random, families: [createUniswapActivity({ anvil, devnet, chain, random })] })
 */
export function createUniswapActivity({ anvil, devnet, chain, random }: CreateUniswapActivityParameters): LiveActivityFamily {
  let book: Book = { positions: [], uninitialized: [] }
  const pick = <T,>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)]
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))
  const deployer = devnet.accounts.deployer
  const tx = (label: string, to: Address, data: Hex, gas: bigint): DevnetTransaction => ({ label, from: deployer, to, data, gas })
  const transfer = (token: Address, to: Address, amount: bigint) =>
    tx('transfer', token, encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [to, amount] }), DEVNET_GAS.transfer)
  const priced = (address: Address) => Object.values(devnet.tokens).find((t) => t.address === address)!
  const dexes = (family: string) => chain.dexes.filter((d) => d.family === family)

  /** A mint of a position worth `usd` through the provider, remembered once mined. */
  const mintTx = (pool: Address, token0: Address, token1: Address, price: number, tickLower: number, tickUpper: number, usd: number, minted: Position[]) => {
    const liquidity = getLiquidityForUsd({ price, tickLower, tickUpper, usd, token0: priced(token0), token1: priced(token1) })
    if (liquidity <= 0n) return []
    minted.push({ pool, tickLower, tickUpper, liquidity })
    return [
      tx(
        'v3 mint',
        devnet.contracts.v3LiquidityProvider,
        encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'mint', args: [pool, deployer, tickLower, tickUpper, liquidity] }),
        DEVNET_GAS.v3Mint,
      ),
    ]
  }

  return {
    name: 'uniswapV2+V3',
    async freshRead(blockNumber) {
      const tokens = Object.values(devnet.tokens).map((t) => t.address)
      const [v2, v3] = await Promise.all([
        readUniswapV2Pools({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: dexes('uniswapV2') }),
        readUniswapV3Pools({ client: anvil.publicClient, chain, blockNumber, tokens, dexes: dexes('uniswapV3') }),
      ])
      return [...v2, ...v3] as PoolStateBase[]
    },
    save: () => book,
    restore: (saved) => (book = saved as Book),
    async planBlock(pools, actions, gasBudget): Promise<LiveActivityPlan> {
      const txs: DevnetTransaction[] = []
      const minted: Position[] = []
      const burned: Position[] = []
      const created: Uninitialized[] = []
      const initialized: Address[] = []
      const usedPairs = new Set<Address>()
      let gas = 0n
      const v2 = pools.filter((p): p is UniswapV2PoolState => p.family === 'uniswapV2')
      const v3 = pools.filter((p): p is UniswapV3PoolState => p.family === 'uniswapV3')
      for (let k = 0; k < actions; k++) {
        // What this action adds to the books is dropped with it when it does not fit the block.
        const marks = [minted.length, burned.length, created.length, initialized.length] as const
        const roll = random()
        const planned: DevnetTransaction[] = []
        if (roll < 0.35 && v3.length > 0) {
          // A V3 swap moving the price 0.01%–40% (large ones move across bitmap words), stopped at that price.
          // One swap per pool per block: a second one's price limit could already be passed.
          const pool = pick(v3.filter((p) => !usedPairs.has(p.address)))
          if (!pool) continue
          usedPairs.add(pool.address)
          const zeroForOne = random() < 0.5
          const move = random() < 0.15 ? 0.05 + random() * 0.35 : 0.0001 + random() * 0.01
          const sqrtPrice = Number(pool.sqrtPriceX96) / 2 ** 96
          const liquidity = Number(pool.liquidity)
          const amount = zeroForOne ? (liquidity / sqrtPrice) * (1 - 1 / Math.sqrt(1 + move)) : liquidity * sqrtPrice * (Math.sqrt(1 + move) - 1)
          const factor = zeroForOne ? 1 / Math.sqrt(1 + move) : Math.sqrt(1 + move)
          const limit = (BigInt(pool.sqrtPriceX96) * BigInt(Math.round(factor * 1e12))) / 10n ** 12n
          if (liquidity > 0 && limit > MIN_SQRT_RATIO && limit < MAX_SQRT_RATIO) {
            planned.push(
              tx(
                'v3 swap',
                devnet.contracts.v3LiquidityProvider,
                encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'swap', args: [pool.address, deployer, zeroForOne, BigInt(Math.floor(amount * 2)) + 1000n, limit] }),
                DEVNET_GAS.v3Swap,
              ),
            )
          }
        } else if (roll < 0.55 && v3.length > 0) {
          // A V3 mint: around the price, wholly on one side, or far outside the known window.
          const pool = pick(v3)!
          const [lower, upper] = randomPositionRange(random, between, pool.tick, pool.tickSpacing)
          if (lower < upper) planned.push(...mintTx(pool.address, pool.token0, pool.token1, (Number(pool.sqrtPriceX96) / 2 ** 96) ** 2, lower, upper, between(500, 50_000), minted))
        } else if (roll < 0.7) {
          // A burn of part or all of a position minted earlier (never twice in one block).
          const position = pick(book.positions.filter((p) => !burned.some((b) => b.pool === p.pool && b.tickLower === p.tickLower && b.tickUpper === p.tickUpper)))
          if (position) {
            const amount = random() < 0.5 ? position.liquidity : position.liquidity / BigInt(between(2, 5))
            if (amount > 0n) {
              burned.push({ ...position, liquidity: amount })
              planned.push(tx('v3 burn', position.pool, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'burn', args: [position.tickLower, position.tickUpper, amount] }), BURN_GAS))
            }
          }
        } else if (roll < 0.85 && v2.length > 0) {
          // A V2 swap (full constant-product output) or a donation followed by sync(); one per pair per block.
          const pair = pick(v2.filter((p) => !usedPairs.has(p.address)))
          if (pair) {
            usedPairs.add(pair.address)
            const zeroIn = random() < 0.5
            const [reserveIn, reserveOut] = zeroIn ? [BigInt(pair.reserve0), BigInt(pair.reserve1)] : [BigInt(pair.reserve1), BigInt(pair.reserve0)]
            const amountIn = (reserveIn * BigInt(between(1, 500))) / 10_000n + 1n
            planned.push(transfer(zeroIn ? pair.token0 : pair.token1, pair.address, amountIn))
            if (random() < 0.8) {
              const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
              planned.push(
                tx(
                  'v2 swap',
                  pair.address,
                  encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'swap', args: [zeroIn ? 0n : amountOut, zeroIn ? amountOut : 0n, deployer, '0x'] }),
                  DEVNET_GAS.v2Swap,
                ),
              )
            } else planned.push(tx('v2 sync', pair.address, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'sync' }), DEVNET_GAS.v2Swap))
          }
        } else if (roll < 0.9 && book.uninitialized.some((p) => !initialized.includes(p.address))) {
          // A pool created earlier without a price gets one, and liquidity.
          const pool = book.uninitialized.find((p) => !initialized.includes(p.address))!
          const price = getRawPrice(priced(pool.token0), priced(pool.token1))
          const spacing = UNISWAP_V3_FEE_TIERS[pool.fee]!
          const tick = Math.round(Math.log(price) / Math.log(1.0001) / spacing) * spacing
          initialized.push(pool.address)
          planned.push(tx('v3 initialize', pool.address, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(price)] }), DEVNET_GAS.initialize))
          planned.push(...mintTx(pool.address, pool.token0, pool.token1, price, tick - 50 * spacing, tick + 50 * spacing, 100_000, minted))
        } else {
          // A new pool between two devnet tokens: a V2 pair with reserves, or a V3 pool (a fifth left uninitialized).
          const symbols = Object.values(devnet.tokens)
          const first = pick(symbols)!
          const second = pick(symbols.filter((t) => t.address !== first.address))!
          const [token0, token1] = first.address < second.address ? [first, second] : [second, first]
          const existing = new Set([...pools.map((p) => p.address), ...book.uninitialized.map((p) => p.address), ...created.map((p) => p.address)])
          if (random() < 0.4) {
            const dex = dexes('uniswapV2')[0]!
            const address = getUniswapV2PairAddress(dex, token0.address, token1.address)
            const code = await anvil.publicClient.getCode({ address })
            if (!existing.has(address) && !code && !usedPairs.has(address)) {
              usedPairs.add(address)
              const usd = between(5_000, 200_000)
              planned.push(
                tx('v2 createPair', devnet.contracts.uniswapV2Factory, encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [token0.address, token1.address] }), DEVNET_GAS.createPair),
                transfer(token0.address, address, BigInt(Math.floor((usd / token0.priceUsd) * 10 ** token0.decimals))),
                transfer(token1.address, address, BigInt(Math.floor((usd / token1.priceUsd) * 10 ** token1.decimals))),
                tx('v2 mint', address, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [deployer] }), DEVNET_GAS.v2Mint),
              )
            }
          } else {
            const dex = dexes('uniswapV3')[0]!
            const fee = pick(Object.keys(UNISWAP_V3_FEE_TIERS).map(Number))!
            const address = getUniswapV3PoolAddress(dex, token0.address, token1.address, fee)
            const code = await anvil.publicClient.getCode({ address })
            if (!existing.has(address) && !code) {
              planned.push(
                tx('v3 createPool', devnet.contracts.uniswapV3Factory, encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'createPool', args: [token0.address, token1.address, fee] }), DEVNET_GAS.createPool),
              )
              if (random() < 0.2) created.push({ address, token0: token0.address, token1: token1.address, fee })
              else {
                const price = getRawPrice(token0, token1)
                const spacing = UNISWAP_V3_FEE_TIERS[fee]!
                const tick = Math.round(Math.log(price) / Math.log(1.0001) / spacing) * spacing
                planned.push(tx('v3 initialize', address, encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [getSqrtPriceX96(price)] }), DEVNET_GAS.initialize))
                planned.push(...mintTx(address, token0.address, token1.address, price, tick - 100 * spacing, tick + 100 * spacing, between(10_000, 300_000), minted))
              }
            }
          }
        }
        const plannedGas = planned.reduce((sum, t) => sum + t.gas, 0n)
        if (gas + plannedGas > gasBudget) {
          minted.length = marks[0]
          burned.length = marks[1]
          created.length = marks[2]
          initialized.length = marks[3]
          break
        }
        gas += plannedGas
        txs.push(...planned)
      }
      return {
        txs,
        onMined: () => {
          const remaining = book.positions.flatMap((p) => {
            const burn = burned.find((b) => b.pool === p.pool && b.tickLower === p.tickLower && b.tickUpper === p.tickUpper && b.liquidity <= p.liquidity)
            if (!burn) return [p]
            const left = p.liquidity - burn.liquidity
            return left > 0n ? [{ ...p, liquidity: left }] : []
          })
          book = {
            positions: [...remaining, ...minted],
            uninitialized: [...book.uninitialized.filter((p) => !initialized.includes(p.address)), ...created],
          }
        },
      }
    },
  }
}
