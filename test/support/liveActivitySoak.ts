// The live source's long run: blocks of random third-party activity on real bytecode, reorgs of
// depth 1–5 and node faults, with the live state compared with a fresh full read after every
// block. `npm run soak:live -- 1000` runs it (scripts/soakLive.ts); test/live/soak.test.ts runs a
// short one.
import { createPublicClient, custom } from 'viem'
import { type ChainConfig, type LiveSource, QuoteError, createLiveSource } from '../../src/index.js'
import { defaultLiveFamilies } from '../../src/liquidity/live/liveFamilies.js'
import { type Anvil, deployDevnet, rpc, startAnvil } from '../devnet/index.js'
import { createLiveActivity } from './liveActivity.js'
import { type LiveMismatch, checkLiveState } from './liveActivityCheck.js'
import { type LiveActivitySetup, liveActivitySetups } from './liveActivityFamilies.js'
import { createRandom } from './random.js'

const TIME_JUMP_SECONDS = 1_000
const EVENTS_KEPT = 12
/** Room for a busy block over every family (anvil's default is 30M). */
const BLOCK_GAS_LIMIT = 100_000_000n
const BLOCK_GAS_BUDGET = 90_000_000n

/** How the node misbehaves during a fault: every request fails, only `eth_getLogs`, or each request with probability 0.3. */
export type LiveSoakFault = 'down' | 'logs' | 'flaky'

/** What runLiveSoak takes. */
export type RunLiveSoakParameters = {
  blocks: number
  seed?: number
  /** A reorg of depth 1–5 about every this many blocks (default 20). */
  reorgEvery?: number
  /** A node fault about every this many blocks (default 25). */
  faultEvery?: number
  /** The clock jumps 1,000 s every this many blocks (default 12). */
  timeJumpEvery?: number
  /** Progress lines (default: none). */
  log?: (line: string) => void
  /** Every event and comparison to `log`, with the labels of the last mined block's transactions. */
  trace?: boolean
  /** Live family ids to cover (default: every one the source has, `defaultLiveFamilies`). */
  families?: readonly string[]
}

/** The long run's figures. */
export type LiveSoakReport = {
  seed: number
  /** Blocks mined by the activity (reorged ones included), and the comparisons made with a fresh read. */
  blocks: number
  comparisons: number
  mismatches: number
  firstMismatches: LiveMismatch[]
  /** The events just before the first mismatch (none when there was none). */
  eventsBeforeFirstMismatch: string[]
  reorgs: number
  reorgBlocksDropped: number
  /** Reorgs the source saw (its own counter) and its deepest one. */
  sourceReorgs: number
  deepestReorg: number
  faults: Record<LiveSoakFault, number>
  /** Syncs that failed (faults, or a head below the source's block after a rollback): each must leave the source answering 503. */
  failedSyncs: number
  /** Syncs right after a rollback (before the new branch grew past the source's block) the source refused as a lagging node. */
  shorterChainRefusals: number
  /** getLiquidity answers given while the source's last sync had failed or it lagged: must be 0. */
  staleAnswers: number
  /** Clock jumps of 1,000 s between blocks. */
  timeJumps: number
  transactions: number
  poolsAtEnd: number
  families: { covered: string[]; notCovered: string[] }
  source: Pick<ReturnType<LiveSource['stats']>, 'logsApplied' | 'logsUnchanged' | 'rereads' | 'blocksApplied' | 'fullResyncs' | 'rereadReasons'>
  requests: number
  seconds: number
}

/**
 * Runs the long run on a fresh anvil and resolves to its figures (never throws on a mismatch:
 * the caller asserts `mismatches === 0`).
 *
 * @example
 * const report = await runLiveSoak({ blocks: 1_000, log: console.log })
 * if (report.mismatches > 0) process.exitCode = 1
 */
export async function runLiveSoak({ blocks, seed = 0x13_50a4, reorgEvery = 20, faultEvery = 25, timeJumpEvery = 12, log = () => undefined, trace = false, families }: RunLiveSoakParameters): Promise<LiveSoakReport> {
  const started = Date.now()
  const random = createRandom(seed)
  // Faults draw from their own sequence, so the activity is the same whatever the faults did.
  const faultRandom = createRandom(seed ^ 0x5eed)
  const wanted = new Set(families ?? defaultLiveFamilies.map((f) => f.id))
  const setups: LiveActivitySetup[] = liveActivitySetups.filter((s) => s.familyIds.some((id) => wanted.has(id)))
  const covered = setups.flatMap((s) => s.familyIds.filter((id) => wanted.has(id)))
  const notCovered = [...wanted].filter((id) => !covered.includes(id))
  let anvil: Anvil | undefined
  try {
    anvil = await startAnvil({ args: ['--gas-limit', String(BLOCK_GAS_LIMIT)] })
    const devnet = await deployDevnet(anvil)
    let chain: ChainConfig = devnet.chain
    const activityFamilies = []
    for (const setup of setups) {
      const built = await setup.setup({ anvil, devnet, chain, random })
      chain = built.chain
      activityFamilies.push(built.family)
    }
    // More actions per block with more families, so each one stays busy.
    const activity = createLiveActivity({ anvil, random, families: activityFamilies, blockGasBudget: BLOCK_GAS_BUDGET, actionsPerBlock: [1, 3 + 2 * activityFamilies.length] })
    let fault: LiveSoakFault | 'none' = 'none'
    let requests = 0
    const rpcUrl = anvil.rpcUrl
    const client = createPublicClient({
      transport: custom({
        request: async ({ method, params }) => {
          requests++
          if (fault === 'down' || (fault === 'logs' && method === 'eth_getLogs') || (fault === 'flaky' && faultRandom() < 0.3)) throw new Error(`injected ${fault} fault on ${method}`)
          return rpc(rpcUrl, method, params as unknown[])
        },
      }),
    })
    const live = createLiveSource({ client, chain, liveFamilies: defaultLiveFamilies.filter((f) => wanted.has(f.id)), fromBlock: 0n })
    const pair = [devnet.tokens.WETH.address, devnet.tokens.USDC.address] as const
    const report = {
      comparisons: 0,
      mismatches: 0,
      firstMismatches: [] as LiveMismatch[],
      reorgs: 0,
      reorgBlocksDropped: 0,
      faults: { down: 0, logs: 0, flaky: 0 },
      failedSyncs: 0,
      shorterChainRefusals: 0,
      staleAnswers: 0,
      timeJumps: 0,
    }
    let poolsAtEnd = 0
    /** The newest events (rollbacks, faults, clock jumps, refusals), kept to explain a first mismatch. */
    const recent: string[] = []
    let eventsBeforeFirstMismatch: string[] = []
    const note = (event: string) => {
      const stats = live.stats()
      recent.push(`${event} (${activity.stats.blocks} blocks mined; source at ${stats.blockNumber}, head seen ${stats.observedHead})`)
      if (recent.length > EVENTS_KEPT) recent.shift()
      if (trace) log(`  ${recent.at(-1)}`)
    }
    const compare = async () => {
      const { block, mismatches, pools } = await checkLiveState({ source: live, activity, chain, pair })
      if (trace) log(`  compared block ${block}: ${mismatches.length} mismatches; last block mined: ${activity.lastLabels().join(', ') || 'empty'}`)
      report.comparisons++
      if (mismatches.length > 0 && report.mismatches === 0) eventsBeforeFirstMismatch = [...recent, `first mismatch at block ${block}, chain head ${await anvil!.publicClient.getBlockNumber({ cacheTime: 0 })}`]
      report.mismatches += mismatches.length
      poolsAtEnd = pools
      if (report.firstMismatches.length < 5) report.firstMismatches.push(...mismatches.slice(0, 5 - report.firstMismatches.length))
    }
    /** A sync that may fail (a fault, a shorter chain): when it does, the source must refuse to answer (503), never hand out the old block. */
    const syncOrRefuse = async (): Promise<boolean> => {
      try {
        await live.sync()
        return true
      } catch (error) {
        if (!(error instanceof QuoteError) || error.statusCode !== 503) throw error
        report.failedSyncs++
        note(`sync refused (${fault === 'none' ? 'no fault' : `${fault} fault`})`)
        const answered = await live.getLiquidity({ chain, tokenIn: pair[0], tokenOut: pair[1] }).then(
          () => true,
          (refusal: unknown) => {
            if (!(refusal instanceof QuoteError) || refusal.statusCode !== 503) throw refusal
            return false
          },
        )
        if (answered) report.staleAnswers++
        return false
      }
    }

    await compare()
    let mined = 0
    let nextReorg = reorgEvery
    let nextFault = Math.floor(faultEvery / 2)
    let nextTimeJump = timeJumpEvery
    const progressEvery = Math.max(1, Math.floor(blocks / 10))
    let nextProgress = progressEvery
    while (mined < blocks) {
      if (mined >= nextReorg) {
        nextReorg = mined + Math.max(2, Math.round(reorgEvery * (0.5 + random())))
        // Drop 1–5 blocks; half the time the source sees the shorter chain before the new branch grows past it.
        const depth = 1 + Math.floor(random() * 5)
        await activity.rollback(depth)
        note(`rollback ${depth}`)
        report.reorgs++
        report.reorgBlocksDropped += depth
        if (random() < 0.5) {
          // The node now shows a head below the source's block on the source's own branch, which
          // looks the same as a lagging node: the source may refuse (503) until the new branch
          // grows past it, but must never answer from the dropped blocks.
          if (await syncOrRefuse()) await compare()
          else report.shorterChainRefusals++
        }
        for (let k = 0; k <= depth; k++) {
          await activity.mineBlock()
          mined++
          await compare()
        }
      } else if (mined >= nextFault) {
        nextFault = mined + Math.max(2, Math.round(faultEvery * (0.5 + random())))
        const kind = (['down', 'logs', 'flaky'] as const)[Math.floor(faultRandom() * 3)]!
        report.faults[kind]++
        fault = kind
        note(`${kind} fault starts`)
        // The chain moves on (and, a third of the time, reorgs) while the node misbehaves.
        const during = kind === 'logs' ? 3 : 1 + Math.floor(faultRandom() * 2)
        for (let k = 0; k < during; k++) {
          await activity.mineBlock()
          mined++
          await syncOrRefuse()
        }
        if (faultRandom() < 0.33) {
          const depth = 1 + Math.floor(faultRandom() * Math.min(3, during))
          await activity.rollback(depth)
          note(`rollback ${depth} during the fault`)
          report.reorgs++
          report.reorgBlocksDropped += depth
          for (let k = 0; k <= depth; k++) {
            await activity.mineBlock()
            mined++
          }
          await syncOrRefuse()
        }
        fault = 'none'
        note('fault ends')
        await compare()
      } else {
        if (mined >= nextTimeJump) {
          // The clock jumps past most of a 30-minute observation period (Aerodrome's oracle falls due).
          nextTimeJump = mined + timeJumpEvery
          await rpc(rpcUrl, 'evm_increaseTime', [TIME_JUMP_SECONDS])
          report.timeJumps++
          note('clock jump')
        }
        await activity.mineBlock()
        mined++
        await compare()
      }
      if (mined >= nextProgress) {
        nextProgress += progressEvery
        log(`  ${mined}/${blocks} blocks, ${report.comparisons} comparisons, ${report.mismatches} mismatches, ${report.reorgs} reorgs, ${Object.values(report.faults).reduce((a, b) => a + b, 0)} faults, ${poolsAtEnd} pools, ${((Date.now() - started) / 1000).toFixed(0)} s`)
      }
    }
    const stats = live.stats()
    return {
      seed,
      blocks: activity.stats.blocks,
      ...report,
      eventsBeforeFirstMismatch,
      sourceReorgs: stats.reorgs,
      deepestReorg: stats.deepestReorg,
      transactions: activity.stats.transactions,
      poolsAtEnd,
      families: { covered, notCovered },
      source: { logsApplied: stats.logsApplied, logsUnchanged: stats.logsUnchanged, rereads: stats.rereads, blocksApplied: stats.blocksApplied, fullResyncs: stats.fullResyncs, rereadReasons: stats.rereadReasons },
      requests,
      seconds: (Date.now() - started) / 1000,
    }
  } finally {
    await anvil?.stop()
  }
}
