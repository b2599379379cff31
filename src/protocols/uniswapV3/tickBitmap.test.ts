import { describe, expect, it } from 'vitest'
import {
  compressTick,
  findInitializedTickWithinOneWord,
  getSearchWord,
  getWordBoundaryTick,
  isWordKnown,
  nextInitializedTickWithinOneWord,
  type InitializedTick,
} from './tickBitmap.js'
import { MAX_TICK, MIN_TICK } from './tickMath.js'

const ticksAt = (...indexes: number[]): InitializedTick[] =>
  indexes.sort((a, b) => a - b).map((index) => ({ index, liquidityNet: 1n }))

// The initialized ticks of v3-core's TickBitmap.spec.ts (tick spacing 1).
const TICKS = ticksAt(-200, -55, -4, 70, 78, 84, 139, 240, 535)
const next = (ticks: InitializedTick[], tick: number, lte: boolean) =>
  nextInitializedTickWithinOneWord(ticks, tick, 1, lte)

describe('nextInitializedTickWithinOneWord, lte = false', () => {
  it('returns the tick to the right when at an initialized tick', () => {
    expect(next(TICKS, 78, false)).toEqual({ next: 84, initialized: true })
    expect(next(TICKS, -55, false)).toEqual({ next: -4, initialized: true })
  })

  it('returns the tick directly to the right', () => {
    expect(next(TICKS, 77, false)).toEqual({ next: 78, initialized: true })
    expect(next(TICKS, -56, false)).toEqual({ next: -55, initialized: true })
  })

  it("searches the next word when on a word's right boundary", () => {
    expect(next(TICKS, 255, false)).toEqual({ next: 511, initialized: false })
    expect(next(TICKS, -257, false)).toEqual({ next: -200, initialized: true })
  })

  it('finds the next initialized tick in the next word', () => {
    expect(next(ticksAt(...TICKS.map((t) => t.index), 340), 328, false)).toEqual({ next: 340, initialized: true })
  })

  it('does not pass the word boundary', () => {
    expect(next(TICKS, 508, false)).toEqual({ next: 511, initialized: false })
    expect(next(TICKS, 383, false)).toEqual({ next: 511, initialized: false })
  })
})

describe('nextInitializedTickWithinOneWord, lte = true', () => {
  it('returns the same tick if it is initialized', () => {
    expect(next(TICKS, 78, true)).toEqual({ next: 78, initialized: true })
  })

  it('returns the tick directly to the left if not initialized', () => {
    expect(next(TICKS, 79, true)).toEqual({ next: 78, initialized: true })
    expect(next(TICKS, 72, true)).toEqual({ next: 70, initialized: true })
  })

  it('does not pass the word boundary', () => {
    expect(next(TICKS, 258, true)).toEqual({ next: 256, initialized: false })
    expect(next(TICKS, 256, true)).toEqual({ next: 256, initialized: false })
    expect(next(TICKS, -257, true)).toEqual({ next: -512, initialized: false })
  })

  it('stops at the word start when the word is empty', () => {
    expect(next(TICKS, 1023, true)).toEqual({ next: 768, initialized: false })
    expect(next(TICKS, 900, true)).toEqual({ next: 768, initialized: false })
  })

  it('finds a tick near the word start', () => {
    expect(next(ticksAt(...TICKS.map((t) => t.index), 329), 456, true)).toEqual({ next: 329, initialized: true })
  })

  it('works on an empty tick list', () => {
    expect(next([], 0, true)).toEqual({ next: 0, initialized: false })
    expect(next([], 0, false)).toEqual({ next: 255, initialized: false })
  })
})

describe('tick spacing', () => {
  it('compresses toward negative infinity', () => {
    expect(compressTick(-1, 60)).toBe(-1)
    expect(compressTick(-60, 60)).toBe(-1)
    expect(compressTick(-61, 60)).toBe(-2)
    expect(compressTick(59, 60)).toBe(0)
    expect(compressTick(MIN_TICK, 60)).toBe(-14788)
  })

  it('searches in compressed words and returns real ticks', () => {
    const ticks = ticksAt(-120, 120)
    expect(nextInitializedTickWithinOneWord(ticks, -1, 60, true)).toEqual({ next: -120, initialized: true })
    expect(nextInitializedTickWithinOneWord(ticks, 0, 60, true)).toEqual({ next: 0, initialized: false })
    expect(nextInitializedTickWithinOneWord(ticks, -121, 60, false)).toEqual({ next: -120, initialized: true })
    expect(nextInitializedTickWithinOneWord(ticks, 60, 60, false)).toEqual({ next: 120, initialized: true })
    expect(nextInitializedTickWithinOneWord(ticks, 120, 60, false)).toEqual({ next: 255 * 60, initialized: false })
    expect(nextInitializedTickWithinOneWord(ticks, -1, 60, false)).toEqual({ next: 120, initialized: true })
  })

  it('gives the searched word and its boundary', () => {
    expect(getSearchWord(-1, 1, true)).toBe(-1)
    expect(getSearchWord(255, 1, false)).toBe(1)
    expect(getSearchWord(-1, 1, false)).toBe(0)
    expect(getWordBoundaryTick(-1, 60, true)).toBe(-256 * 60)
    expect(getWordBoundaryTick(-61, 60, false)).toBe(-60)
    expect(getWordBoundaryTick(MAX_TICK - 1, 60, false)).toBeGreaterThan(MAX_TICK)
  })

  it('returns the array position from findInitializedTickWithinOneWord', () => {
    const ticks = ticksAt(-120, 120)
    expect(findInitializedTickWithinOneWord(ticks, 0, 60, false)).toBe(1)
    expect(findInitializedTickWithinOneWord(ticks, -1, 60, true)).toBe(0)
    expect(findInitializedTickWithinOneWord(ticks, 0, 60, true)).toBe(-1)
  })
})

describe('isWordKnown', () => {
  it('is true only for words entirely inside the known range', () => {
    expect(isWordKnown(0, 60, -15360, 15359)).toBe(true)
    expect(isWordKnown(-1, 60, -15360, 15359)).toBe(true)
    expect(isWordKnown(1, 60, -15360, 15359)).toBe(false)
    expect(isWordKnown(-2, 60, -15360, 15359)).toBe(false)
    expect(isWordKnown(0, 60, 1, 15359)).toBe(false)
    expect(isWordKnown(0, 60, 0, 15299)).toBe(false)
  })

  it('treats bounds at or past MIN_TICK/MAX_TICK as open', () => {
    expect(isWordKnown(-58, 60, MIN_TICK, 0)).toBe(true)
    expect(isWordKnown(-10_000, 60, MIN_TICK - 100, 0)).toBe(true)
    expect(isWordKnown(57, 60, 0, MAX_TICK)).toBe(true)
  })
})
