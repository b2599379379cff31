import type { Address, Hex } from 'viem'
import type { PoolStateBase } from '../../protocols/types.js'

/** What discovery learned about a pool from its creation event. Addresses lowercase. */
export type DiscoveredPool = {
  /** The address the family's reader names the pool by (V4: the PoolManager; Balancer: the Vault). */
  address: Address
  /** Pools of a shared contract (V4 pool id, Balancer pool id): the id the live source files them under. */
  id?: Hex
  /** Family id (`PoolFamily.id`, e.g. `uniswapV2`). */
  family: string
  /** `DexConfig.id` of the factory that created it. */
  dex: string
  token0: Address
  token1: Address
  /** Pools of more than two tokens (Balancer): every token, sorted as the pool lists them. */
  tokens?: Address[]
  /** V3 family: fee tier and tick spacing from `PoolCreated`. */
  fee?: number
  tickSpacing?: number
  /** Block of the creation event. */
  createdAt: number
}

/**
 * One discovered pool and what the live source knows of it. Records are immutable: every change
 * makes a new record, so the reorg journal can keep the previous one by reference.
 *
 * `state`: `undefined` while the pool is not tracked or not read yet; `null` when the family's
 * reader does not deliver it at this block (a V2 pair without reserves, a V3 pool not yet
 * initialized); otherwise exactly what the family's reader would return at the source's block.
 *
 * @example
 * const record: TrackedPool = { pool: discovered, state: undefined }
 */
export type TrackedPool = {
  pool: DiscoveredPool
  state: PoolStateBase | null | undefined
  /**
   * V3 family: liquidityGross of every initialized tick the state holds (a `Burn` that takes it to
   * zero clears the tick from the bitmap, which liquidityNet alone cannot tell).
   */
  liquidityGross?: ReadonlyMap<number, bigint>
  /**
   * A block timestamp from which the pool's state changes with time alone, no log saying so
   * (Aerodrome V2: its last observation falls due, `observationDue`; 0 for a Slipstream pool whose
   * fee module moves its fee every block): the source re-reads the pool at the first block at or
   * past it. Absent: never.
   */
  rereadAt?: number
}

/**
 * How a log changed a tracked pool: `next` when it was applied exactly, `unchanged` when the event
 * changes nothing the state holds, `reread` when the pool must be read again at this block.
 *
 * @example
 * const outcome: LogOutcome = { kind: 'reread', reason: 'Swap moved to another bitmap word' }
 */
export type LogOutcome = { kind: 'next'; record: TrackedPool } | { kind: 'unchanged' } | { kind: 'reread'; reason: string }
