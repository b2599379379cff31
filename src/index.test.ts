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
      'AERODROME_SLIPSTREAM_INIT_CODE_HASH',
      'APP_ID_HEADER',
      'BALANCER_V2_VAULT',
      'BalancerV2WeightedPool',
      'PANCAKE_V3_FEE_TIERS',
      'PANCAKE_V3_INIT_CODE_HASH',
      'PANCAKE_V3_POOL_DEPLOYER',
      'QuoteError',
      'RECOMMENDED_GAS_MARGIN_PERCENT',
      'SUSHISWAP_V2_INIT_CODE_HASH',
      'SimulationRevertedError',
      'UNISWAP_V2_INIT_CODE_HASH',
      'UNISWAP_V3_FEE_TIERS',
      'UNISWAP_V3_INIT_CODE_HASH',
      'UNISWAP_V4_FEE_TIERS',
      'UNISWAP_V4_POOL_MANAGER_BASE',
      'UNISWAP_V4_POOL_MANAGER_ETHEREUM',
      'UniswapV2Pool',
      'UniswapV3Pool',
      'UniswapV4Pool',
      'arbitrum',
      'balancerV2Family',
      'base',
      'buildFillCalldata',
      'buildFillCalls',
      'createRpcSource',
      'createSnapshotSource',
      'decodeFillRevert',
      'defaultChains',
      'defaultFamilies',
      'defineChainConfig',
      'deployExecutor',
      'describeFillRevert',
      'ethereum',
      'getBalanceOverride',
      'getBalancerV2PoolAddress',
      'getCloneInitCodeHash',
      'getExecutorAddress',
      'getExecutorDeployData',
      'getQuote',
      'getSlipstreamPoolAddress',
      'getUniswapV2PairAddress',
      'getUniswapV3PoolAddress',
      'getUniswapV4PoolId',
      'getUniswapV4PoolKey',
      'listChains',
      'normalizeIntent',
      'pancakeV3Family',
      'parseQuoteParams',
      'resolveChains',
      'simulateQuote',
      'simulateSwap',
      'slipstreamFamily',
      'uniswapV2Family',
      'uniswapV3Family',
      'uniswapV4Family',
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
      AERODROME_SLIPSTREAM_INIT_CODE_HASH: 'string',
      APP_ID_HEADER: 'string',
      BALANCER_V2_VAULT: 'string',
      BalancerV2WeightedPool: 'function',
      PANCAKE_V3_FEE_TIERS: 'object',
      PANCAKE_V3_INIT_CODE_HASH: 'string',
      PANCAKE_V3_POOL_DEPLOYER: 'string',
      QuoteError: 'function',
      RECOMMENDED_GAS_MARGIN_PERCENT: 'bigint',
      SUSHISWAP_V2_INIT_CODE_HASH: 'string',
      SimulationRevertedError: 'function',
      UNISWAP_V2_INIT_CODE_HASH: 'string',
      UNISWAP_V3_FEE_TIERS: 'object',
      UNISWAP_V3_INIT_CODE_HASH: 'string',
      UNISWAP_V4_FEE_TIERS: 'object',
      UNISWAP_V4_POOL_MANAGER_BASE: 'string',
      UNISWAP_V4_POOL_MANAGER_ETHEREUM: 'string',
      UniswapV2Pool: 'function',
      UniswapV3Pool: 'function',
      UniswapV4Pool: 'function',
      arbitrum: 'object',
      balancerV2Family: 'object',
      base: 'object',
      buildFillCalldata: 'function',
      buildFillCalls: 'function',
      createRpcSource: 'function',
      createSnapshotSource: 'function',
      decodeFillRevert: 'function',
      defaultChains: 'object',
      defaultFamilies: 'object',
      defineChainConfig: 'function',
      deployExecutor: 'function',
      describeFillRevert: 'function',
      ethereum: 'object',
      getBalanceOverride: 'function',
      getBalancerV2PoolAddress: 'function',
      getCloneInitCodeHash: 'function',
      getExecutorAddress: 'function',
      getExecutorDeployData: 'function',
      getQuote: 'function',
      getSlipstreamPoolAddress: 'function',
      getUniswapV2PairAddress: 'function',
      getUniswapV3PoolAddress: 'function',
      getUniswapV4PoolId: 'function',
      getUniswapV4PoolKey: 'function',
      listChains: 'function',
      normalizeIntent: 'function',
      pancakeV3Family: 'object',
      parseQuoteParams: 'function',
      resolveChains: 'function',
      simulateQuote: 'function',
      simulateSwap: 'function',
      slipstreamFamily: 'object',
      uniswapV2Family: 'object',
      uniswapV3Family: 'object',
      uniswapV4Family: 'object',
      weftExecutorAbi: 'object',
      weftExecutorBytecode: 'string',
    })
    expect(Array.isArray(defaultSnapshotEntry.defaultSnapshot)).toBe(true)
    expect(defaultSnapshotEntry.defaultSnapshot.map((s) => s.chainId)).toEqual([1, 8453])
  })
})
