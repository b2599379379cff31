// The public surface, as a visible diff: adding, renaming or removing a runtime
// export of either entry point ('weft' and 'weft/default-snapshot') fails here
// until this list is edited in the same change. Type-only exports have no
// runtime name and are guarded by `tsc` and the API docs instead.
import { describe, expect, test } from 'vitest'
import * as weft from './index.js'
import * as defaultSnapshotEntry from './defaultSnapshot.js'

const runtimeNames = (module: object) => Object.keys(module).sort()

describe('public exports', () => {
  test("'weft' (src/index.ts)", () => {
    expect(runtimeNames(weft)).toEqual([
      'QuoteError',
      'UNISWAP_V2_INIT_CODE_HASH',
      'UNISWAP_V3_FEE_TIERS',
      'UNISWAP_V3_INIT_CODE_HASH',
      'UniswapV2Pool',
      'UniswapV3Pool',
      'arbitrum',
      'base',
      'buildFillCalldata',
      'createRpcSource',
      'createSnapshotSource',
      'defaultChains',
      'defaultFamilies',
      'defineChainConfig',
      'deployExecutor',
      'ethereum',
      'getExecutorAddress',
      'getExecutorDeployData',
      'getQuote',
      'getUniswapV2PairAddress',
      'getUniswapV3PoolAddress',
      'listChains',
      'normalizeIntent',
      'parseQuoteParams',
      'resolveChains',
      'simulateSwap',
      'uniswapV2Family',
      'uniswapV3Family',
      'weftExecutorAbi',
      'weftExecutorBytecode',
    ])
  })

  test("'weft/default-snapshot' (src/defaultSnapshot.ts)", () => {
    expect(runtimeNames(defaultSnapshotEntry)).toEqual(['defaultSnapshot'])
  })

  test('each export is of the kind its name promises', () => {
    const kinds = Object.fromEntries(runtimeNames(weft).map((name) => [name, typeof (weft as Record<string, unknown>)[name]]))
    expect(kinds).toEqual({
      QuoteError: 'function',
      UNISWAP_V2_INIT_CODE_HASH: 'string',
      UNISWAP_V3_FEE_TIERS: 'object',
      UNISWAP_V3_INIT_CODE_HASH: 'string',
      UniswapV2Pool: 'function',
      UniswapV3Pool: 'function',
      arbitrum: 'object',
      base: 'object',
      buildFillCalldata: 'function',
      createRpcSource: 'function',
      createSnapshotSource: 'function',
      defaultChains: 'object',
      defaultFamilies: 'object',
      defineChainConfig: 'function',
      deployExecutor: 'function',
      ethereum: 'object',
      getExecutorAddress: 'function',
      getExecutorDeployData: 'function',
      getQuote: 'function',
      getUniswapV2PairAddress: 'function',
      getUniswapV3PoolAddress: 'function',
      listChains: 'function',
      normalizeIntent: 'function',
      parseQuoteParams: 'function',
      resolveChains: 'function',
      simulateSwap: 'function',
      uniswapV2Family: 'object',
      uniswapV3Family: 'object',
      weftExecutorAbi: 'object',
      weftExecutorBytecode: 'string',
    })
    expect(Array.isArray(defaultSnapshotEntry.defaultSnapshot)).toBe(true)
    expect(defaultSnapshotEntry.defaultSnapshot.map((s) => s.chainId)).toEqual([1, 8453])
  })
})
