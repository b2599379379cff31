import type { FillRevert } from '../wallet/decodeFillRevert.js'
import { describeFillRevert } from '../wallet/decodeFillRevert.js'
import { QuoteError } from './QuoteError.js'

/**
 * Thrown by `simulateQuote` when the simulated approval or fill reverts: a QuoteError (422: the
 * quote is well-formed but this sender cannot fill it on this state) carrying which call reverted
 * and its decoded error.
 *
 * @example
 * try { await simulateQuote({ client, quote, sender }) } catch (e) {
 *   if (e instanceof SimulationRevertedError) console.log(e.call, e.revert.errorName, e.revert.args)
 * }
 */
export class SimulationRevertedError extends QuoteError {
  override readonly name: string = 'SimulationRevertedError'
  /** Which simulated call reverted. */
  readonly call: 'approval' | 'fill'
  /** Its revert, decoded. */
  readonly revert: FillRevert

  constructor(call: 'approval' | 'fill', revert: FillRevert) {
    super({ statusCode: 422, message: `The simulated ${call} reverts: ${describeFillRevert(revert)}` })
    this.call = call
    this.revert = revert
  }
}
