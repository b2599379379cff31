/** Options of {@link createScratchArrays}. */
export type ScratchArraysParameters = {
  /** Slots kept (each a Float64Array and an Int32Array). */
  slots: number
  /** Longest array a slot keeps; a longer request gets a fresh array, never kept. */
  maxLength: number
}

/** Typed arrays a synchronous computation borrows for its working values instead of allocating them. */
export type ScratchArrays = {
  /** A Float64Array of at least `length` elements, with whatever the slot's last user left in it. */
  float(slot: number, length: number): Float64Array
  /** An Int32Array of at least `length` elements, with whatever the slot's last user left in it. */
  int(slot: number, length: number): Int32Array
  /** Elements the slots hold now (at most slots × maxLength of each kind). */
  readonly retained: number
}

/**
 * Per-slot typed arrays lent out again and again: a numeric routine called many times per quote
 * (the split solver) borrows its working arrays here instead of allocating fresh ones on every
 * call, which kept a small quote's young generation filling (each typed array is two heap
 * objects, and its backing store is swept at every scavenge). A slot's array grows to the longest
 * request up to `maxLength`; longer requests get a fresh array that is not kept, so what stays
 * alive is bounded. The contents are not cleared: a borrower writes before it reads. Only for
 * code that returns before anything else borrows the same slot (no re-entry, nothing kept).
 *
 * @example
 * const scratch = createScratchArrays({ slots: 2, maxLength: 1024 })
 * const work = scratch.float(0, 16) // at least 16 elements, reused by the next float(0, …)
 * work.fill(0, 0, 16)
 */
export function createScratchArrays({ slots, maxLength }: ScratchArraysParameters): ScratchArrays {
  const floats: Float64Array[] = Array.from({ length: slots }, () => new Float64Array(0))
  const ints: Int32Array[] = Array.from({ length: slots }, () => new Int32Array(0))
  // Grown to twice the request (up to maxLength), so a sequence of slowly growing requests
  // reallocates a few times, not on every call.
  const grown = (length: number) => Math.min(maxLength, 2 * length)
  return {
    float(slot, length) {
      if (length > maxLength) return new Float64Array(length)
      if (floats[slot]!.length < length) floats[slot] = new Float64Array(grown(length))
      return floats[slot]!
    },
    int(slot, length) {
      if (length > maxLength) return new Int32Array(length)
      if (ints[slot]!.length < length) ints[slot] = new Int32Array(grown(length))
      return ints[slot]!
    },
    get retained() {
      let total = 0
      for (const array of floats) total += array.length
      for (const array of ints) total += array.length
      return total
    },
  }
}
