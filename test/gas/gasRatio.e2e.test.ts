// decisions.md §8: gasEstimate is never below the gas a fill uses, and at most 1.3× it, on any
// route weft produces. Random universes of every family (test/gas/gasUniverse.ts), each intent
// quoted through the RPC source and filled from its own transaction; the ratio distribution is
// printed. WEFT_GAS_SEEDS=1,2,3 runs other universes; WEFT_GAS_INTENTS sets intents per universe.
import { writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { type GasFill, describeRatios, runGasUniverse } from './gasUniverse.js'

const seeds = (process.env.WEFT_GAS_SEEDS ?? '101,202').split(',').map(Number)
const intents = Number(process.env.WEFT_GAS_INTENTS ?? 60)
const all: GasFill[] = []

describe('gasUsed ≤ gasEstimate ≤ 1.3 × gasUsed on random universes', () => {
  afterAll(() => {
    console.log(`all universes: ${describeRatios(all)}`)
    // For re-fitting the model (scripts/fitGasModel.py style): WEFT_GAS_DUMP=path writes every fill.
    if (process.env.WEFT_GAS_DUMP) writeFileSync(process.env.WEFT_GAS_DUMP, JSON.stringify(all, null, 1))
  })

  it.each(seeds)('universe %i', async (seed) => {
    let step = ''
    let timer: ReturnType<typeof setTimeout> | undefined
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`universe ${seed} stalled at: ${step}`)), 100_000)
    })
    const result = await Promise.race([runGasUniverse({ seed, intents, onProgress: (s) => (step = s) }), stalled]).finally(() => clearTimeout(timer))
    all.push(...result.fills)
    const outside = result.fills.filter((f) => f.ratio < 1 || f.ratio > 1.3)
    console.log(
      `universe ${seed}: ${describeRatios(result.fills)}; ${result.unquoted} intents unquoted, ${result.reverted.length} reverted; ` +
        `paths up to ${Math.max(...result.fills.map((f) => f.paths))}, hops up to ${Math.max(...result.fills.map((f) => f.longestPath))}, ` +
        `${result.fills.filter((f) => f.nativeFees > 0).length} fills paying fees in ETH; ${(result.ms / 1000).toFixed(1)} s`,
    )
    for (const fill of outside)
      console.log(
        `  outside: ${fill.ratio.toFixed(3)} ${fill.label}: used ${fill.gasUsed}, estimate ${fill.gasEstimate}; ${fill.paths} paths, ` +
          `${fill.youngSwaps} young, ${fill.nativeFees} ETH fees, ${fill.families.join(' ')}`,
      )
    // Exactness is the execution tests' subject; a fill that was not exact is named, its gas still counts.
    for (const fill of result.fills.filter((f) => !f.exact)) console.log(`  not exact: ${fill.label}: ${fill.outcome}`)
    expect(result.reverted).toEqual([])
    expect(result.fills.length).toBeGreaterThan(intents / 2)
    expect(outside.map((f) => `${f.ratio.toFixed(3)} ${f.label}`)).toEqual([])
  }, 120_000)

  it('the universes covered what the model has to price', () => {
    expect(all.some((f) => f.nativeFees > 0)).toBe(true)
    expect(all.some((f) => f.paths >= 11)).toBe(true)
    expect(all.some((f) => f.longestPath >= 3)).toBe(true)
    const families = new Set(all.flatMap((f) => f.families))
    for (const fork of ['UniswapV2', 'UniswapV3', 'PancakeV3', 'UniswapV4', 'BalancerV2', 'AeroDrome']) expect([...families].join(' ')).toContain(fork)
  })
})
