// Random third-party activity on a devnet, block by block, for the live source's tests and its
// long run (scripts/soakLive.ts): each family contributes a plan of transactions on its pools
// (liveActivityUniswap.ts for V2/V3; other families add theirs), the driver mines them, keeps
// what the plans minted (positions, uninitialized pools) per block so a reorg can restore it, and
// reads every pool afresh with the families' own readers to compare with the live state.
import type { PoolStateBase } from '../../src/index.js'
import { type Anvil, type DevnetTransaction, rpc, sendDevnetTransactions } from '../devnet/index.js'

/** A block's share of one family: its transactions and what to remember once they are mined. */
export type LiveActivityPlan = { txs: DevnetTransaction[]; onMined?: () => void }

/**
 * One family's activity: how to read all its pools afresh (the reference the live state is
 * compared with), how to plan a block's transactions on them, and the bookkeeping a reorg must
 * roll back (`save` / `restore`: immutable values, so saving is a reference).
 *
 * @example
 * const activity = createLiveActivity({ anvil, random, families: [createUniswapActivity({ anvil, devnet, chain, random })] })
 */
export type LiveActivityFamily = {
  /** Names the family in stats. */
  name: string
  /** Every pool of the family on the devnet, read afresh at `blockNumber`. */
  freshRead(blockNumber: bigint): Promise<PoolStateBase[]>
  /** Up to `actions` random actions on `pools` (this family's, from a fresh read at the head), within `gasBudget`. */
  planBlock(pools: readonly PoolStateBase[], actions: number, gasBudget: bigint): Promise<LiveActivityPlan>
  save(): unknown
  restore(saved: unknown): void
}

/** What createLiveActivity needs. */
export type CreateLiveActivityParameters = {
  anvil: Anvil
  random: () => number
  families: readonly LiveActivityFamily[]
  /** Gas of a block's planned transactions, at most (default 29M: anvil's 30M block less a margin). */
  blockGasBudget?: bigint
  /** Actions per block, drawn uniformly in [min, max] (default 1–5), spread over the families at random. */
  actionsPerBlock?: readonly [min: number, max: number]
}

/** The activity driver. */
export type LiveActivity = {
  /** Every family's pools read afresh at `blockNumber` (the last read at the head is reused for planning). */
  freshRead(blockNumber: bigint): Promise<PoolStateBase[]>
  /** Mines one block of random activity (an empty block when nothing fits) and records the books at the new head. */
  mineBlock(): Promise<void>
  /** Drops the newest `depth` blocks (`anvil_rollback`) and restores the books of the block left at the head. */
  rollback(depth: number): Promise<void>
  /** Records the books at the current head, after a block mined by someone else (e.g. a quote's fill). */
  recordHead(): Promise<void>
  readonly stats: { blocks: number; transactions: number; emptyBlocks: number; rollbacks: number; blocksDropped: number }
  /** The labels of the last mined block's transactions (to explain a mismatch). */
  lastLabels(): string[]
}

const DEFAULT_BLOCK_GAS_BUDGET = 29_000_000n

/**
 * Builds the driver of random third-party activity over `families`.
 *
 * @example
 * const activity = createLiveActivity({ anvil, random: createRandom(7), families: [createUniswapActivity({ anvil, devnet, chain, random })] })
 * await activity.mineBlock()
 * const expected = await activity.freshRead(await anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
 */
export function createLiveActivity({ anvil, random, families, blockGasBudget = DEFAULT_BLOCK_GAS_BUDGET, actionsPerBlock = [1, 5] }: CreateLiveActivityParameters): LiveActivity {
  /** Every family's saved book by the block it was recorded at (blocks without activity of ours keep the one before). */
  const history = new Map<number, unknown[]>()
  /** The last fresh read, reused to plan the next block when nothing was mined since. */
  let lastRead: { blockNumber: bigint; byFamily: PoolStateBase[][] } | undefined
  const stats = { blocks: 0, transactions: 0, emptyBlocks: 0, rollbacks: 0, blocksDropped: 0 }
  const head = async () => anvil.publicClient.getBlockNumber({ cacheTime: 0 })
  const record = async () => {
    history.set(Number(await head()), families.map((f) => f.save()))
    lastRead = undefined
  }
  let recordedGenesis = false
  let labels: string[] = []

  const readByFamily = async (blockNumber: bigint): Promise<PoolStateBase[][]> => {
    if (lastRead?.blockNumber === blockNumber) return lastRead.byFamily
    const byFamily = await Promise.all(families.map((f) => f.freshRead(blockNumber)))
    lastRead = { blockNumber, byFamily }
    return byFamily
  }

  return {
    freshRead: async (blockNumber) => (await readByFamily(blockNumber)).flat(),
    async mineBlock() {
      if (!recordedGenesis) {
        // The books start empty at the head the driver first mines on.
        await record()
        recordedGenesis = true
      }
      const byFamily = await readByFamily(await head())
      const [min, max] = actionsPerBlock
      const actions = min + Math.floor(random() * (max - min + 1))
      // Spread the block's actions over the families at random (each family plans its share).
      const shares = families.map(() => 0)
      for (let k = 0; k < actions; k++) shares[Math.floor(random() * families.length)]!++
      const txs: DevnetTransaction[] = []
      const mined: (() => void)[] = []
      let gasLeft = blockGasBudget
      for (const [index, family] of families.entries()) {
        if (shares[index] === 0) continue
        const plan = await family.planBlock(byFamily[index]!, shares[index]!, gasLeft)
        gasLeft -= plan.txs.reduce((sum, t) => sum + t.gas, 0n)
        txs.push(...plan.txs)
        if (plan.onMined) mined.push(plan.onMined)
      }
      if (txs.length > 0) await sendDevnetTransactions(anvil.rpcUrl, txs)
      else {
        await rpc(anvil.rpcUrl, 'evm_mine', [])
        stats.emptyBlocks++
      }
      for (const onMined of mined) onMined()
      labels = txs.map((t) => t.label)
      stats.blocks++
      stats.transactions += txs.length
      await record()
    },
    async rollback(depth) {
      const before = Number(await head())
      await rpc(anvil.rpcUrl, 'anvil_rollback', [depth])
      const at = before - depth
      let saved: unknown[] | undefined
      for (let n = at; n >= 0 && !saved; n--) saved = history.get(n)
      if (!saved) throw new Error(`no activity book at or before block ${at}`)
      families.forEach((f, i) => f.restore(saved[i]))
      for (const n of [...history.keys()]) if (n > at) history.delete(n)
      lastRead = undefined
      stats.rollbacks++
      stats.blocksDropped += depth
    },
    recordHead: record,
    stats,
    lastLabels: () => [...labels],
  }
}
