import type { Hex } from 'viem'

/**
 * Big-endian fixed-width fields read one after another from a hex string: how
 * the pool lenses (UniswapV3Lens, UniswapV4Lens) pack their records. Throws a
 * plain `Error` naming `lens` when a field runs past the end (a truncated result).
 *
 * @example
 * const reader = new PackedReader(packed, 'UniswapV3Lens')
 * const liquidity = reader.uint(16)
 * const tick = Number(reader.int(3))
 * if (!reader.done()) throw new Error('UniswapV3Lens returned more records than it was asked for')
 */
export class PackedReader {
  private position = 2 // past `0x`
  constructor(
    private readonly hex: Hex,
    private readonly lens: string,
  ) {}

  /** The next `bytes` bytes as an unsigned integer. */
  uint(bytes: number): bigint {
    const end = this.position + 2 * bytes
    if (end > this.hex.length) throw new Error(`${this.lens} returned a truncated result`)
    const value = BigInt(`0x${this.hex.slice(this.position, end)}`)
    this.position = end
    return value
  }

  /** The next `bytes` bytes as a two's-complement signed integer. */
  int(bytes: number): bigint {
    return BigInt.asIntN(8 * bytes, this.uint(bytes))
  }

  /** Whether every field has been read. */
  done(): boolean {
    return this.position === this.hex.length
  }
}
