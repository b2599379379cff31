import { aerodromeV2Family } from './aerodromeV2/family.js'
import { balancerV2Family } from './balancerV2/family.js'
import { pancakeV3Family } from './pancakeV3/family.js'
import { slipstreamFamily } from './slipstream/family.js'
import type { PoolFamily } from './types.js'
import { uniswapV2Family } from './uniswapV2/family.js'
import { uniswapV3Family } from './uniswapV3/family.js'
import { uniswapV4Family } from './uniswapV4/family.js'

/**
 * The pool families weft routes over by default. Pass your own list to `getQuote` to add or remove one.
 *
 * @example
 * const quote = await getQuote(intent, source, { families: defaultFamilies.filter((f) => f.id !== 'uniswapV2') })
 */
export const defaultFamilies: readonly PoolFamily[] = [uniswapV2Family, uniswapV3Family, balancerV2Family, pancakeV3Family, slipstreamFamily, uniswapV4Family, aerodromeV2Family] as readonly PoolFamily[]
