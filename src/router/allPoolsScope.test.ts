// The all-pools scope: which tokens and pool directions a ≤ maxHops path can use, computed once
// per pool list and pair, and computed afresh when the list is another or was changed in place.
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { base } from '../chains/base.js'
import { allPoolsScope } from './allPoolsScope.js'
import { SINK, SOURCE } from './types.js'
import { createAddressCounter, createV2Pairs } from '../../test/support/v2Pairs.js'

const token = (n: number) => `0x${(0xc0 + n).toString(16).padStart(40, '0')}` as Address
const [A, B, X, Y, Z] = [0, 1, 2, 3, 4].map(token) as [Address, Address, Address, Address, Address]
const v2Pair = createV2Pairs({ nextAddress: createAddressCounter(0xf000) })
/** A V2 pair at price 1 (1,000 whole tokens a side). */
const pair = (a: Address, b: Address) => v2Pair(a, b, 1_000n * 10n ** 18n, 1_000n * 10n ** 18n)

// A -> X -> B (2 hops), A -> X -> Y -> Z -> B (4 hops), and A -> B directly.
const pools = [pair(A, B), pair(A, X), pair(X, B), pair(X, Y), pair(Y, Z), pair(Z, B)]

describe('allPoolsScope', () => {
  it('holds the tokens and directions within the hop limit, and the routable pools', () => {
    const atTwo = allPoolsScope(pools, A, B, 2)!
    expect(atTwo.tokens[SINK]).toBe(B)
    expect(atTwo.tokens[SOURCE]).toBe(A)
    expect(new Set(atTwo.tokens)).toEqual(new Set([A, B, X]))
    expect(atTwo.pools).toBe(3)
    // Out of the output and into the input are listed (mid prices) but not routable.
    const routable = atTwo.directions.filter((d) => d.routable).map((d) => `${d.tokenIn}>${d.tokenOut}`)
    expect(routable.sort()).toEqual([`${A}>${B}`, `${A}>${X}`, `${X}>${B}`].sort())
    expect(atTwo.directions.some((d) => d.tokenIn === B && d.tokenOut === A && !d.routable)).toBe(true)
    const atFour = allPoolsScope(pools, A, B, 4)!
    expect(new Set(atFour.tokens)).toEqual(new Set([A, B, X, Y, Z]))
    expect(atFour.pools).toBe(6)
    expect(atFour.fromIn.get(Z)).toBe(3)
    expect(atFour.toOut.get(Y)).toBe(2)
  })

  it('is computed once per list and pair: the same object on a repeat, afresh for another list or a list changed in place', () => {
    const list = [...pools]
    const first = allPoolsScope(list, A, B, 3)
    expect(allPoolsScope(list, A, B, 3)).toBe(first)
    expect(allPoolsScope([...pools], A, B, 3)).not.toBe(first)
    expect(allPoolsScope(list, A, B, 3)).toBe(first)
    // Dropping the direct pair in place: the scope follows the list.
    list.shift()
    const changed = allPoolsScope(list, A, B, 3)!
    expect(changed).not.toBe(first)
    expect(changed.directions.some((d) => d.tokenIn === A && d.tokenOut === B)).toBe(false)
  })

  it('is null when no path of at most maxHops reaches the output', () => {
    expect(allPoolsScope([pair(A, X), pair(X, Y), pair(Y, B)], A, B, 2)).toBeNull()
    expect(allPoolsScope([pair(A, X), pair(X, Y), pair(Y, B)], A, B, 3)).not.toBeNull()
  })
})
