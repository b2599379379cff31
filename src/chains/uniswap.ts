import type { Hex } from 'viem'

/**
 * keccak256 of UniswapV2Pair's creation code (the same on every chain Uniswap deployed V2 to).
 *
 * @example
 * getUniswapV2PairAddress({ factory, initCodeHash: UNISWAP_V2_INIT_CODE_HASH }, weth, usdc)
 */
export const UNISWAP_V2_INIT_CODE_HASH: Hex = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'

/**
 * keccak256 of UniswapV3Pool's creation code.
 *
 * @example
 * getUniswapV3PoolAddress({ factory, initCodeHash: UNISWAP_V3_INIT_CODE_HASH }, weth, usdc, 500)
 */
export const UNISWAP_V3_INIT_CODE_HASH: Hex = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'

/**
 * Uniswap V3 fee tiers enabled by the factory, to their tick spacing.
 *
 * @example
 * const dex = { id: 'uniswapV3', family: 'uniswapV3', protocol: 'Uniswap V3', fork: 'UniswapV3', factory, initCodeHash: UNISWAP_V3_INIT_CODE_HASH, feeTiers: { ...UNISWAP_V3_FEE_TIERS } }
 */
export const UNISWAP_V3_FEE_TIERS: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }
