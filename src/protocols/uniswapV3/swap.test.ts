import { QuoteError } from '../../errors/QuoteError.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_INT256, MAX_UINT128, MIN_INT256 } from './constants.js'
import { UniswapV3RevertError } from './revertError.js'
import { simulateSwap, type SimulateSwapPool } from './swap.js'
import type { InitializedTick } from './tickBitmap.js'
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from './tickMath.js'
import { type Position, mintedLiquidity } from '../../../test/support/v3Positions.js'


/** A pool as v3-core's tests build it: initialize at a price, then mint positions. */
function poolFromPositions(
  fee: number,
  tickSpacing: number,
  sqrtPriceX96: bigint,
  positions: Position[],
  known: { tickLower: number; tickUpper: number } = { tickLower: MIN_TICK, tickUpper: MAX_TICK },
): SimulateSwapPool {
  const tick = getTickAtSqrtRatio(sqrtPriceX96)
  const minted = mintedLiquidity(positions, tick)
  const ticks = minted.ticks.filter(({ index }) => index >= known.tickLower && index <= known.tickUpper)
  const liquidity = minted.liquidity
  return { fee, tickSpacing, sqrtPriceX96, tick, liquidity, ticks, ...known }
}

const minTick = (tickSpacing: number) => Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
const maxTick = (tickSpacing: number) => Math.floor(MAX_TICK / tickSpacing) * tickSpacing
const fullRange = (tickSpacing: number, liquidity: bigint): Position => ({
  tickLower: minTick(tickSpacing),
  tickUpper: maxTick(tickSpacing),
  liquidity,
})

const E18 = 10n ** 18n
const TWO_E18 = 2n * E18
// encodePriceSqrt(reserve1, reserve0) of v3-core's test utilities (bignumber.js, 40 decimals, floored).
const PRICE_1_1 = 79228162514264337593543950336n
const PRICE_5_2 = 125270724187523965593206900784n
const PRICE_2_5 = 50108289675009586237282760313n
const PRICE_1_10 = 25054144837504793118641380156n
const PRICE_2POW127_1 = 1033437718471923706666374484006904511252097097914n

// The twelve swaps v3-core's UniswapV3Pool.swaps.spec runs against each pool.
const SWAPS = {
  exactIn0Large: { zeroForOne: true, amount: E18 },
  exactIn1Large: { zeroForOne: false, amount: E18 },
  exactOut1Large: { zeroForOne: true, amount: -E18 },
  exactOut0Large: { zeroForOne: false, amount: -E18 },
  exactIn0Small: { zeroForOne: true, amount: 1000n },
  exactIn1Small: { zeroForOne: false, amount: 1000n },
  exactOut1Small: { zeroForOne: true, amount: -1000n },
  exactOut0Small: { zeroForOne: false, amount: -1000n },
  upTo5Over2: { zeroForOne: false, amount: MAX_INT256, limit: PRICE_5_2 },
  downTo2Over5: { zeroForOne: true, amount: MAX_INT256, limit: PRICE_2_5 },
  downTo5Over2: { zeroForOne: true, amount: MAX_INT256, limit: PRICE_5_2 },
  upTo2Over5: { zeroForOne: false, amount: MAX_INT256, limit: PRICE_2_5 },
} as const
type SwapName = keyof typeof SWAPS
/** [amount0, amount1, tickAfter], or the revert reason. */
type Expected = readonly [string, string, number] | 'SPL'

// Expected results: v3-core 1.0's swap snapshot (test/__snapshots__/UniswapV3Pool.swaps.spec.ts.snap).
const SNAPSHOT_POOLS: {
  name: string
  pool: SimulateSwapPool
  expected: Record<SwapName, Expected>
}[] = [
  {
    name: 'low fee, 1:1 price, 2e18 max range liquidity',
    pool: poolFromPositions(500, 10, PRICE_1_1, [fullRange(10, TWO_E18)]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-666444407401233536', -8107],
      exactIn1Large: ['-666444407401233536', '1000000000000000000', 8106],
      exactOut1Large: ['2001000500250125077', '-1000000000000000000', -13864],
      exactOut0Large: ['-1000000000000000000', '2001000500250125079', 13863],
      exactIn0Small: ['1000', '-998', -1],
      exactIn1Small: ['-998', '1000', 0],
      exactOut1Small: ['1002', '-1000', -1],
      exactOut0Small: ['-1000', '1002', 0],
      upTo5Over2: ['-735088935932648266', '1162859089713235954', 9163],
      downTo2Over5: ['1162859089713235953', '-735088935932648266', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'high fee, 1:1 price, 2e18 max range liquidity',
    pool: poolFromPositions(10000, 200, PRICE_1_1, [fullRange(200, TWO_E18)]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-662207357859531772', -8043],
      exactIn1Large: ['-662207357859531772', '1000000000000000000', 8042],
      exactOut1Large: ['2020202020202020203', '-1000000000000000000', -13864],
      exactOut0Large: ['-1000000000000000000', '2020202020202020203', 13863],
      exactIn0Small: ['1000', '-989', -1],
      exactIn1Small: ['-989', '1000', 0],
      exactOut1Small: ['1012', '-1000', -1],
      exactOut0Small: ['-1000', '1012', 0],
      upTo5Over2: ['-735088935932648267', '1174017838553918518', 9163],
      downTo2Over5: ['1174017838553918518', '-735088935932648267', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'medium fee, 1:10 price, 2e18 max range liquidity',
    pool: poolFromPositions(3000, 60, PRICE_1_10, [fullRange(60, TWO_E18)]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-86123526743846551', -25955],
      exactIn1Large: ['-3869747612262812753', '1000000000000000000', -4099],
      exactOut1Large: ['36907032419362389223785084665766560335', '-632455532033675838', -887272],
      exactOut0Large: ['-1000000000000000000', '119138326055954425', -19585],
      exactIn0Small: ['1000', '-99', -23028],
      exactIn1Small: ['-9969', '1000', -23028],
      exactOut1Small: ['10032', '-1000', -23028],
      exactOut0Small: ['-1000', '102', -23028],
      upTo5Over2: ['-5059644256269406930', '2537434431428990440', 9163],
      downTo2Over5: 'SPL',
      downTo5Over2: 'SPL',
      upTo2Over5: ['-3162277660168379331', '634358607857247611', -9164],
    },
  },
  {
    name: 'medium fee, 1:1 price, 0 liquidity, all liquidity around current price',
    pool: poolFromPositions(3000, 60, PRICE_1_1, [
      { tickLower: minTick(60), tickUpper: -60, liquidity: TWO_E18 },
      { tickLower: 60, tickUpper: maxTick(60), liquidity: TWO_E18 },
    ]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-662011820624678025', -8130],
      exactIn1Large: ['-662011820624678025', '1000000000000000000', 8129],
      exactOut1Large: ['2024171064311638316', '-1000000000000000000', -13984],
      exactOut0Large: ['-1000000000000000000', '2024171064311638316', 13983],
      exactIn0Small: ['1000', '-991', -61],
      exactIn1Small: ['-991', '1000', 60],
      exactOut1Small: ['1011', '-1000', -61],
      exactOut0Small: ['-1000', '1011', 60],
      upTo5Over2: ['-729098226020826705', '1159748196632793863', 9163],
      downTo2Over5: ['1159748196632793863', '-729098226020826705', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'medium fee, 1:1 price, additional liquidity around current price',
    pool: poolFromPositions(3000, 60, PRICE_1_1, [
      fullRange(60, TWO_E18),
      { tickLower: minTick(60), tickUpper: -60, liquidity: TWO_E18 },
      { tickLower: 60, tickUpper: maxTick(60), liquidity: TWO_E18 },
    ]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-795933705287758544', -4476],
      exactIn1Large: ['-795933705287758544', '1000000000000000000', 4475],
      exactOut1Large: ['1342022152495072924', '-1000000000000000000', -5794],
      exactOut0Large: ['-1000000000000000000', '1342022152495072924', 5793],
      exactIn0Small: ['1000', '-996', -1],
      exactIn1Small: ['-996', '1000', 0],
      exactOut1Small: ['1005', '-1000', -1],
      exactOut0Small: ['-1000', '1005', 0],
      upTo5Over2: ['-1464187161953474971', '2325523181756544449', 9163],
      downTo2Over5: ['2325523181756544449', '-1464187161953474971', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'low fee, large liquidity around current price (stable swap)',
    pool: poolFromPositions(500, 10, PRICE_1_1, [{ tickLower: -10, tickUpper: 10, liquidity: TWO_E18 }]),
    expected: {
      exactIn0Large: ['1000700370186095', '-999700069986002', -887272],
      exactIn1Large: ['-999700069986002', '1000700370186095', 887271],
      exactOut1Large: ['1000700370186095', '-999700069986002', -887272],
      exactOut0Large: ['-999700069986002', '1000700370186095', 887271],
      exactIn0Small: ['1000', '-998', -1],
      exactIn1Small: ['-998', '1000', 0],
      exactOut1Small: ['1002', '-1000', -1],
      exactOut0Small: ['-1000', '1002', 0],
      upTo5Over2: ['-999700069986002', '1000700370186095', 9163],
      downTo2Over5: ['1000700370186095', '-999700069986002', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'medium fee, token0 liquidity only',
    pool: poolFromPositions(3000, 60, PRICE_1_1, [{ tickLower: 0, tickUpper: 2000 * 60, liquidity: TWO_E18 }]),
    expected: {
      exactIn0Large: ['0', '0', -887272],
      exactIn1Large: ['-665331998665331998', '1000000000000000000', 8089],
      exactOut1Large: ['0', '0', -887272],
      exactOut0Large: ['-1000000000000000000', '2006018054162487463', 13863],
      exactIn0Small: ['0', '0', -887272],
      exactIn1Small: ['-996', '1000', 0],
      exactOut1Small: ['0', '0', -887272],
      exactOut0Small: ['-1000', '1005', 0],
      upTo5Over2: ['-735088935932648267', '1165774985123750584', 9163],
      downTo2Over5: ['0', '0', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'medium fee, token1 liquidity only',
    pool: poolFromPositions(3000, 60, PRICE_1_1, [{ tickLower: -2000 * 60, tickUpper: 0, liquidity: TWO_E18 }]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-665331998665331998', -8090],
      exactIn1Large: ['0', '0', 887271],
      exactOut1Large: ['2006018054162487463', '-1000000000000000000', -13864],
      exactOut0Large: ['0', '0', 887271],
      exactIn0Small: ['1000', '-996', -1],
      exactIn1Small: ['0', '0', 887271],
      exactOut1Small: ['1005', '-1000', -1],
      exactOut0Small: ['0', '0', 887271],
      upTo5Over2: ['0', '0', 9163],
      downTo2Over5: ['1165774985123750584', '-735088935932648267', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'close to max price',
    pool: poolFromPositions(3000, 60, PRICE_2POW127_1, [fullRange(60, TWO_E18)]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-26087635650665564420687107504180041533', 13923],
      exactIn1Large: ['0', '1000000000000000000', 880340],
      exactOut1Large: ['2', '-1000000000000000000', 880340],
      exactOut0Large: ['0', '10740898373457544742072477595619363803', 887271],
      exactIn0Small: ['1000', '-26083549850867114346332688477747755628', 705098],
      exactIn1Small: ['0', '1000', 880340],
      exactOut1Small: ['2', '-1000', 880340],
      exactOut0Small: ['0', '10740898373457544742072477595619363803', 887271],
      upTo5Over2: 'SPL',
      downTo2Over5: ['3171793039286238109', '-26087635650665564423434232548437664977', -9164],
      downTo5Over2: ['1268717215714495281', '-26087635650665564421536865952336637378', 9163],
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'max full range liquidity at 1:1 price with default fee',
    // getMaxLiquidityPerTick(60): uint128 max over the number of usable ticks.
    pool: poolFromPositions(3000, 60, PRICE_1_1, [
      fullRange(60, MAX_UINT128 / BigInt((maxTick(60) - minTick(60)) / 60 + 1)),
    ]),
    expected: {
      exactIn0Large: ['1000000000000000000', '-996999999999999318', -1],
      exactIn1Large: ['-996999999999999232', '1000000000000000000', 0],
      exactOut1Large: ['1003009027081361181', '-1000000000000000000', -1],
      exactOut0Large: ['-1000000000000000000', '1003009027081361094', 0],
      exactIn0Small: ['1000', '0', -1],
      exactIn1Small: ['0', '1000', 0],
      exactOut1Small: ['145660', '-1000', -1],
      exactOut0Small: ['-1000', '145660', 0],
      upTo5Over2: ['-4228872409409224753601131224936259', '6706554036096900675845906992220230', 9163],
      downTo2Over5: ['6706554036096900675845906992672697', '-4228872409409224753601131225116702', -9164],
      downTo5Over2: 'SPL',
      upTo2Over5: 'SPL',
    },
  },
  {
    name: 'initialized at the min ratio',
    pool: poolFromPositions(3000, 60, MIN_SQRT_RATIO, [fullRange(60, TWO_E18)]),
    expected: {
      exactIn0Large: 'SPL',
      exactIn1Large: ['-36796311322104302058426248623781044040', '1000000000000000000', -13924],
      exactOut1Large: 'SPL',
      exactOut0Large: ['-1000000000000000000', '2', -887220],
      exactIn0Small: 'SPL',
      exactIn1Small: ['-36792226666449146913445651103694411508', '1000', -705093],
      exactOut1Small: 'SPL',
      exactOut0Small: ['-1000', '2', -887220],
      upTo5Over2: ['-36796311322104302061173373668038667492', '3171793039286238112', 9163],
      downTo2Over5: 'SPL',
      downTo5Over2: 'SPL',
      upTo2Over5: ['-36796311322104302059276007071937639893', '1268717215714495283', -9164],
    },
  },
]

describe('simulateSwap: v3-core swap snapshot', () => {
  for (const { name, pool, expected } of SNAPSHOT_POOLS) {
    describe(name, () => {
      for (const swapName of Object.keys(SWAPS) as SwapName[]) {
        const swap = SWAPS[swapName]
        const expectation = expected[swapName]
        it(swapName, () => {
          const limit = 'limit' in swap ? swap.limit : undefined
          if (expectation === 'SPL') {
            expect(() => simulateSwap(pool, swap.zeroForOne, swap.amount, limit)).toThrow(
              expect.objectContaining({ reason: 'SPL' }),
            )
            return
          }
          const result = simulateSwap(pool, swap.zeroForOne, swap.amount, limit)
          expect(result).toBeDefined()
          expect([String(result?.amount0), String(result?.amount1), result?.tick]).toEqual(expectation)
        })
      }
    })
  }
})

describe('simulateSwap', () => {
  const pool = poolFromPositions(3000, 60, PRICE_1_1, [
    fullRange(60, TWO_E18),
    { tickLower: -600, tickUpper: 600, liquidity: 5n * E18 },
    { tickLower: -1200, tickUpper: -60, liquidity: 3n * E18 },
    { tickLower: 120, tickUpper: 1800, liquidity: 7n * E18 },
  ])

  it('crosses several initialized ticks, applying liquidityNet with the sign of the direction', () => {
    const down = simulateSwap(pool, true, 10n ** 20n)
    expect(down).toBeDefined()
    // -60, -600, -1200 crossed on the way down; only the full-range position is left.
    expect(down?.initializedTicksCrossed).toBe(3)
    expect(down?.liquidity).toBe(TWO_E18)
    expect(down?.tick).toBeLessThan(-1200)

    const up = simulateSwap(pool, false, 10n ** 20n)
    // 120, 600, 1800 crossed on the way up.
    expect(up?.initializedTicksCrossed).toBe(3)
    expect(up?.liquidity).toBe(TWO_E18)
    expect(up?.tick).toBeGreaterThanOrEqual(1800)
  })

  it('lands on an initialized tick: tick is one below it going down, at it going up', () => {
    const down = simulateSwap(pool, true, MAX_INT256, getSqrtRatioAtTick(-600))
    expect(down?.sqrtPriceX96).toBe(getSqrtRatioAtTick(-600))
    expect(down?.tick).toBe(-601)
    expect(down?.liquidity).toBe(TWO_E18 + 3n * E18)

    const up = simulateSwap(pool, false, MAX_INT256, getSqrtRatioAtTick(600))
    expect(up?.sqrtPriceX96).toBe(getSqrtRatioAtTick(600))
    expect(up?.tick).toBe(600)
    expect(up?.liquidity).toBe(TWO_E18 + 7n * E18)
  })

  it('takes one step per initialized tick or word boundary', () => {
    // tickSpacing 1: a word is 256 ticks. From tick 0 down to the price at -700:
    // steps end at 0 (the current word's start), -256, -512, then the limit.
    const fine = poolFromPositions(100, 1, PRICE_1_1, [fullRange(1, E18)])
    const result = simulateSwap(fine, true, MAX_INT256, getSqrtRatioAtTick(-700))
    expect(result?.stepsTaken).toBe(4)
    expect(result?.initializedTicksCrossed).toBe(0)
    expect(result?.tick).toBe(-700)
  })

  it('matches exact-output to exact-input: the input exact-out needs buys at least that output', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.bigInt({ min: 1n, max: 10n ** 21n }),
        (zeroForOne, amountIn) => {
          const exactIn = simulateSwap(pool, zeroForOne, amountIn)
          if (exactIn === undefined) throw new Error('full state')
          const amountOut = -(zeroForOne ? exactIn.amount1 : exactIn.amount0)
          if (amountOut === 0n) return
          const exactOut = simulateSwap(pool, zeroForOne, -amountOut)
          if (exactOut === undefined) throw new Error('full state')
          expect(-(zeroForOne ? exactOut.amount1 : exactOut.amount0)).toBe(amountOut)
          const inNeeded = zeroForOne ? exactOut.amount0 : exactOut.amount1
          expect(inNeeded).toBeLessThanOrEqual(amountIn)
          const again = simulateSwap(pool, zeroForOne, inNeeded)
          expect(-(zeroForOne ? again!.amount1 : again!.amount0)).toBeGreaterThanOrEqual(amountOut)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('stops at the price limit and reports what it used', () => {
    const limit = getSqrtRatioAtTick(-100)
    const result = simulateSwap(pool, true, 10n ** 30n, limit)
    expect(result?.sqrtPriceX96).toBe(limit)
    expect(result?.amount0).toBeLessThan(10n ** 30n)
    expect(result?.amount1).toBeLessThan(0n)
  })

  it('runs out of liquidity: walks zero-liquidity words to the limit and pays nothing for them', () => {
    const oneSided = poolFromPositions(3000, 60, PRICE_1_1, [{ tickLower: 0, tickUpper: 6000, liquidity: E18 }])
    const result = simulateSwap(oneSided, true, E18)
    expect(result).toMatchObject({ amount0: 0n, amount1: 0n, liquidity: 0n, sqrtPriceX96: MIN_SQRT_RATIO + 1n })
    // The price leaves tick 0 (crossing it), then one step per 256-tick word down to MIN_TICK.
    expect(result?.initializedTicksCrossed).toBe(1)
    expect(result?.stepsTaken).toBeGreaterThan(Math.floor(887272 / (256 * 60)))
  })

  it('crosses a zero-liquidity gap between positions', () => {
    const gapped = poolFromPositions(3000, 60, PRICE_1_1, [
      { tickLower: -600, tickUpper: 600, liquidity: E18 },
      { tickLower: 3000, tickUpper: 6000, liquidity: E18 },
    ])
    // ~0.03e18 of token1 moves the price to tick 600, the rest lands in [3000, 6000).
    const result = simulateSwap(gapped, false, 10n ** 17n)
    expect(result?.initializedTicksCrossed).toBe(2)
    expect(result?.liquidity).toBe(E18)
    expect(result?.tick).toBeGreaterThanOrEqual(3000)
    expect(result?.tick).toBeLessThan(6000)
    expect(result?.amount1).toBe(10n ** 17n)
  })

  it('refuses (undefined) when a step must search a word the state does not hold', () => {
    // Known range: the words around tick 0 only (compressed ticks -256..255 at spacing 60).
    const known = { tickLower: -256 * 60, tickUpper: 256 * 60 - 1 }
    const positions = [fullRange(60, TWO_E18), { tickLower: -600, tickUpper: 600, liquidity: 5n * E18 }]
    const partial = poolFromPositions(3000, 60, PRICE_1_1, positions, known)
    const full = poolFromPositions(3000, 60, PRICE_1_1, positions)

    // Inside the known words: the same result as the full state.
    expect(simulateSwap(partial, true, E18)).toEqual(simulateSwap(full, true, E18))
    // Past them: refused rather than run on invented liquidity.
    expect(simulateSwap(partial, true, 10n ** 22n)).toBeUndefined()
    expect(simulateSwap(partial, false, 10n ** 22n)).toBeUndefined()
    // Up to the edge of the known words is fine.
    const toEdge = simulateSwap(partial, true, MAX_INT256, getSqrtRatioAtTick(-256 * 60))
    expect(toEdge).toEqual(simulateSwap(full, true, MAX_INT256, getSqrtRatioAtTick(-256 * 60)))
    // A range that does not cover the current word refuses every swap.
    const elsewhere = poolFromPositions(3000, 60, PRICE_1_1, positions, { tickLower: 256 * 60, tickUpper: 512 * 60 - 1 })
    expect(simulateSwap(elsewhere, true, 1000n)).toBeUndefined()
    expect(simulateSwap(elsewhere, false, 1000n)).toBeUndefined()
  })

  it('treats a known range that reaches MIN_TICK/MAX_TICK as known to the end', () => {
    const positions = [fullRange(60, TWO_E18)]
    const open = poolFromPositions(3000, 60, PRICE_1_1, positions, { tickLower: MIN_TICK, tickUpper: MAX_TICK })
    expect(simulateSwap(open, true, 10n ** 40n)?.sqrtPriceX96).toBe(MIN_SQRT_RATIO + 1n)
    expect(simulateSwap(open, false, 10n ** 40n)?.sqrtPriceX96).toBe(MAX_SQRT_RATIO - 1n)
  })

  it('does not modify its input', () => {
    const ticks = pool.ticks.map((tick) => ({ ...tick }))
    const before = { ...pool, ticks }
    simulateSwap(pool, true, 10n ** 20n)
    simulateSwap(pool, false, -(10n ** 18n))
    expect(pool).toEqual(before)
  })

  it('reverts like the contract: zero amount, price limit on the wrong side or out of range', () => {
    const reason = (run: () => unknown) => {
      try {
        run()
      } catch (error) {
        return error instanceof UniswapV3RevertError ? error.reason : String(error)
      }
      return 'no revert'
    }
    expect(reason(() => simulateSwap(pool, true, 0n))).toBe('AS')
    expect(reason(() => simulateSwap(pool, true, 1000n, PRICE_1_1))).toBe('SPL')
    expect(reason(() => simulateSwap(pool, true, 1000n, PRICE_5_2))).toBe('SPL')
    expect(reason(() => simulateSwap(pool, true, 1000n, MIN_SQRT_RATIO))).toBe('SPL')
    expect(reason(() => simulateSwap(pool, false, 1000n, MAX_SQRT_RATIO))).toBe('SPL')
    expect(reason(() => simulateSwap(pool, false, 1000n, PRICE_2_5))).toBe('SPL')
  })

  it('rejects an amount that is not an int256', () => {
    expect(() => simulateSwap(pool, true, MAX_INT256 + 1n)).toThrow(QuoteError)
    expect(() => simulateSwap(pool, true, MIN_INT256 - 1n)).toThrow(/not an int256/)
  })

  it('handles the int256 extremes: MAX_INT256 in and MIN_INT256 out stop at the limit', () => {
    const exactIn = simulateSwap(pool, true, MAX_INT256)
    expect(exactIn?.sqrtPriceX96).toBe(MIN_SQRT_RATIO + 1n)
    const exactOut = simulateSwap(pool, false, MIN_INT256)
    expect(exactOut?.sqrtPriceX96).toBe(MAX_SQRT_RATIO - 1n)
    // All of token0 above the price leaves the pool (rounded down per step).
    expect(exactOut?.amount0).toBeLessThan(0n)
  })

  it('reverts on liquidity overflow and underflow when the state is inconsistent (LA, LS)', () => {
    const ticks: InitializedTick[] = [{ index: 60, liquidityNet: 1n }]
    const overflow: SimulateSwapPool = {
      fee: 3000, tickSpacing: 60, sqrtPriceX96: PRICE_1_1, tick: 0, liquidity: MAX_UINT128, ticks,
      tickLower: MIN_TICK, tickUpper: MAX_TICK,
    }
    expect(() => simulateSwap(overflow, false, MAX_INT256)).toThrow(expect.objectContaining({ reason: 'LA' }))
    const underflow: SimulateSwapPool = { ...overflow, liquidity: 5n, ticks: [{ index: -60, liquidityNet: 6n }] }
    expect(() => simulateSwap(underflow, true, MAX_INT256)).toThrow(expect.objectContaining({ reason: 'LS' }))
  })
})
