import { type Hex, hexToBytes, isHex } from 'viem'

/** Longest symbol weft passes on, in code points (a truncated one ends in `…`). */
export const MAX_TOKEN_SYMBOL_LENGTH = 32

/** Bytes decoded at most: a 10 kB symbol is never decoded whole, only its head. */
const MAX_DECODED_BYTES = 256

/**
 * Terminal escape sequences: CSI (`ESC [ … final`, which moves the cursor or
 * erases a line), OSC (`ESC ] … BEL` or `ESC ] … ESC \`, which sets a title or
 * a hyperlink) and any other two-byte `ESC x`. Removed whole, so no
 * `[2K` debris is left behind once the ESC itself is gone.
 */
const escapeSequences = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g

/**
 * Everything that is not a visible character: control characters (C0, DEL,
 * C1), format characters (bidi overrides that reorder text, zero-width joiners,
 * the BOM), unpaired surrogates, private-use characters, line and paragraph
 * separators.
 */
const invisible = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/gu

/**
 * Makes a token symbol read from a chain safe to print, log and serve: terminal
 * escape sequences and invisible characters removed, runs of spaces collapsed,
 * at most {@link MAX_TOKEN_SYMBOL_LENGTH} code points. A symbol is whatever the
 * token's deployer wrote; this is applied where weft reads it, so the CLI, the
 * wallet page and a server's JSON never carry the raw value.
 *
 * @example
 * sanitizeTokenSymbol('\u001b[2K\rUSDC') // 'USDC'
 * sanitizeTokenSymbol('W\u202eHTE') // 'WHTE' (no right-to-left override)
 * sanitizeTokenSymbol('A'.repeat(10_000)).length // 32
 */
export function sanitizeTokenSymbol(symbol: string): string {
  const cleaned = symbol
    .slice(0, MAX_DECODED_BYTES * 2)
    .replace(escapeSequences, '')
    .replace(invisible, '')
    // Invalid UTF-8 stays visible as one U+FFFD per run, so `W\xffETH` does not pass for `WETH`.
    .replace(/\uFFFD+/g, '\uFFFD')
    .replace(/\s+/g, ' ')
    .trim()
  const codePoints = [...cleaned]
  if (codePoints.length <= MAX_TOKEN_SYMBOL_LENGTH) return cleaned
  return `${codePoints.slice(0, MAX_TOKEN_SYMBOL_LENGTH - 1).join('').trimEnd()}…`
}

const utf8 = new TextDecoder('utf-8', { fatal: false })

/**
 * A symbol from the raw bytes a token returned: a `string` return (its bytes
 * as the ABI `bytes` decoding gives them) or a `bytes32` return (old tokens
 * such as MKR; NUL-padded). Invalid UTF-8 decodes to U+FFFD (one per run), the
 * rest goes through {@link sanitizeTokenSymbol}.
 *
 * @example
 * tokenSymbolFromBytes('0x4d4b520000000000000000000000000000000000000000000000000000000000') // 'MKR'
 * tokenSymbolFromBytes('0x55534443ff') // 'USDC\uFFFD'
 */
export function tokenSymbolFromBytes(bytes: Hex | Uint8Array): string {
  if (typeof bytes === 'string' && !isHex(bytes)) return ''
  const raw = typeof bytes === 'string' ? hexToBytes(bytes) : bytes
  const head = raw.subarray(0, MAX_DECODED_BYTES)
  const end = head.indexOf(0)
  return sanitizeTokenSymbol(utf8.decode(end < 0 ? head : head.subarray(0, end)))
}
