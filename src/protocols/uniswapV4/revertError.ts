import { QuoteError } from '../../errors/QuoteError.js'

/**
 * Thrown by the V4 math where the PoolManager would revert (v4-core's custom
 * errors: `PriceLimitAlreadyExceeded`, `PriceLimitOutOfBounds`,
 * `InvalidFeeForExactOut`, `SafeCastOverflow`, ...). Pool adapters turn it into
 * "cannot fill". A QuoteError (422) like every error weft throws.
 *
 * @example
 * try { simulateSwap(pool, true, -(10n ** 18n), pool.sqrtPriceX96) } catch (e) {
 *   if (e instanceof UniswapV4RevertError) console.log(e.reason) // 'PriceLimitAlreadyExceeded'
 * }
 */
export class UniswapV4RevertError extends QuoteError {
  override readonly name: string = 'UniswapV4RevertError'
  /** The contract's custom error name, or a short description of the failed check. */
  readonly reason: string

  constructor(reason: string) {
    super({ statusCode: 422, message: `Uniswap V4 math reverts: ${reason}` })
    this.reason = reason
  }
}
