import type { LiveFamily } from './liveFamily.js'
import { uniswapV2LiveFamily } from './families/uniswapV2.js'
import { uniswapV3LiveFamily } from './families/uniswapV3.js'
import { pancakeV3LiveFamily } from './families/pancakeV3.js'
import { slipstreamLiveFamily } from './families/slipstream.js'
import { aerodromeV2LiveFamily } from './families/aerodromeV2.js'
import { uniswapV4LiveFamily } from './families/uniswapV4.js'
import { balancerV2LiveFamily } from './families/balancerV2.js'

/**
 * The families the live source follows by default. A dex of `ChainConfig.dexes` whose family has
 * no live family here is not discovered (listed in `stats().unfollowedDexes`).
 *
 * @example
 * createLiveSource({ client, chain, fromBlock: 0n, liveFamilies: defaultLiveFamilies })
 */
export const defaultLiveFamilies: readonly LiveFamily[] = [
  uniswapV2LiveFamily,
  uniswapV3LiveFamily,
  pancakeV3LiveFamily,
  slipstreamLiveFamily,
  aerodromeV2LiveFamily,
  uniswapV4LiveFamily,
  balancerV2LiveFamily,
]
