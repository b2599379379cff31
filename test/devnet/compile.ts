import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'

/** The repository root (two levels above this file). */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Where the Solidity test contracts live, relative to the project root. */
export const TEST_CONTRACTS_DIR = 'test/contracts'

const CACHE_DIR = path.join(PROJECT_ROOT, '.tmp/solc-cache')
const require = createRequire(import.meta.url)

/** A compiled contract: ABI and creation/runtime bytecode (0x-prefixed). */
export type CompiledContract = {
  /** Source unit it came from, e.g. `test/contracts/TestToken.sol`. */
  source: string
  abi: Abi
  bytecode: Hex
  deployedBytecode: Hex
}

/** Options of {@link compileTestContracts}. */
export type CompileTestContractsOptions = {
  /**
   * Source files to compile, relative to the project root
   * (default: every `.sol` file in `test/contracts/`). Their imports are
   * resolved from the project root first, then from `node_modules`.
   */
  files?: string[]
  /** Optimizer runs. Default 200. */
  optimizerRuns?: number
}

/** Deployable contracts by name. Names are unique across the compiled files (a clash throws). */
export type CompiledContracts = Record<string, CompiledContract>

const memoryCache = new Map<string, Promise<CompiledContracts>>()

// `import "x";`, `import "x" as X;`, `import {A} from "x";`, `import * as X from "x";`
const IMPORT_PATTERN = /^\s*import\s+(?:[^;'"]*?\s+from\s+)?["']([^"']+)["']/gm

function resolveUnitPath(unit: string): string {
  const local = path.join(PROJECT_ROOT, unit)
  if (existsSync(local)) return local
  try {
    return require.resolve(unit, { paths: [PROJECT_ROOT] })
  } catch {
    throw new Error(`Solidity source not found: ${unit}`)
  }
}

/** Reads `files` and, transitively, everything they import, keyed by solc unit name. */
function collectSources(files: string[]): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {}
  const pending = [...files]
  while (pending.length > 0) {
    const unit = pending.pop() as string
    if (sources[unit]) continue
    const content = readFileSync(resolveUnitPath(unit), 'utf8')
    sources[unit] = { content }
    for (const match of content.matchAll(IMPORT_PATTERN)) {
      const target = match[1] as string
      pending.push(
        target.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(unit), target)) : target,
      )
    }
  }
  return sources
}

function listTestContractFiles(): string[] {
  return readdirSync(path.join(PROJECT_ROOT, TEST_CONTRACTS_DIR))
    .filter((name) => name.endsWith('.sol'))
    .sort()
    .map((name) => `${TEST_CONTRACTS_DIR}/${name}`)
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >
}

async function runSolc(input: object): Promise<SolcOutput> {
  const solc = (await import('solc')).default
  // Every import was collected up front, so solc asking for a file is a bug in collectSources.
  const findImports = (unit: string) => ({ error: `unexpected import ${unit}` })
  return JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput
}

function extractContracts(output: SolcOutput, files: string[]): CompiledContracts {
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`)
  const contracts: CompiledContracts = {}
  // Only deployable contracts of the requested files: interfaces, abstract
  // contracts and imported code have no use here and would only clash by name.
  for (const source of files) {
    for (const [name, contract] of Object.entries(output.contracts?.[source] ?? {})) {
      if (contract.evm.bytecode.object === '') continue
      if (contracts[name]) throw new Error(`contract name ${name} is defined in ${contracts[name].source} and ${source}`)
      contracts[name] = {
        source,
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      }
    }
  }
  return contracts
}

/**
 * Compiles the Solidity test contracts with solc-js (evmVersion cancun,
 * optimizer on). The result is cached in memory and under `.tmp/solc-cache/`,
 * keyed by a hash of the sources, settings and compiler version, so test files
 * after the first (and later runs) do not recompile.
 *
 * @example
 * const { TestToken } = await compileTestContracts()
 * const hash = await walletClient.deployContract({ abi: TestToken.abi, bytecode: TestToken.bytecode, args: ['USD Coin', 'USDC', 6] })
 */
export async function compileTestContracts(options: CompileTestContractsOptions = {}): Promise<CompiledContracts> {
  const files = options.files ?? listTestContractFiles()
  const input = {
    language: 'Solidity',
    sources: collectSources(files),
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: options.optimizerRuns ?? 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const solcVersion = (require('solc/package.json') as { version: string }).version
  const key = createHash('sha256')
    .update(JSON.stringify({ solcVersion, files, input }))
    .digest('hex')
    .slice(0, 32)

  let compiled = memoryCache.get(key)
  if (!compiled) {
    compiled = (async () => {
      const cacheFile = path.join(CACHE_DIR, `${key}.json`)
      if (existsSync(cacheFile)) {
        try {
          return JSON.parse(readFileSync(cacheFile, 'utf8')) as CompiledContracts
        } catch {
          // A corrupt cache entry is recompiled and overwritten below.
        }
      }
      const contracts = extractContracts(await runSolc(input), files)
      mkdirSync(CACHE_DIR, { recursive: true })
      // Test files run in parallel processes: write aside, then rename atomically.
      const temporary = `${cacheFile}.${process.pid}.tmp`
      writeFileSync(temporary, JSON.stringify(contracts))
      renameSync(temporary, cacheFile)
      return contracts
    })()
    memoryCache.set(key, compiled)
    compiled.catch(() => memoryCache.delete(key))
  }
  return compiled
}

/**
 * One compiled test contract by name (compiling `options.files`, default all
 * of `test/contracts/`); throws when no compiled contract has that name.
 *
 * @example
 * const provider = await getTestContract('V3LiquidityProvider')
 */
export async function getTestContract(
  name: string,
  options: CompileTestContractsOptions = {},
): Promise<CompiledContract> {
  const contract = (await compileTestContracts(options))[name]
  if (!contract) throw new Error(`no test contract named ${name} in ${TEST_CONTRACTS_DIR}/`)
  return contract
}
