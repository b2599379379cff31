import { type Address, isAddress, zeroAddress } from 'viem'
import { QuoteError, guarded, hostError } from '../errors/QuoteError.js'
import { arbitrum } from './arbitrum.js'
import { base } from './base.js'
import { ethereum } from './ethereum.js'
import type { ChainConfig, DexConfig, TokenInfo } from './types.js'

/**
 * The chains weft ships with: Ethereum and Base active, Arbitrum One planned.
 *
 * @example
 * const quote = await getQuote(intent, source, { chains: [...defaultChains, myDevnet] })
 */
export const defaultChains: readonly ChainConfig[] = [ethereum, base, arbitrum]

/** Options every public function that resolves a chain accepts. */
export type ChainsOption = {
  /**
   * Host chain configurations (a devnet, a fork, another deployment). A config
   * whose id matches a built-in chain replaces it; others are added.
   */
  chains?: readonly ChainConfig[]
}

/**
 * The effective chain registry: the built-in chains overridden or extended by the host's.
 *
 * @example
 * const chains = resolveChains({ chains: [myDevnet] })
 */
export function resolveChains(options?: ChainsOption): readonly ChainConfig[] {
  return guarded(() => mergeChains(options))
}

function mergeChains(options?: ChainsOption): readonly ChainConfig[] {
  const extra = options?.chains
  if (extra === undefined) return defaultChains
  // A host's option, named when wrong (decisions.md §3): iterating a non-array was a bare 'Internal error'.
  if (!Array.isArray(extra) || extra.some((chain) => chain === null || typeof chain !== 'object' || !Number.isInteger(chain.id)))
    throw hostError('Invalid option chains: must be an array of chain configs, each with an integer id')
  if (extra.length === 0) return defaultChains
  const byId = new Map<number, ChainConfig>()
  for (const chain of defaultChains) byId.set(chain.id, chain)
  for (const chain of extra) byId.set(chain.id, chain)
  return [...byId.values()]
}

/** The config of an active chain, or undefined. */
export function findActiveChain(chains: readonly ChainConfig[], id: number): ChainConfig | undefined {
  const chain = chains.find((c) => c.id === id)
  return chain && chain.status === 'active' ? chain : undefined
}

const hashPattern = /^0x[0-9a-fA-F]{64}$/

/**
 * Validates a host's chain configuration and returns it with every address
 * lowercased. Use it to describe a devnet or your own deployments: its
 * factories, wrapped native token, tokens, executor and treasury.
 * Throws a `QuoteError` (500, a host configuration error) naming the bad field.
 *
 * @example
 * const devnet = defineChainConfig({
 *   ...base, id: 31337, name: 'Devnet',
 *   wrappedNative: { address: weth, symbol: 'WETH', decimals: 18 },
 *   tokens: [...], usdStablecoins: [usdc], majorTokens: [usdc, weth],
 *   dexes: [{ id: 'uniswapV2', family: 'uniswapV2', protocol: 'Uniswap V2', fork: 'UniswapV2',
 *             factory: v2Factory, initCodeHash: UNISWAP_V2_INIT_CODE_HASH, feeBps: 30 }],
 * })
 */
export function defineChainConfig(config: ChainConfig): ChainConfig {
  return guarded(() => checkChainConfig(config))
}

function checkChainConfig(config: ChainConfig): ChainConfig {
  const fail = (field: string, why: string): never => {
    throw new QuoteError({ statusCode: 500, message: `Invalid chain configuration: ${field} ${why}` })
  }
  const addr = (value: unknown, field: string): Address => {
    if (typeof value !== 'string' || !isAddress(value, { strict: false })) fail(field, 'must be an address')
    return (value as string).toLowerCase() as Address
  }
  const token = (t: TokenInfo, field: string): TokenInfo => {
    if (!t || typeof t.symbol !== 'string') fail(`${field}.symbol`, 'must be a string')
    if (!Number.isInteger(t.decimals) || t.decimals < 0 || t.decimals > 255) fail(`${field}.decimals`, 'must be an integer 0..255')
    return { address: addr(t.address, `${field}.address`), symbol: t.symbol, decimals: t.decimals }
  }
  if (!config || typeof config !== 'object') fail('config', 'must be an object')
  if (!Number.isSafeInteger(config.id) || config.id <= 0) fail('id', 'must be a positive integer')
  if (typeof config.name !== 'string' || config.name === '') fail('name', 'must be a non-empty string')
  if (config.status !== 'active' && config.status !== 'planned') fail('status', "must be 'active' or 'planned'")
  if (typeof config.defaultGasPriceWei !== 'bigint' || config.defaultGasPriceWei < 0n) fail('defaultGasPriceWei', 'must be a non-negative bigint')
  const dexIds = new Set<string>()
  const dexes = (config.dexes ?? []).map((d: DexConfig, i): DexConfig => {
    const field = `dexes[${i}]`
    if (typeof d.id !== 'string' || dexIds.has(d.id)) fail(`${field}.id`, 'must be a unique string')
    dexIds.add(d.id)
    if (typeof d.initCodeHash !== 'string' || !hashPattern.test(d.initCodeHash)) fail(`${field}.initCodeHash`, 'must be a 32-byte hex string')
    return {
      ...d,
      factory: addr(d.factory, `${field}.factory`),
      initCodeHash: d.initCodeHash.toLowerCase() as DexConfig['initCodeHash'],
      ...(d.creationEmitter !== undefined ? { creationEmitter: addr(d.creationEmitter, `${field}.creationEmitter`) } : {}),
    }
  })
  if (dexes.length > 255) fail('dexes', 'may hold at most 255 deployments')
  const wrappedNative = token(config.wrappedNative, 'wrappedNative')
  if (wrappedNative.address === zeroAddress) fail('wrappedNative.address', 'must not be the zero address')
  return {
    ...config,
    wrappedNative,
    tokens: (config.tokens ?? []).map((t, i) => token(t, `tokens[${i}]`)),
    usdStablecoins: (config.usdStablecoins ?? []).map((a, i) => addr(a, `usdStablecoins[${i}]`)),
    majorTokens: (config.majorTokens ?? []).map((a, i) => addr(a, `majorTokens[${i}]`)),
    dexes,
    ...(config.executor !== undefined ? { executor: addr(config.executor, 'executor') } : {}),
    ...(config.treasury !== undefined ? { treasury: addr(config.treasury, 'treasury') } : {}),
  }
}
