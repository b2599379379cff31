import { type Address, type Hex, type Log, parseAbi, toEventSelector } from 'viem'
import { MAX_VAULT_BALANCE } from '../../../protocols/balancerV2/pool.js'
import type { BalancerV2PoolState } from '../../../protocols/balancerV2/state.js'
import { createEventDecoder } from '../poolEvents.js'
import type { LogOutcome, TrackedPool } from '../trackedPool.js'

/**
 * The Balancer V2 Vault's events about one pool (v2-vault 1.0, IVault), the pool id first among
 * the topics: see applyBalancerV2Log for what each does to the state.
 *
 * @example
 * decodeEventLog({ abi: balancerV2VaultPoolEventsAbi, topics: log.topics, data: log.data })
 */
export const balancerV2VaultPoolEventsAbi = parseAbi([
  'event PoolRegistered(bytes32 indexed poolId, address indexed poolAddress, uint8 specialization)',
  'event TokensRegistered(bytes32 indexed poolId, address[] tokens, address[] assetManagers)',
  'event TokensDeregistered(bytes32 indexed poolId, address[] tokens)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
  'event PoolBalanceManaged(bytes32 indexed poolId, address indexed assetManager, address indexed token, int256 cashDelta, int256 managedDelta)',
])

/**
 * A Balancer V2 pool contract's own events (BasePool, BalancerPoolToken, the fee cache, recovery
 * mode): see applyBalancerV2Log for what each does to the state.
 *
 * @example
 * decodeEventLog({ abi: balancerV2PoolContractEventsAbi, topics: log.topics, data: log.data })
 */
export const balancerV2PoolContractEventsAbi = parseAbi([
  'event SwapFeePercentageChanged(uint256 swapFeePercentage)',
  'event PausedStateChanged(bool paused)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ProtocolFeePercentageCacheUpdated(uint256 indexed feeType, uint256 protocolFeePercentage)',
  'event RecoveryModeStateChanged(bool enabled)',
])

const decodeVaultLog = createEventDecoder(balancerV2VaultPoolEventsAbi)
const decodePoolLog = createEventDecoder(balancerV2PoolContractEventsAbi)
const POOL_EVENT_TOPICS = new Set<Hex>(balancerV2VaultPoolEventsAbi.map((event) => toEventSelector(event)))

/**
 * The pool id a Vault log is about (its first indexed topic), or undefined for a log of no pool
 * (internal balances, flash loans, relayers, the authorizer, the Vault's pause).
 *
 * @example
 * balancerV2PoolIdOfLog(swapLog) // '0x…'
 */
export function balancerV2PoolIdOfLog(log: Pick<Log, 'topics'>): Hex | undefined {
  const topic = log.topics[0]
  return topic !== undefined && POOL_EVENT_TOPICS.has(topic) ? log.topics[1] : undefined
}

/**
 * Applies one Vault log of a tracked Balancer V2 pool to its record, exactly as the Vault books
 * it, so that the state stays what `readBalancerV2Pools` returns at the block:
 * - `Swap`: the balance of tokenIn grows by amountIn, that of tokenOut falls by amountOut (the
 *   swap fee stays in the pool; a V2 weighted pool pays its protocol fees in minted BPT on joins
 *   and exits, never out of a swap's balances);
 * - `PoolBalanceChanged`: each balance moves by its delta (positive joining, negative exiting)
 *   less the protocol fee amount the Vault took (`_processJoinPoolTransfers` /
 *   `_processExitPoolTransfers`);
 * - `PoolRegistered` changes nothing;
 * - the pool contract's own logs (the live family names it as the pool's own emitter):
 *   `SwapFeePercentageChanged` is applied, `PausedStateChanged` re-reads, BPT `Transfer` and
 *   `Approval`, the protocol fee cache and recovery mode change nothing the state holds;
 * - re-read: any balance log of a pool the reader does not deliver (paused, not from a known
 *   factory, or out of bounds), a balance that would leave the Vault's 112 bits or go negative,
 *   `PoolBalanceManaged` (asset managers), token (de)registration, and any log it cannot decode.
 *
 * @example
 * const outcome = applyBalancerV2Log(record, log)
 */
export function applyBalancerV2Log(record: TrackedPool, log: Pick<Log, 'topics' | 'data'>): LogOutcome {
  const decoded = decodeVaultLog(log)
  if (!decoded) return applyPoolContractLog(record, log)
  if (decoded.eventName === 'PoolRegistered') return { kind: 'unchanged' }
  const state = record.state as BalancerV2PoolState | null | undefined
  if (!state) return { kind: 'reread', reason: `${decoded.eventName} on a Balancer pool not delivered` }
  const balances = state.balances.map(BigInt)
  const indexOf = (token: Address) => state.tokens.indexOf(token.toLowerCase() as Address)
  switch (decoded.eventName) {
    case 'Swap': {
      const { tokenIn, tokenOut, amountIn, amountOut } = decoded.args
      const [into, outOf] = [indexOf(tokenIn), indexOf(tokenOut)]
      if (into < 0 || outOf < 0 || into === outOf) return { kind: 'reread', reason: 'Balancer Swap of tokens the state does not hold' }
      balances[into]! += amountIn
      balances[outOf]! -= amountOut
      break
    }
    case 'PoolBalanceChanged': {
      const { tokens, deltas, protocolFeeAmounts } = decoded.args
      if (tokens.length !== deltas.length || tokens.length !== protocolFeeAmounts.length) return { kind: 'reread', reason: 'malformed Balancer PoolBalanceChanged' }
      for (const [k, token] of tokens.entries()) {
        const index = indexOf(token)
        if (index < 0) return { kind: 'reread', reason: 'Balancer PoolBalanceChanged of a token the state does not hold' }
        balances[index]! += deltas[k]! - protocolFeeAmounts[k]!
      }
      break
    }
    default:
      return { kind: 'reread', reason: `Balancer ${decoded.eventName} is not applied` }
  }
  if (balances.some((balance) => balance < 0n || balance > MAX_VAULT_BALANCE)) return { kind: 'reread', reason: 'Balancer balance out of the Vault\'s bounds' }
  return { kind: 'next', record: { ...record, state: { ...state, balances: balances.map(String) } as BalancerV2PoolState } }
}

/**
 * A log of the pool contract itself: its swap fee, applied (the reader's `getSwapFeePercentage()`
 * is the value the event carries); its pause, re-read (a paused pool is not delivered); its BPT
 * transfers and approvals, protocol fee cache and recovery mode, which the state does not hold.
 */
function applyPoolContractLog(record: TrackedPool, log: Pick<Log, 'topics' | 'data'>): LogOutcome {
  const decoded = decodePoolLog(log)
  if (!decoded) return { kind: 'reread', reason: 'unknown Balancer event' }
  const state = record.state as BalancerV2PoolState | null | undefined
  switch (decoded.eventName) {
    case 'PausedStateChanged':
      return { kind: 'reread', reason: 'Balancer pool paused or unpaused' }
    case 'SwapFeePercentageChanged': {
      // Not delivered: paused pools refuse fee changes, and a pool of no known factory never is.
      if (!state) return { kind: 'unchanged' }
      const swapFeePercentage = decoded.args.swapFeePercentage.toString()
      if (swapFeePercentage === state.swapFeePercentage) return { kind: 'unchanged' }
      return { kind: 'next', record: { ...record, state: { ...state, swapFeePercentage } as BalancerV2PoolState } }
    }
    default:
      return { kind: 'unchanged' }
  }
}
