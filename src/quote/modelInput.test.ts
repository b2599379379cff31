// modelInput's Newton search on models that are not smooth, or that cannot deliver: each
// evaluation is a solve of the candidate graph (up to tens of ms at 6 hops), so a search that
// cycles, or halves towards a capacity it can never pass, costs its whole budget of 30 (families
// soak seeds 419 and 412: about 1 s of a quote). These stand-in models are built so that Newton's
// plain steps do exactly that.
import { describe, expect, it } from 'vitest'
import type { RouteGraph } from '../router/types.js'
import { modelInput } from './modelInput.js'

/** A graph whose only use here is the input token's spot value (raw output per raw input). */
const graphAtSpot = (spot: number) => ({ spot: [1, spot] }) as unknown as RouteGraph

/** A stand-in router over `output(input)` (undefined past capacity), counting its evaluations. */
function modelOf(spot: number, output: (input: number) => { output: number; inputPrice: number } | undefined) {
  let evaluations = 0
  const router = {
    graph: graphAtSpot(spot),
    optimum: (input: number) => {
      evaluations++
      return output(input)
    },
  }
  return { router, evaluations: () => evaluations }
}

describe('modelInput', () => {
  it('converges on a smooth concave output as Newton does', () => {
    // output = 2 * sqrt(input): the input for 100 is 2,500.
    const model = modelOf(1, (input) => ({ output: 2 * Math.sqrt(input), inputPrice: 1 / Math.sqrt(input) }))
    const routed = modelInput(model.router, 100)!
    expect(Number(routed)).toBeGreaterThanOrEqual(2500)
    expect(Number(routed)).toBeLessThan(2500 * (1 + 1e-9) + 2)
    expect(model.evaluations()).toBeLessThan(10)
  })

  it('settles on an input that delivers when the output jumps (Newton alone cycles)', () => {
    // Two lead models: below the jump the output is 0.9 input (slope 0.9); above it, input + 5%
    // of the jump (slope 1). Newton from above steps below the jump, and from below back above it.
    const jump = 1e9
    const model = modelOf(1, (input) => (input < jump ? { output: 0.9 * input, inputPrice: 0.9 } : { output: input + 0.05 * jump, inputPrice: 1 }))
    const gross = 1.02 * jump
    const routed = modelInput(model.router, gross)!
    expect(routed).toBeDefined()
    const at = Number(routed)
    expect(at < jump ? 0.9 * at : at + 0.05 * jump).toBeGreaterThanOrEqual(gross)
    expect(at).toBeLessThan(jump * (1 + 1e-5))
    expect(model.evaluations()).toBeLessThanOrEqual(25)
  })

  it('gives up at once when the output at capacity cannot reach the target', () => {
    // Capacity 1,000 input, where the output (concave, saturating) is below 700: 1,000 is asked.
    const capacity = 1000
    const model = modelOf(1, (input) => (input > capacity ? undefined : { output: 700 * (1 - Math.exp(-input / 300)), inputPrice: (700 / 300) * Math.exp(-input / 300) }))
    expect(modelInput(model.router, 1000)).toBeUndefined()
    expect(model.evaluations()).toBeLessThanOrEqual(8)
  })

  it('finds an input below the capacity when one delivers', () => {
    const capacity = 1000
    const model = modelOf(1, (input) => (input > capacity ? undefined : { output: 700 * (1 - Math.exp(-input / 300)), inputPrice: (700 / 300) * Math.exp(-input / 300) }))
    const routed = modelInput(model.router, 650)!
    const at = Number(routed)
    expect(at).toBeLessThanOrEqual(capacity)
    expect(700 * (1 - Math.exp(-at / 300))).toBeGreaterThanOrEqual(650)
  })

  it('never answers with an input past the capacity', () => {
    // A steep start, then flat: Newton overshoots far past the capacity again and again.
    const capacity = 1e6
    const model = modelOf(1, (input) => (input > capacity ? undefined : { output: Math.min(input, 10) + input * 1e-9, inputPrice: input < 10 ? 1 : 1e-9 }))
    const routed = modelInput(model.router, 20)
    expect(routed === undefined || Number(routed) <= capacity).toBe(true)
    expect(model.evaluations()).toBeLessThanOrEqual(10)
  })
})
