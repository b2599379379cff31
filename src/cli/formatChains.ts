import type { ListChainsReturnType } from '../chains/listChains.js'
import { getChainSlug } from './chainNames.js'

/**
 * The chains of `listChains()` as a text table: id, name, and the value
 * `--chain` takes. No trailing newline.
 *
 * @example
 * formatChains(listChains())
 * // id    name      --chain
 * // 1     Ethereum  ethereum
 * // 8453  Base      base
 */
export function formatChains({ chains }: ListChainsReturnType): string {
  const rows = [['id', 'name', '--chain'], ...chains.map((c) => [String(c.id), c.name, getChainSlug(c)])]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n')
}
