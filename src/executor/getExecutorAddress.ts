import { encodeDeployData, getCreate2Address, keccak256, stringToHex, type Address, type Hex } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import { QuoteError, guarded } from '../errors/QuoteError.js'
import { defaultFamilies } from '../protocols/defaultFamilies.js'
import type { PoolFamily } from '../protocols/types.js'
import { weftExecutorAbi } from './artifacts.js'
import { weftExecutorBytecode } from './executorBytecode.js'

/**
 * The deterministic-deployment proxy (Arachnid's CREATE2 factory): present on Ethereum, Base and
 * anvil at the same address, so the same init code and salt give the same executor address on each.
 */
export const deterministicDeployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/** The CREATE2 salt every weft executor is deployed with. */
export const executorSalt: Hex = keccak256(stringToHex('weft.executor.v1'))


/** One entry of the executor's dex table, as its constructor takes it (`kind`: the family's `executorKind`, a `KIND_*` of ExecutorBase.sol). */
export type ExecutorDex = { kind: number; factory: Address; initCodeHash: Hex; feeBps: number }

/**
 * The executor's dex table for a chain: `chain.dexes` in order, so a dex's index in
 * `chain.dexes` is `Step.dex`; each dex's kind is its pool family's `executorKind`.
 * Throws on a family the executor cannot swap on.
 *
 * @example
 * const table = getExecutorDexes(chain) // [{ kind: 2, factory: '0x1f98…', initCodeHash: '0xe34f…', feeBps: 0 }]
 */
export function getExecutorDexes(chain: ChainConfig, families: readonly PoolFamily[] = defaultFamilies): ExecutorDex[] {
  return chain.dexes.map((dex) => {
    const kind = families.find((family) => family.id === dex.family)?.executorKind
    if (kind === undefined) {
      // A chain config the executor cannot serve is a bug in the config, not in the request.
      throw new QuoteError({
        statusCode: 500,
        message: `Chain ${chain.id} dex ${dex.id}: the executor cannot swap on the ${dex.family} family`,
      })
    }
    return { kind, factory: dex.factory, initCodeHash: dex.initCodeHash, feeBps: dex.feeBps ?? 0 }
  })
}

/**
 * The executor's init code for a chain: creation bytecode followed by the ABI-encoded
 * constructor arguments (the wrapped native token and the dex table).
 *
 * @example
 * const initCode = getExecutorDeployData(chain)
 * const address = getCreate2Address({ from: deterministicDeployer, salt: executorSalt, bytecode: initCode })
 */
export function getExecutorDeployData(chain: ChainConfig): Hex {
  return guarded(() =>
    encodeDeployData({
      abi: weftExecutorAbi,
      bytecode: weftExecutorBytecode,
      args: [chain.wrappedNative.address, getExecutorDexes(chain)],
    }),
  )
}

/**
 * The executor a chain's quotes target: `chain.executor` when the config sets one, otherwise the
 * CREATE2 address the deterministic-deployment proxy gives the executor built for this config.
 * Any change to the contract or to the chain's dex table changes the address. Lowercase, like
 * every address weft returns.
 *
 * @example
 * const executor = getExecutorAddress(chain) // '0x…', the same wherever this config is deployed
 */
export function getExecutorAddress(chain: ChainConfig): Address {
  return guarded(() => (chain.executor?.toLowerCase() as Address | undefined) ?? getDeterministicExecutorAddress(chain))
}

// Hashing the ~9 kB init code takes about a millisecond, and every quote asks: remember the
// answer per config object (configs are data and are not mutated).
const deterministicAddresses = new WeakMap<ChainConfig, Address>()

/**
 * The CREATE2 address (lowercase) of the executor built for this config, ignoring `chain.executor`.
 *
 * @example
 * const isDefault = getDeterministicExecutorAddress(chain) === getExecutorAddress(chain)
 */
export function getDeterministicExecutorAddress(chain: ChainConfig): Address {
  let address = deterministicAddresses.get(chain)
  if (address === undefined) {
    const bytecode = getExecutorDeployData(chain)
    address = getCreate2Address({ from: deterministicDeployer, salt: executorSalt, bytecode }).toLowerCase() as Address
    deterministicAddresses.set(chain, address)
  }
  return address
}
