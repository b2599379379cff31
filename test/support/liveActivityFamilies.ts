// Which live families the random activity covers, and how each one's devnet part is set up on top
// of deployDevnet's (real bytecode). The long run (scripts/soakLive.ts) covers every live family
// the source has at run time; a family with a live adapter but no activity here is reported as
// not covered, never skipped silently.
import type { ChainConfig } from '../../src/index.js'
import { deployAerodrome, withAerodrome } from '../devnet/aerodrome.js'
import type { Anvil, Devnet } from '../devnet/index.js'
import { deployPancakeV3, withPancakeV3 } from '../devnet/pancakeV3.js'
import { deploySlipstreamReal, withSlipstreamReal } from '../devnet/slipstreamReal.js'
import { createAerodromeActivity, createPancakeV3Activity, createSlipstreamActivity } from './forksActivity.js'
import type { LiveActivityFamily } from './liveActivity.js'
import { createUniswapActivity } from './liveActivityUniswap.js'
import { singletonsActivitySetup } from './singletonsActivity.js'

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
 * PancakeSwap V3 on its real bytecode (deployPancakeV3; its factory emits PoolCreated, pools
 * derive from its pool deployer) with forksActivity's swaps, mints, burns, new pools and protocol-fee changes.
 *
 * @example
 * const { chain, family } = await pancakeV3ActivitySetup.setup(context)
 */
export const pancakeV3ActivitySetup: LiveActivitySetup = {
  familyIds: ['pancakeV3'],
  async setup(context) {
    const pancake = await deployPancakeV3(context.devnet)
    const chain = withPancakeV3(context.chain, { dex: { ...pancake.dex, creationEmitter: pancake.factory } })
    return { chain, family: createPancakeV3Activity({ ...context, chain }, pancake) }
  },
}

/**
 * Slipstream on the real CLFactory/CLPool/CustomSwapFeeModule (deploySlipstreamReal), with custom
 * fees and fee-module switches.
 *
 * @example
 * const { chain, family } = await slipstreamActivitySetup.setup(context)
 */
export const slipstreamActivitySetup: LiveActivitySetup = {
  familyIds: ['slipstream'],
  async setup(context) {
    const slipstream = await deploySlipstreamReal(context.devnet)
    const chain = withSlipstreamReal(context.chain, slipstream)
    return { chain, family: await createSlipstreamActivity({ ...context, chain }, slipstream) }
  },
}

/**
 * Aerodrome V2 on the real Pool/PoolFactory (deployAerodrome): volatile and stable swaps,
 * deposits, withdrawals, custom fees, pauses.
 *
 * @example
 * const { chain, family } = await aerodromeV2ActivitySetup.setup(context)
 */
export const aerodromeV2ActivitySetup: LiveActivitySetup = {
  familyIds: ['aerodromeV2'],
  async setup(context) {
    const aerodrome = await deployAerodrome(context.devnet)
    const chain = withAerodrome(context.chain, aerodrome)
    return { chain, family: createAerodromeActivity({ ...context, chain }, aerodrome) }
  },
}

/**
 * Every activity the long run can generate, by live family.
 *
 * @example
 * const covered = liveActivitySetups.flatMap((s) => s.familyIds)
 */
export const liveActivitySetups: readonly LiveActivitySetup[] = [uniswapActivitySetup, pancakeV3ActivitySetup, slipstreamActivitySetup, aerodromeV2ActivitySetup, singletonsActivitySetup]
