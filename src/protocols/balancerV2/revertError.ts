import { QuoteError } from '../../errors/QuoteError.js'

/**
 * Balancer's error codes (BalancerErrors.sol) for the checks weft's weighted math repeats. The
 * contracts revert with `BAL#<code>`.
 * @example BAL.MAX_IN_RATIO // 304: the Vault answers `BAL#304`
 */
export const BAL = {
  ADD_OVERFLOW: 0,
  SUB_OVERFLOW: 1,
  MUL_OVERFLOW: 3,
  ZERO_DIVISION: 4,
  DIV_INTERNAL: 5,
  X_OUT_OF_BOUNDS: 6,
  Y_OUT_OF_BOUNDS: 7,
  PRODUCT_OUT_OF_BOUNDS: 8,
  INVALID_EXPONENT: 9,
  MAX_IN_RATIO: 304,
  MAX_OUT_RATIO: 305,
} as const

/**
 * Thrown by the Balancer V2 math where the contract would revert (`_require` failing with
 * `BAL#<code>`). Pool adapters turn it into "cannot fill". A QuoteError (422) like every error
 * weft throws.
 *
 * @example
 * try { calcOutGivenIn(10n ** 18n, 5n * 10n ** 17n, 10n ** 18n, 5n * 10n ** 17n, 10n ** 18n) } catch (e) {
 *   if (e instanceof BalancerV2RevertError) console.log(e.balCode) // 304 (MAX_IN_RATIO)
 * }
 */
export class BalancerV2RevertError extends QuoteError {
  override readonly name: string = 'BalancerV2RevertError'
  /** The Balancer error code the contract reverts with (`BAL#<balCode>`). */
  readonly balCode: number

  constructor(balCode: number) {
    // 422: a well-formed swap the pool cannot do (the contract would revert).
    super({ statusCode: 422, message: `Balancer V2 math reverts: BAL#${String(balCode).padStart(3, '0')}` })
    this.balCode = balCode
  }
}

/**
 * Throws BAL#`code` unless `condition` holds: Balancer's `_require`.
 * @example balRequire(b <= a, BAL.SUB_OVERFLOW)
 */
export function balRequire(condition: boolean, code: number): asserts condition {
  if (!condition) throw new BalancerV2RevertError(code)
}
