// The numbers TypeScript and Solidity must agree on, read from both sides instead of kept equal by
// hand: each pool family's `executorKind` against the `KIND_*` constants of ExecutorBase.sol, and
// every family's Step.param, as its `buildStep` encodes it on the embedded snapshot's pools, against
// the bit layout its step contract decodes (shifts, masks and flags parsed from contracts/steps).
// A change on either side that the other does not follow fails here, without a chain.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Address, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { defaultSnapshot } from '../src/defaultSnapshot.js'
import { type PoolFamily, type PoolStateBase, defaultChains, defaultFamilies } from '../src/index.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../src/protocols/uniswapV3/tickMath.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const solidity = (file: string) => readFileSync(join(root, 'contracts', file), 'utf8')

/** The first capture of `pattern` in `source`, as a number; throws naming what was not found. */
function capture(source: string, pattern: RegExp, what: string): number {
  const match = pattern.exec(source)
  if (!match?.[1]) throw new Error(`contracts: ${what} not found (${pattern})`)
  return Number(match[1])
}

/** `KIND_UNISWAP_V2 = 1` ... of ExecutorBase.sol. */
function solidityKinds(): Map<string, number> {
  const kinds = new Map<string, number>()
  for (const [, name, value] of solidity('steps/ExecutorBase.sol').matchAll(/uint8 internal constant KIND_(\w+) = (\d+);/g)) kinds.set(name!, Number(value))
  return kinds
}

/** `uniswapV2` -> `UNISWAP_V2`, `aerodromeV2` -> `AERODROME_V2`, `slipstream` -> `SLIPSTREAM`. */
const kindName = (familyId: string) => familyId.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()

/** Every PoolFamily exported by a `src/protocols/<name>/family.ts`, in the default set or not. */
async function allFamilies(): Promise<PoolFamily[]> {
  const found: PoolFamily[] = []
  for (const folder of readdirSync(join(root, 'src/protocols'), { withFileTypes: true })) {
    if (!folder.isDirectory()) continue
    const file = join(root, 'src/protocols', folder.name, 'family.ts')
    if (!existsSync(file)) continue
    const module = (await import(file)) as Record<string, unknown>
    for (const value of Object.values(module)) {
      if (value && typeof value === 'object' && 'executorKind' in value && 'id' in value) found.push(value as PoolFamily)
    }
  }
  return found
}

describe('executor kinds', () => {
  it('gives each pool family the KIND_ constant of its name, one family per kind', async () => {
    const kinds = solidityKinds()
    expect(kinds.size).toBeGreaterThanOrEqual(6)
    expect(new Set(kinds.values()).size).toBe(kinds.size)
    const families = await allFamilies()
    for (const family of defaultFamilies) expect(families.map((f) => f.id)).toContain(family.id)
    expect(Object.fromEntries(families.map((f) => [kindName(f.id), f.executorKind]))).toEqual(Object.fromEntries(kinds))
  })

  it('dispatches every kind in WeftExecutor.sol', () => {
    const executor = solidity('WeftExecutor.sol')
    for (const name of solidityKinds().keys()) expect(executor).toMatch(new RegExp(`if \\(kind == KIND_${name}\\) return _swap\\w+\\(`))
  })
})

/** Step.param layouts as the step contracts decode them. */
function solidityLayouts() {
  const v2 = solidity('steps/UniswapV2Step.sol')
  const v3 = solidity('steps/UniswapV3Step.sol')
  const v4 = solidity('steps/UniswapV4Step.sol')
  const bit = (name: string) => 1n << BigInt(capture(v4, new RegExp(`${name} = 1 << (\\d+);`), name))
  const unused = /PARAM_UNUSED = (0x[0-9a-f]+) << (\d+);/.exec(v4)
  if (!unused) throw new Error('contracts: UniswapV4Step PARAM_UNUSED not found')
  // PancakeV3 and Slipstream swap through the Uniswap V3 step, so they share its layout.
  for (const file of ['steps/PancakeV3Step.sol', 'steps/SlipstreamStep.sol']) expect(solidity(file)).toMatch(/return _swapUniswapV3\(dex, step, amountIn\);/)
  return {
    v2: { usedBits: BigInt(capture(v2, /step\.param >> (\d+) != 0\) revert InvalidStep/, 'UniswapV2Step used bits')) },
    v3: {
      usedBits: BigInt(capture(v3, /step\.param >> (\d+) != 0/, 'UniswapV3Step used bits')),
      lowBits: BigInt(capture(v3, /uint(\d+) fee = uint\d+\(step\.param\)/, 'UniswapV3Step fee width')),
      limitShift: BigInt(capture(v3, /limit = uint160\(param >> (\d+)\)/, 'UniswapV3Step limit shift')),
    },
    v4: {
      usedBits: BigInt(capture(v4, /param >> (\d+) != 0 \|\| param & PARAM_UNUSED/, 'UniswapV4Step used bits')),
      feeBits: BigInt(capture(v4, /uint256 fee = uint(\d+)\(param\)/, 'UniswapV4Step fee width')),
      tickSpacingShift: BigInt(capture(v4, /int24\(uint24\(param >> (\d+)\)\)/, 'UniswapV4Step tick spacing shift')),
      limitShift: BigInt(capture(v4, /limit = uint160\(param >> (\d+)\)/, 'UniswapV4Step limit shift')),
      nativeIn: bit('PARAM_NATIVE_IN'),
      nativeOut: bit('PARAM_NATIVE_OUT'),
      unused: BigInt(unused[1]!) << BigInt(unused[2]!),
    },
    balancer: { wholeWordIsPoolId: /bytes32\(step\.param\)/.test(solidity('steps/BalancerV2Step.sol')) },
  }
}

const mask = (bits: bigint) => (1n << bits) - 1n
/** A price limit the V3/V4 steps accept: 0 (none) or strictly inside the sqrt price range. */
const isPriceLimit = (limit: bigint) => limit === 0n || (limit > MIN_SQRT_RATIO && limit < MAX_SQRT_RATIO)

type SnapshotPool = PoolStateBase & Record<string, unknown>

describe('Step.param layouts', () => {
  const layout = solidityLayouts()
  const built: { family: string; state: SnapshotPool; wrappedNative: Address; steps: { tokenIn: Address; tokenOut: Address; param: bigint }[] }[] = []
  for (const snapshot of defaultSnapshot) {
    const chain = defaultChains.find((c) => c.id === snapshot.chainId)!
    for (const state of snapshot.pools as unknown as SnapshotPool[]) {
      const family = defaultFamilies.find((f) => f.id === state.family)!
      const dexIndex = chain.dexes.findIndex((d) => d.id === state.dex && d.family === state.family)
      const pool = family.fromState(state, { chain, dex: chain.dexes[dexIndex]!, dexIndex })
      const steps = []
      for (const tokenIn of pool.tokens) for (const tokenOut of pool.tokens) if (tokenIn !== tokenOut) steps.push(pool.buildStep(tokenIn, tokenOut))
      built.push({ family: state.family, state, wrappedNative: chain.wrappedNative.address, steps })
    }
  }
  const of = (family: string) => built.filter((b) => b.family === family)

  it('covers every default family on the embedded snapshot', () => {
    expect(new Set(built.map((b) => b.family))).toEqual(new Set(defaultFamilies.map((f) => f.id)))
  })

  it('uniswapV2: only bit 0, set when tokenOut charges a transfer fee', () => {
    for (const { steps } of of('uniswapV2')) for (const step of steps) expect(step.param).toBe(0n)
    const snapshot = defaultSnapshot.find((s) => s.pools.some((p) => p.family === 'uniswapV2'))!
    const chain = defaultChains.find((c) => c.id === snapshot.chainId)!
    const state = snapshot.pools.find((p) => p.family === 'uniswapV2') as unknown as SnapshotPool
    const dexIndex = chain.dexes.findIndex((d) => d.id === state.dex)
    const family = defaultFamilies.find((f) => f.id === 'uniswapV2')!
    const taxed = state.token1 as Address
    const pool = family.fromState(state, { chain, dex: chain.dexes[dexIndex]!, dexIndex, transferFeeBps: (token) => (token === taxed ? 100 : 0) })
    const step = pool.buildStep(state.token0 as Address, taxed)
    expect(step.param >> layout.v2.usedBits).toBe(0n)
    expect(step.param & 1n).toBe(1n)
  })

  it.each([
    ['uniswapV3', 'fee'],
    ['pancakeV3', 'fee'],
    ['slipstream', 'tickSpacing'],
  ])('%s: %s in the low bits, a price limit above them, nothing past the used bits', (family, lowField) => {
    expect(layout.v3.lowBits).toBe(layout.v3.limitShift)
    expect(of(family).length).toBeGreaterThan(0)
    for (const { state, steps } of of(family))
      for (const step of steps) {
        expect(step.param >> layout.v3.usedBits).toBe(0n)
        expect(step.param & mask(layout.v3.lowBits)).toBe(BigInt(state[lowField] as number))
        expect(isPriceLimit(step.param >> layout.v3.limitShift)).toBe(true)
      }
    // The snapshot's pools know a bounded tick range, so their steps carry a limit: the shift is exercised.
    expect(of(family).some(({ steps }) => steps.some((s) => s.param >> layout.v3.limitShift !== 0n))).toBe(true)
  })

  it('uniswapV4: fee, tick spacing, native flags and price limit where the step reads them', () => {
    const { v4 } = layout
    expect(of('uniswapV4').length).toBeGreaterThan(0)
    let nativePools = 0
    for (const { state, steps, wrappedNative } of of('uniswapV4')) {
      const native = state.currency0 === zeroAddress
      if (native) nativePools++
      // The router names a native currency0 by the wrapped token.
      const currency0 = native ? wrappedNative : (state.currency0 as Address)
      for (const step of steps) {
        const sellsCurrency0 = step.tokenIn.toLowerCase() === currency0.toLowerCase()
        expect(step.param >> v4.usedBits).toBe(0n)
        expect(step.param & v4.unused).toBe(0n)
        expect(step.param & mask(v4.feeBits)).toBe(BigInt(state.fee as number))
        expect((step.param >> v4.tickSpacingShift) & mask(24n)).toBe(BigInt(state.tickSpacing as number))
        expect(isPriceLimit(step.param >> v4.limitShift)).toBe(true)
        // Native is currency0: the input when selling it, else the output.
        expect(step.param & v4.nativeIn).toBe(native && sellsCurrency0 ? v4.nativeIn : 0n)
        expect(step.param & v4.nativeOut).toBe(native && !sellsCurrency0 ? v4.nativeOut : 0n)
      }
    }
    expect(nativePools).toBeGreaterThan(0)
  })

  it('balancerV2: the whole word is the pool id', () => {
    expect(layout.balancer.wholeWordIsPoolId).toBe(true)
    expect(of('balancerV2').length).toBeGreaterThan(0)
    for (const { state, steps } of of('balancerV2')) for (const step of steps) expect(step.param).toBe(BigInt(state.poolId as string))
  })
})
