// Which live families the random activity covers, and how each one's devnet part is set up on top
// of deployDevnet's (real bytecode). The long run (scripts/soakLive.ts) covers every live family
// the source has at run time; a family with a live adapter but no activity here is reported as
// not covered, never skipped silently.
import type { ChainConfig } from '../../src/index.js'
import type { Anvil, Devnet } from '../devnet/index.js'
import type { LiveActivityFamily } from './liveActivity.js'
import { createUniswapActivity } from './liveActivityUniswap.js'

/** What a setup gets: the devnet so far and the chain config the live source will follow. */
export type LiveActivitySetupContext = { anvil: Anvil; devnet: Devnet; chain: ChainConfig; random: () => number }

/**
 * One family's (or a group's) activity: the live family ids it exercises, and how to deploy its
 * part of the devnet and build its generator. `setup` returns the chain extended with its dexes.
 *
 * @example
 * const { chain, family } = await uniswapActivitySetup.setup({ anvil, devnet, chain: devnet.chain, random })
 */
export type LiveActivitySetup = {
  familyIds: readonly string[]
  setup(context: LiveActivitySetupContext): Promise<{ chain: ChainConfig; family: LiveActivityFamily }>
}

/**
 * Uniswap V2 and V3: deployDevnet already holds their factories and pools; nothing to deploy.
 *
 * @example
 * liveActivitySetups.find((s) => s.familyIds.includes('uniswapV3'))
 */
export const uniswapActivitySetup: LiveActivitySetup = {
  familyIds: ['uniswapV2', 'uniswapV3'],
  setup: async (context) => ({ chain: context.chain, family: createUniswapActivity(context) }),
}

/**
 * Every activity the long run can generate, by live family.
 *
 * @example
 * const covered = liveActivitySetups.flatMap((s) => s.familyIds)
 */
export const liveActivitySetups: readonly LiveActivitySetup[] = [uniswapActivitySetup]
