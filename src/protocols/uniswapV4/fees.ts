import { UniswapV4RevertError } from './revertError.js'

/**
 * The fee of a pool whose hook sets it on every swap (LPFeeLibrary.DYNAMIC_FEE_FLAG).
 * weft does not price such pools: their fee is not in their state.
 * @example isDynamicFee(0x800000) // true
 */
export const DYNAMIC_FEE_FLAG = 0x800000

/**
 * The largest LP fee, 100% in hundredths of a bip (LPFeeLibrary.MAX_LP_FEE);
 * also the largest total swap fee (SwapMath.MAX_SWAP_FEE).
 * @example getSwapFee(0, MAX_LP_FEE, true) // 1_000_000
 */
export const MAX_LP_FEE = 1_000_000

/**
 * The largest protocol fee per direction, 0.1% (ProtocolFeeLibrary.MAX_PROTOCOL_FEE).
 * @example assertProtocolFee((MAX_PROTOCOL_FEE << 12) | MAX_PROTOCOL_FEE) // ok
 */
export const MAX_PROTOCOL_FEE = 1000

/**
 * Whether a pool key's fee is the dynamic-fee flag.
 * @example isDynamicFee(3000) // false
 */
export function isDynamicFee(fee: number): boolean {
  return fee === DYNAMIC_FEE_FLAG
}

/**
 * The protocol fee of one direction from slot0's packed 24-bit value: the low
 * 12 bits for zeroForOne swaps, the high 12 for oneForZero
 * (ProtocolFeeLibrary.getZeroForOneFee / getOneForZeroFee).
 *
 * @example
 * getDirectionalProtocolFee((500 << 12) | 250, true) // 250
 */
export function getDirectionalProtocolFee(protocolFee: number, zeroForOne: boolean): number {
  return zeroForOne ? protocolFee & 0xfff : (protocolFee >> 12) & 0xfff
}

/**
 * The total fee a swap pays, in hundredths of a bip, as Pool.swap composes it:
 * the LP fee when the direction's protocol fee is 0, otherwise
 * `protocolFee + lpFee - floor(protocolFee * lpFee / 1e6)`
 * (ProtocolFeeLibrary.calculateSwapFee: the protocol fee is taken from the
 * input first, the LP fee from the rest).
 *
 * @param protocolFee - slot0's packed protocol fee (both directions)
 * @param lpFee - slot0's LP fee
 * @param zeroForOne - the swap's direction
 * @example
 * getSwapFee((1000 << 12) | 1000, 3000, true) // 3997
 */
export function getSwapFee(protocolFee: number, lpFee: number, zeroForOne: boolean): number {
  const directional = getDirectionalProtocolFee(protocolFee, zeroForOne)
  if (directional === 0) return lpFee
  return directional + lpFee - Math.floor((directional * lpFee) / 1_000_000)
}

/**
 * Throws where the PoolManager could never hold the value: a packed protocol
 * fee with a direction above {@link MAX_PROTOCOL_FEE} or bits past 24.
 *
 * @throws UniswapV4RevertError `'ProtocolFeeTooLarge'`
 * @example assertProtocolFee(1001) // throws
 */
export function assertProtocolFee(protocolFee: number): void {
  if (
    !Number.isInteger(protocolFee) ||
    protocolFee < 0 ||
    protocolFee > 0xffffff ||
    (protocolFee & 0xfff) > MAX_PROTOCOL_FEE ||
    protocolFee >> 12 > MAX_PROTOCOL_FEE
  ) {
    throw new UniswapV4RevertError('ProtocolFeeTooLarge')
  }
}
