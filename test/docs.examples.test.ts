// The documentation's code is checked two ways:
// 1. every value weft exports (functions, classes, constants) documents itself with an @example in
//    its JSDoc, which typedoc renders in the API site (`npm run docs`). Types are exempt.
// 2. every ```ts snippet of README.md and docs/**/*.md compiles under `--strict` with `weft`
//    resolved to src/, and runs to completion (exit 0) in its own process. A snippet that needs
//    values it does not define (a quote, a devnet, an intent) names a context on the line before
//    its fence, `<!-- snippet: NAME -->`; the context's prelude (below) is prepended and defines
//    them on a real anvil or the embedded snapshot. The prelude imports weft under an alias only,
//    so the snippet's own imports are what a reader copies.
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANVIL_ACCOUNTS, startAnvil } from './devnet/anvil.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const entries = ['src/index.ts', 'src/defaultSnapshot.ts'].map((f) => join(root, f))

/** Exported values of the entry files, with whether their declaration's JSDoc has an @example. */
function exportedValues(): { name: string; file: string; hasExample: boolean }[] {
  const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true })
  const checker = program.getTypeChecker()
  const found: { name: string; file: string; hasExample: boolean }[] = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry)!
    const module = checker.getSymbolAtLocation(source)!
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable))) continue
      const declaration = symbol.declarations?.[0]
      if (!declaration) continue
      const tags = symbol.getJsDocTags(checker)
      found.push({ name: exported.name, file: declaration.getSourceFile().fileName.replace(/^.*\/src\//, 'src/'), hasExample: tags.some((t) => t.name === 'example') })
    }
  }
  return found
}

describe('API documentation', () => {
  it('gives every exported function, class and constant an @example', () => {
    const values = exportedValues()
    expect(values.length).toBeGreaterThan(20)
    expect(values.filter((v) => !v.hasExample).map((v) => `${v.name} (${v.file})`)).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// Snippets

/** One ```ts block of a markdown file. */
type Snippet = { name: string; file: string; line: number; context: ContextName; code: string }

/**
 * What each context defines for the snippets that name it. `WEFT_SNIPPET_RPC` is a fresh anvil
 * started for that one snippet. Identifiers end up in the snippet's scope, so they are the names
 * the docs use (`quote`, `intent`, `walletClient`...).
 */
const contexts = {
  // No prelude. BASE_RPC_URL is an empty anvil with Base's chain id: a quote there is a QuoteError
  // (nothing is deployed at Base's addresses), which the snippet must print rather than swallow.
  none: '',
  // The embedded snapshot (synthetic Base and Ethereum pools): an intent on Base and its source.
  snapshot: `
import * as weftContext from 'weft'
import { defaultSnapshot as contextSnapshot } from 'weft/default-snapshot'
const intent: weftContext.QuoteIntent = {
  chainId: 8453,
  sellToken: '0x4200000000000000000000000000000000000006',
  buyToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  sellAmount: 1_500_000_000_000_000_000n,
}
const source = weftContext.createSnapshotSource(contextSnapshot)
const apps: Record<string, weftContext.AppConfig> = {}
`,
  // Only `mySnapshots`: the embedded snapshot standing in for a host's own Snapshot[].
  snapshots: `
import { defaultSnapshot as contextSnapshot } from 'weft/default-snapshot'
const mySnapshots = contextSnapshot
`,
  // test/devnet's universe on a fresh anvil (WETH9, test tokens, the real Uniswap V2/V3 factories
  // and pools): the addresses and clients a devnet snippet starts from, and a WETH -> USDC intent.
  devnet: `
import { connectAnvil as contextConnect } from '../../test/devnet/anvil.js'
import { deployDevnet as contextDeploy } from '../../test/devnet/deployDevnet.js'
const contextAnvil = await contextConnect(process.env.WEFT_SNIPPET_RPC!)
const contextDevnet = await contextDeploy(contextAnvil)
const weth = contextDevnet.contracts.weth
const usdc = contextDevnet.tokens.USDC.address
const v2Factory = contextDevnet.contracts.uniswapV2Factory
const myV2Factory = v2Factory
const v3Factory = contextDevnet.contracts.uniswapV3Factory
const walletClient = contextAnvil.walletClients[0]!
const publicClient = contextAnvil.publicClient
const intent = { chainId: contextAnvil.chainId, sellToken: weth, buyToken: usdc, sellAmount: 10n ** 18n }
`,
  // A quote on that devnet for a funded trader who has not approved anything, and the trader's
  // wallet client (`wallet`, `walletClient`), address (`account`) and `publicClient`: what a fill snippet needs.
  quote: `
import * as weftContext from 'weft'
import { connectAnvil as contextConnect } from '../../test/devnet/anvil.js'
import { deployDevnet as contextDeploy } from '../../test/devnet/deployDevnet.js'
const contextAnvil = await contextConnect(process.env.WEFT_SNIPPET_RPC!)
const contextDevnet = await contextDeploy(contextAnvil)
const contextExecutor = await weftContext.deployExecutor({ walletClient: contextAnvil.walletClients[0]!, publicClient: contextAnvil.publicClient, chain: contextDevnet.chain })
const contextChain = { ...contextDevnet.chain, executor: contextExecutor }
const account = contextDevnet.accounts.traders[0]!
const walletClient = contextAnvil.walletClients[contextAnvil.accounts.findIndex((a) => a.address === account)]!
const wallet = walletClient
const publicClient = contextAnvil.publicClient
const quote = await weftContext.getQuote(
  { chainId: contextChain.id, sellToken: contextDevnet.tokens.USDC.address, buyToken: contextDevnet.tokens.WETH.address, sellAmount: 1_000_000_000n },
  weftContext.createRpcSource({ client: contextAnvil.publicClient, chain: contextChain }),
  { chains: [contextChain], sender: account },
)
`,
} as const
type ContextName = keyof typeof contexts

/** README.md and every markdown file under docs/ (not the generated docs/api). */
function markdownFiles(): string[] {
  const found = ['README.md']
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`
      if (entry.isDirectory()) {
        if (path !== 'docs/api') walk(path)
      } else if (entry.name.endsWith('.md')) found.push(path)
    }
  }
  walk('docs')
  return found.sort()
}

const CONTEXT_MARK = /^<!--\s*snippet:\s*(\w+)\s*-->$/

function extractSnippets(): Snippet[] {
  const snippets: Snippet[] = []
  for (const file of markdownFiles()) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n')
    for (let index = 0; index < lines.length; index++) {
      if (!/^```(ts|typescript)\s*$/.test(lines[index]!)) continue
      let previous = index - 1
      while (previous >= 0 && lines[previous]!.trim() === '') previous--
      const mark = previous >= 0 ? CONTEXT_MARK.exec(lines[previous]!.trim()) : null
      const context = (mark?.[1] ?? 'none') as ContextName
      if (!(context in contexts)) throw new Error(`${file}:${previous + 1}: unknown snippet context "${context}"`)
      const end = lines.indexOf('```', index + 1)
      if (end < 0) throw new Error(`${file}:${index + 1}: unclosed code fence`)
      const number = snippets.filter((s) => s.file === file).length + 1
      snippets.push({ name: `${file.replace(/[/.]/g, '_')}_${number}`, file, line: index + 2, context, code: lines.slice(index + 1, end).join('\n') })
      index = end
    }
  }
  return snippets
}

const snippets = extractSnippets()
const workDir = join(root, '.tmp', `snippets-${process.pid}`)
const preludeLines = (context: ContextName) => contexts[context].split('\n').length

/** Writes every snippet (prelude + code, `export {}` to make it a module) and a strict tsconfig. */
function writeSnippets(): void {
  rmSync(workDir, { recursive: true, force: true })
  mkdirSync(workDir, { recursive: true })
  for (const snippet of snippets) writeFileSync(join(workDir, `${snippet.name}.ts`), `${contexts[snippet.context]}\n${snippet.code}\nexport {}\n`)
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
      allowImportingTsExtensions: false,
      // A reader's `import ... from 'weft'`, resolved to the sources this commit publishes.
      paths: { weft: [relative(workDir, join(root, 'src/index.ts'))], 'weft/default-snapshot': [relative(workDir, join(root, 'src/defaultSnapshot.ts'))] },
    },
    include: ['*.ts'],
  }
  writeFileSync(join(workDir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
}

/**
 * Type errors per snippet, with the markdown line each points at. Only the snippet files are
 * checked: the checker reads of src/ what they use, and `npm run typecheck` checks src/ itself
 * under the stricter project config (checking all of it again here cost ~16 s of CPU, past the
 * test's timeout on a loaded machine).
 */
function typeErrors(): string[] {
  const configPath = join(workDir, 'tsconfig.json')
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)) } })!
  const program = ts.createProgram(config.fileNames, config.options)
  const snippetFiles = program.getSourceFiles().filter((file) => snippets.some((s) => file.fileName.endsWith(`/${s.name}.ts`)))
  expect(snippetFiles).toHaveLength(snippets.length)
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...snippetFiles.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
    ...program.getGlobalDiagnostics(),
  ]
  const errors: string[] = []
  for (const diagnostic of diagnostics) {
    const fileName = diagnostic.file?.fileName ?? ''
    const snippet = snippets.find((s) => fileName.endsWith(`/${s.name}.ts`))
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    if (!snippet || diagnostic.start === undefined) {
      errors.push(`${fileName}: ${message}`)
      continue
    }
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start)
    const inSnippet = line - preludeLines(snippet.context)
    errors.push(inSnippet >= 0 ? `${snippet.file}:${snippet.line + inSnippet}: ${message}` : `${snippet.file}:${snippet.line} (prelude "${snippet.context}" line ${line + 1}): ${message}`)
  }
  return errors
}

/** Runs one snippet under tsx with its own anvil; resolves with its exit code and output. */
async function runSnippet(snippet: Snippet): Promise<{ code: number | null; output: string }> {
  const anvil = await startAnvil(snippet.context === 'none' ? { chainId: 8453 } : {})
  try {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), ['--tsconfig', join(workDir, 'tsconfig.json'), join(workDir, `${snippet.name}.ts`)], {
      cwd: workDir,
      env: {
        ...process.env,
        WEFT_SNIPPET_RPC: anvil.rpcUrl,
        BASE_RPC_URL: anvil.rpcUrl,
        // anvil's first default account (a public test key), as a deployer or trader would set it.
        PRIVATE_KEY: ANVIL_ACCOUNTS[0].privateKey,
        DEPLOYER_KEY: ANVIL_ACCOUNTS[0].privateKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    return { code, output }
  } finally {
    await anvil.stop()
  }
}

describe('documentation snippets', () => {
  beforeAll(writeSnippets)
  afterAll(() => rmSync(workDir, { recursive: true, force: true }))

  it('finds the snippets of README.md and docs/', () => {
    expect(snippets.filter((s) => s.file === 'README.md').length).toBeGreaterThanOrEqual(2)
    expect(new Set(snippets.map((s) => s.file)).size).toBeGreaterThanOrEqual(8)
  })

  it('compiles every snippet under --strict', () => {
    expect(typeErrors()).toEqual([])
  })

  // Concurrent (vitest's maxConcurrency, 5): each snippet is a process of its own on its own anvil.
  it.concurrent.each(snippets.map((s) => [`${s.file}:${s.line} (${s.context})`, s] as const))('runs %s to completion', async (_label, snippet) => {
    const { code, output } = await runSnippet(snippet)
    expect(code, `exit ${code}, output:\n${output.slice(-3000)}`).toBe(0)
  })
})

describe('examples/devnet.ts', () => {
  // The devnet example imports nothing from the tests: it deploys its own tokens, the real
  // UniswapV2Factory and the executor, fills four quotes and prints EXACT when every party got
  // exactly what the quote said (exit code 1 otherwise), and each fill's gas beside its estimate,
  // which must be within [1.0, 1.3] of it (decisions.md §8). Its pairs are freshly minted, so
  // their price accumulators are zero; a V2 swap writes them (from zero: ~34k more gas) only when
  // its block is in a later second than the pair's last update. On a chain every block is, so
  // weft always prices those writes, and the example sets anvil to one second per block.
  it('runs on a fresh anvil and fills every quote exactly, gas within [1.0, 1.3] of the estimate', async () => {
    const anvil = await startAnvil()
    try {
      const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'examples/devnet.ts'), '--rpc', anvil.rpcUrl], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
      expect(code, output).toBe(0)
      expect(output.match(/ EXACT$/gm)?.length, output).toBe(4)
      const fills = [...output.matchAll(/gas (\d+) \(estimate (\d+)\)/g)].map(([, used, estimate]) => Number(estimate) / Number(used))
      expect(fills.length, output).toBe(4)
      for (const ratio of fills) {
        expect(ratio, output).toBeGreaterThanOrEqual(1)
        expect(ratio, output).toBeLessThanOrEqual(1.3)
      }
      const source = readFileSync(join(root, 'examples/devnet.ts'), 'utf8')
      expect(source).not.toMatch(/from '\.\.\/test\//)
    } finally {
      await anvil.stop()
    }
  })
})
