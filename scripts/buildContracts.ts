/**
 * Compiles every `contracts/**\/*.sol` with solc-js and writes, per contract, `<name>Abi` (an
 * `as const` literal) and `<name>Bytecode` (creation bytecode): the executor's ABI to
 * `src/executor/artifacts.ts` and its bytecode to `src/executor/executorBytecode.ts`, the lenses'
 * both to `src/executor/lensArtifacts.ts`.
 *
 *   npm run build:contracts   compile and write the artifacts
 *   npm run check:contracts   compile and fail if the committed artifacts differ
 *
 * Compiler settings, and why:
 * - evmVersion cancun: transient storage (the reentrancy lock and the V3 callback guard), and it
 *   runs on Ethereum and Base; solc's default (osaka) would emit opcodes those chains may lack.
 * - optimizer runs 1,000,000: the executor is deployed once per chain and called on every fill,
 *   so runtime gas matters far more than code size (it stays well under the 24,576-byte limit).
 *   Read-only helpers under contracts/lens/ (the pool lenses, the transfer-fee probe) run only
 *   as deployless `eth_call` code and ship inside the browser bundle, so they are compiled for size
 *   instead (runs 1), in a second pass over the same sources.
 * - viaIR off: the legacy pipeline compiles the contract without stack-too-deep errors, in a
 *   fraction of the time.
 * - metadata bytecodeHash none: no IPFS hash of the metadata (which embeds source paths and
 *   comments) at the end of the bytecode, so the output, and so the CREATE2 address, changes only
 *   when the code does. The CBOR tail keeps the compiler version for verifiers.
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const contractsDir = join(root, 'contracts')
const artifactsPath = join(root, 'src', 'executor', 'artifacts.ts')
// The lenses and the probe are only needed by the RPC source's readers, which import this file
// lazily: a page quoting on a snapshot never downloads their bytecode.
const lensArtifactsPath = join(root, 'src', 'executor', 'lensArtifacts.ts')
// The executor's creation code is only hashed for its CREATE2 address (and sent by deployExecutor).
// In a file of its own, a bundle that imports the ABI for calldata does not carry it: getQuote
// loads it with its first quote.
const executorBytecodePath = join(root, 'src', 'executor', 'executorBytecode.ts')
const codeSizeLimit = 24_576

const settings = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 1_000_000 },
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const

type AbiItem = Record<string, unknown>
type ContractOutput = {
  abi: AbiItem[]
  evm: { bytecode: { object: string }; deployedBytecode: { object: string } }
}
type CompilerMessage = { severity: 'error' | 'warning' | 'info'; formattedMessage: string }
type CompilerOutput = {
  errors?: CompilerMessage[]
  contracts?: Record<string, Record<string, ContractOutput>>
}

type Artifact = { source: string; name: string; abi: AbiItem[]; bytecode: string; runtimeSize: number }

function main(): void {
  const check = process.argv.includes('--check')
  const artifacts = compile()

  for (const a of artifacts) {
    console.log(`${a.source}:${a.name}  runtime ${a.runtimeSize} bytes, creation ${(a.bytecode.length - 2) / 2} bytes`)
    if (a.runtimeSize > codeSizeLimit) fail(`${a.name} runtime code exceeds the ${codeSizeLimit}-byte limit`)
  }

  const executor = artifacts.filter((a) => !isLens(a.source))
  const lenses = artifacts.filter((a) => isLens(a.source))
  const outputs: [string, string][] = [
    [artifactsPath, render(executor, { abi: true, bytecode: false })],
    [executorBytecodePath, render(executor, { abi: false, bytecode: true })],
    [lensArtifactsPath, render(lenses, { abi: true, bytecode: true })],
  ]
  for (const [path, text] of outputs) {
    const relativePath = relative(root, path)
    if (check) {
      const committed = existsSync(path) ? readFileSync(path, 'utf8') : undefined
      if (committed !== text) {
        fail(
          committed === undefined
            ? `${relativePath} is missing: run \`npm run build:contracts\``
            : `${relativePath} is out of date with contracts/: run \`npm run build:contracts\` and commit the result`,
        )
      }
      console.log(`${relativePath} is up to date`)
      continue
    }
    writeFileSync(path, text)
    console.log(`wrote ${relativePath}`)
  }
}

/** Optimizer runs for a contract, by its source: the lenses for size, everything else for gas. */
const lensRuns = 1
const isLens = (source: string) => source.startsWith('contracts/lens/')

function compile(): Artifact[] {
  const forGas = compileWith(settings)
  const forSize = compileWith({ ...settings, optimizer: { enabled: true, runs: lensRuns } })
  return [...forGas.filter((a) => !isLens(a.source)), ...forSize.filter((a) => isLens(a.source))].sort((a, b) =>
    a.source === b.source ? (a.name < b.name ? -1 : 1) : a.source < b.source ? -1 : 1,
  )
}

type CompilerSettings = Omit<typeof settings, 'optimizer'> & { optimizer: { enabled: boolean; runs: number } }

function compileWith(settings: CompilerSettings): Artifact[] {
  const files = findSources(contractsDir)
  if (files.length === 0) fail('no .sol files under contracts/')
  // Source keys are repository-relative POSIX paths, so they do not depend on the checkout's location.
  const sources = Object.fromEntries(
    files.map((file) => [relative(root, file).split(sep).join('/'), { content: readFileSync(file, 'utf8') }]),
  )
  const input = { language: 'Solidity', sources, settings }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as CompilerOutput

  const messages = output.errors ?? []
  for (const m of messages) if (m.severity !== 'info') console.error(m.formattedMessage)
  if (messages.some((m) => m.severity === 'error')) fail('compilation failed')

  const artifacts: Artifact[] = []
  for (const source of Object.keys(output.contracts ?? {}).sort()) {
    const contracts = output.contracts?.[source] ?? {}
    for (const name of Object.keys(contracts).sort()) {
      const contract = contracts[name]
      // Interfaces and abstract contracts have no bytecode and nothing to deploy.
      if (!contract || contract.evm.bytecode.object === '') continue
      artifacts.push({
        source,
        name,
        abi: contract.abi.map(stripInternalTypes),
        bytecode: `0x${contract.evm.bytecode.object}`,
        runtimeSize: contract.evm.deployedBytecode.object.length / 2,
      })
    }
  }
  const names = artifacts.map((a) => a.name)
  const duplicate = names.find((n, i) => names.indexOf(n) !== i)
  if (duplicate) fail(`two contracts are named ${duplicate}: export names would collide`)
  return artifacts
}

function findSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.sol'))
    .map((f) => join(dir, f))
    .sort()
}

// Every import resolves among the sources handed to solc; anything else is a mistake.
function findImport(path: string): { error: string } {
  return { error: `${path} is not under contracts/ (only local imports are supported)` }
}

// internalType (Solidity struct and contract names) is of no use to viem: drop it to keep the
// bundled ABI small.
function stripInternalTypes(value: AbiItem): AbiItem {
  const out: AbiItem = {}
  for (const [key, v] of Object.entries(value)) {
    if (key === 'internalType') continue
    out[key] = Array.isArray(v) ? v.map((x) => (isObject(x) ? stripInternalTypes(x) : x)) : v
  }
  return out
}

/** Which of each contract's two exports a file holds. */
type RenderParts = { abi: boolean; bytecode: boolean }

function render(artifacts: Artifact[], parts: RenderParts): string {
  const version = solc.version() as string
  const lines = [
    '// generated by scripts/buildContracts.ts — do not edit',
    `// solc ${version}, evmVersion ${settings.evmVersion}, optimizer runs ${settings.optimizer.runs} (contracts/lens: ${lensRuns}), bytecodeHash ${settings.metadata.bytecodeHash}`,
    '',
  ]
  for (const a of artifacts) {
    const id = a.name.charAt(0).toLowerCase() + a.name.slice(1)
    if (parts.abi) {
      lines.push(
        `/**`,
        ` * ABI of \`${a.name}\` (${a.source}).`,
        ` *`,
        ` * @example`,
        ` * encodeFunctionData({ abi: ${id}Abi, functionName: '…', args: […] })`,
        ` */`,
        `export const ${id}Abi = ${literal(a.abi, '')} as const`,
        '',
      )
    }
    if (parts.bytecode) {
      lines.push(
        `/**`,
        ` * Creation bytecode of \`${a.name}\` (${a.source}); append the ABI-encoded constructor arguments.`,
        ` *`,
        ` * @example`,
        ` * encodeDeployData({ abi: ${id}Abi, bytecode: ${id}Bytecode, args: […] })`,
        ` */`,
        `export const ${id}Bytecode = '${a.bytecode}' as const`,
        '',
      )
    }
  }
  return lines.join('\n')
}

const maxLine = 110

// A TypeScript literal: single quotes, bare keys, one line when it fits, else one entry a line.
function literal(value: unknown, indent: string): string {
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value)
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const flat = `[${value.map((v) => literal(v, '')).join(', ')}]`
    if (!flat.includes('\n') && indent.length + flat.length <= maxLine) return flat
    return `[\n${value.map((v) => `${inner}${literal(v, inner)},`).join('\n')}\n${indent}]`
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => [/^[A-Za-z_$][\w$]*$/.test(k) ? k : literal(k, ''), v] as const)
    if (entries.length === 0) return '{}'
    const flat = `{ ${entries.map(([k, v]) => `${k}: ${literal(v, '')}`).join(', ')} }`
    if (!flat.includes('\n') && indent.length + flat.length <= maxLine) return flat
    return `{\n${entries.map(([k, v]) => `${inner}${k}: ${literal(v, inner)},`).join('\n')}\n${indent}}`
  }
  throw new Error(`cannot render ${typeof value} in an ABI`)
}

function isObject(value: unknown): value is AbiItem {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function fail(message: string): never {
  console.error(`buildContracts: ${message}`)
  process.exit(1)
}

main()
