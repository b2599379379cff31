/** A Uniswap V3 position as v3-core's tests mint it. */
export type Position = { tickLower: number; tickUpper: number; liquidity: bigint }

/**
 * What minting `positions` leaves in a pool whose price sits at `tick`: each initialized tick's net
 * liquidity (ascending, ticks whose nets cancel included, as the contract keeps them initialized
 * while a position references them) and the liquidity active at `tick`.
 *
 * @example
 * const { ticks, liquidity } = mintedLiquidity([{ tickLower: -60, tickUpper: 60, liquidity: 10n ** 18n }], 0)
 */
export function mintedLiquidity(positions: readonly Position[], tick: number): { ticks: { index: number; liquidityNet: bigint }[]; liquidity: bigint } {
  const net = new Map<number, bigint>()
  let liquidity = 0n
  for (const position of positions) {
    net.set(position.tickLower, (net.get(position.tickLower) ?? 0n) + position.liquidity)
    net.set(position.tickUpper, (net.get(position.tickUpper) ?? 0n) - position.liquidity)
    if (position.tickLower <= tick && tick < position.tickUpper) liquidity += position.liquidity
  }
  const ticks = [...net.entries()].sort(([a], [b]) => a - b).map(([index, liquidityNet]) => ({ index, liquidityNet }))
  return { ticks, liquidity }
}
