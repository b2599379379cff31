import { describe, expect, it } from 'vitest'
import { createUuidV7, isUuid, uuidToBytes16 } from './uuid.js'

describe('createUuidV7', () => {
  it('encodes the millisecond timestamp, version 7 and the RFC variant', () => {
    const id = createUuidV7(0x019a749b7bae, () => new Uint8Array(16).fill(0xff))
    expect(id).toBe('019a749b-7bae-7fff-bfff-ffffffffffff')
    expect(isUuid(id)).toBe(true)
  })
  it('is time-ordered and random within a millisecond', () => {
    const a = createUuidV7(1_000)
    const b = createUuidV7(1_000)
    const c = createUuidV7(1_001)
    expect(a).not.toBe(b)
    expect(a.slice(0, 13) < c.slice(0, 13)).toBe(true)
  })
  it('gives the 16 bytes the executor emits', () => {
    expect(uuidToBytes16('019a749b-7bae-7182-a36d-338e88b6b812')).toBe('0x019a749b7bae7182a36d338e88b6b812')
  })
})
