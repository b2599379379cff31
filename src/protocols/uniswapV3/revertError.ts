import { QuoteError } from '../../errors/QuoteError.js'

/**
 * Thrown by the V3 math where the Solidity contract would revert: a failed
 * `require`, a checked overflow, a division by zero. `reason` is the
 * contract's revert string when it has one (`'SPL'`, `'LS'`, `'T'`, ...) and a
 * short description otherwise. Pool adapters turn it into "cannot fill". A
 * QuoteError (422) like every error weft throws.
 *
 * @example
 * try { mulDiv(2n ** 255n, 4n, 1n) } catch (e) {
 *   if (e instanceof UniswapV3RevertError) console.log(e.reason) // 'mulDiv overflow'
 * }
 */
export class UniswapV3RevertError extends QuoteError {
  override readonly name: string = 'UniswapV3RevertError'
  /** The contract's revert string, or a short description of the failed check. */
  readonly reason: string

  constructor(reason: string) {
    // 422: a well-formed swap the pool cannot do (the contract would revert).
    super({ statusCode: 422, message: `Uniswap V3 math reverts: ${reason}` })
    this.reason = reason
  }
}
