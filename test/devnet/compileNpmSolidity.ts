// Protocol sources that npm ships as Solidity (not bytecode), compiled inside the tests with the
// solc-js release their pragma names (an npm alias such as `solc-0.8.20`), and cached by a hash of
// sources, settings and compiler under .tmp/solc-cache.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Abi, Hex } from 'viem'
import { PROJECT_ROOT } from './compile.js'

const require = createRequire(import.meta.url)
const CACHE_DIR = path.join(PROJECT_ROOT, '.tmp/solc-cache')

/** One compiled contract. */
export type CompiledContract = { abi: Abi; bytecode: Hex; deployedBytecode: Hex }

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
}

// `import {A} from "x";` and `import "x";`
const IMPORT_PATTERN = /^\s*import\s+(?:[^;'"]*?\s+from\s+)?["']([^"']+)["']/gm

/** The units `files` import, transitively, keyed by solc unit name (npm paths, resolved from node_modules). */
function collectSources(files: readonly string[]): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {}
  const pending = [...files]
  while (pending.length > 0) {
    const unit = pending.pop() as string
    if (sources[unit]) continue
    const content = readFileSync(require.resolve(unit, { paths: [PROJECT_ROOT] }), 'utf8')
    sources[unit] = { content }
    for (const match of content.matchAll(IMPORT_PATTERN)) {
      const target = match[1] as string
      pending.push(target.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(unit), target)) : target)
    }
  }
  return sources
}

/**
 * Compiles the contracts `contracts` names (contract name -> npm source path) and what they
 * import, with solc-js from the npm package `solcPackage` (optimizer 200 runs, `evmVersion`).
 *
 * @example
 * const { Pool } = await compileNpmSolidity({ label: 'aerodrome', solcPackage: 'solc-0.8.20', evmVersion: 'paris', contracts: { Pool: 'pkg/contracts/Pool.sol' } })
 */
export async function compileNpmSolidity<Name extends string>({
  label,
  solcPackage,
  evmVersion,
  contracts,
}: {
  label: string
  solcPackage: string
  evmVersion: string
  contracts: Record<Name, string>
}): Promise<Record<Name, CompiledContract> & { solcVersion: string }> {
  const named = Object.entries(contracts) as [Name, string][]
  const input = {
    language: 'Solidity',
    sources: collectSources(named.map(([, file]) => file)),
    settings: {
      evmVersion,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const solcVersion = (require(`${solcPackage}/package.json`) as { version: string }).version
  const key = createHash('sha256').update(JSON.stringify({ solcVersion, input })).digest('hex').slice(0, 32)
  const cacheFile = path.join(CACHE_DIR, `${label}-${key}.json`)
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<Name, CompiledContract> & { solcVersion: string }
  const solc = require(solcPackage) as { compile(input: string, options: object): string }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: (unit: string) => ({ error: `unexpected import ${unit}` }) })) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(`solc ${solcVersion} failed on ${label}:\n${errors.map((e) => e.formattedMessage).join('\n')}`)
  const result = { solcVersion } as Record<Name, CompiledContract> & { solcVersion: string }
  for (const [name, file] of named) {
    const contract = output.contracts?.[file]?.[name]
    if (!contract) throw new Error(`${name} missing from the solc output`)
    ;(result as Record<Name, CompiledContract>)[name] = {
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
      deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
    }
  }
  mkdirSync(CACHE_DIR, { recursive: true })
  // Written whole, then renamed: a parallel test file never reads half a cache entry.
  const temporary = `${cacheFile}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(result))
  renameSync(temporary, cacheFile)
  return result
}
