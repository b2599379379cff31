import type { PoolFamily } from './types.js'
import { uniswapV2Family } from './uniswapV2/family.js'
import { uniswapV3Family } from './uniswapV3/family.js'

/** The pool families weft routes over by default. Pass your own list to `getQuote` to add or remove one. */
export const defaultFamilies: readonly PoolFamily[] = [uniswapV2Family, uniswapV3Family] as readonly PoolFamily[]
