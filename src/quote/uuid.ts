import { type Hex, bytesToHex } from 'viem'
import { hostError } from '../errors/QuoteError.js'

/** Random bytes; the default uses the platform's `crypto.getRandomValues` (browsers and Node). */
export type RandomBytes = (length: number) => Uint8Array

const defaultRandomBytes: RandomBytes = (length) => globalThis.crypto.getRandomValues(new Uint8Array(length))

/**
 * A UUID version 7 (RFC 9562): 48-bit Unix milliseconds, version 7, 74 random bits.
 *
 * @example
 * createUuidV7() // '019a749b-7bae-7182-a36d-338e88b6b812'
 */
export function createUuidV7(now: number = Date.now(), randomBytes: RandomBytes = defaultRandomBytes): string {
  const random = randomBytes(16)
  if (!(random instanceof Uint8Array) || random.length < 16) throw hostError('Invalid getQuote option randomBytes: must return 16 bytes')
  const bytes = random.slice(0, 16)
  const ms = BigInt(Math.max(0, Math.floor(now)))
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = 0x70 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = bytesToHex(bytes).slice(2)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a string is a UUID in canonical form. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value)
}

/** The 16 bytes of a UUID, as the executor's `bytes16` order id. */
export function uuidToBytes16(uuid: string): Hex {
  return `0x${uuid.replace(/-/g, '').toLowerCase()}` as Hex
}
