import { BaseError, toFunctionSelector } from 'viem'

/**
 * The pool lenses' (contracts/lens UniswapV3Lens, UniswapV4Lens) refusals of a query that was too
 * big for one call rather than wrong: its packed answer would pass the 24,576 bytes a creation may
 * return, or the call's gas ran low before every pool was read. Fewer pools per call do fit.
 */
const OVERFLOW_SELECTORS = [toFunctionSelector('ResultTooLarge(uint256)'), toFunctionSelector('GasBudgetExhausted()')]

/** The revert data an error carries (viem keeps the node's `data` on some error in its cause chain). */
function revertData(error: unknown): string | undefined {
  const { data } = (error ?? {}) as { data?: unknown }
  if (typeof data === 'string') return data
  if (data && typeof data === 'object' && typeof (data as { data?: unknown }).data === 'string') return (data as { data: string }).data
  return undefined
}

/**
 * Whether a lens call failed because its chunk of pools was too big for one call (ResultTooLarge,
 * GasBudgetExhausted), so the chunk read in halves succeeds; any other failure (a node fault, a
 * malformed query) is not.
 *
 * @example
 * try { await readChunk(chunk) } catch (error) { if (isLensOverflow(error) && chunk.length > 1) await readHalves(chunk) else throw error }
 */
export function isLensOverflow(error: unknown): boolean {
  const matches = (e: unknown) => {
    const data = revertData(e)?.toLowerCase()
    return data !== undefined && OVERFLOW_SELECTORS.some((selector) => data.startsWith(selector))
  }
  return error instanceof BaseError ? error.walk(matches) !== null : matches(error)
}
