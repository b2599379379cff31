// `npm run check:package` — what a consumer of the published package gets, checked after `npm run build`:
//   size     each budget of .size-limit.json, measured the way size-limit's small-lib preset does
//            (rolldown bundle of the file, minified, tree-shaken, `ignore`d packages left external,
//            then gzip -9 or brotli -11). The budget holds what importing the file loads; chunks
//            reached only through a dynamic import() (the RPC source's lens and probe bytecode) are
//            printed beside it. size-limit itself needs Node >= 22.19 (it imports `glob`
//            from node:fs/promises); this runs on Node 20 and gives the same bundle. A budget with
//            `import` (size-limit's field, e.g. "{ getQuote }") measures only what a bundler keeps
//            when an app imports those names: what a wallet that never follows the chain ships.
//   publint  `publint --strict` on the packed tarball: package.json fields against the files.
//   attw     `attw --pack .`: every entry point resolves to the right types under node10, node16
//            (ESM and CJS) and bundler resolution.
//
//   deps     every package the built files import (dist/*.js, *.cjs) is a dependency or peer
//            dependency of package.json, and nothing is listed there that dist never imports (viem is
//            a peer: an app brings its own 2.x and gets one copy); a LICENSE file ships.
//
//   tsx scripts/checkPackage.ts             all four
//   tsx scripts/checkPackage.ts size        only the named checks (size, publint, attw, deps)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'rolldown'

/** One entry of .size-limit.json (the fields this script understands). */
type SizeCheck = {
  name?: string
  path: string
  limit: string
  gzip?: boolean
  brotli?: boolean
  ignore?: string[]
  /** Only these exports, as size-limit writes them: `{ getQuote, listChains }`. */
  import?: string
}

const root = fileURLToPath(new URL('..', import.meta.url))
const checks = { size: checkSize, publint: checkPublint, attw: checkAttw, deps: checkDependencies } as const
type CheckName = keyof typeof checks

const wanted = process.argv.slice(2)
for (const name of wanted) {
  if (!(name in checks)) {
    console.error(`unknown check "${name}"; choose from ${Object.keys(checks).join(', ')}`)
    process.exit(2)
  }
}

let failed = false
for (const name of (wanted.length > 0 ? wanted : Object.keys(checks)) as CheckName[]) {
  console.log(`\n== ${name}`)
  if (!(await checks[name]())) failed = true
}
process.exit(failed ? 1 : 0)

async function checkSize(): Promise<boolean> {
  const config = JSON.parse(readFileSync(`${root}/.size-limit.json`, 'utf8')) as SizeCheck[]
  let ok = true
  for (const check of config) {
    const file = `${root}/${check.path}`
    if (!existsSync(file)) {
      console.log(`${check.path} does not exist: run \`npm run build\` first`)
      ok = false
      continue
    }
    const limit = parseBytes(check.limit)
    const { entry, lazy } = await bundle(check.import === undefined ? file : importingEntry(file, check.import), check.ignore ?? [])
    const measure = (code: Buffer): [number, string] =>
      check.gzip === true
        ? [gzipSync(code, { level: 9 }).length, 'minified and gzipped']
        : check.brotli === false
          ? [code.length, 'minified']
          : [brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length, 'minified and brotlied']
    // The budget is what importing the file loads. Chunks behind a dynamic import() (the RPC
    // source's lenses and probe, fetched on its first read) are measured and printed beside it.
    const [size, how] = measure(entry)
    const [lazySize] = lazy.length > 0 ? measure(lazy) : [0]
    const pass = size <= limit
    if (!pass) ok = false
    const external = check.ignore?.length ? `, without ${check.ignore.join(', ')}` : ''
    const deferred = lazy.length > 0 ? `; + ${formatBytes(lazySize)} loaded on demand (dynamic imports)` : ''
    const names = check.import === undefined ? '' : ` ${check.import}`
    console.log(`${pass ? 'ok  ' : 'FAIL'} ${check.name ?? check.path}${names}: ${formatBytes(size)} ${how}${external} (limit ${formatBytes(limit)})${deferred}`)
  }
  return ok
}

/** A module that re-exports only `names` (`{ a, b }`) of `file`, written under node_modules/.cache so the bundler tree-shakes the rest. */
function importingEntry(file: string, names: string): string {
  const directory = `${root}/node_modules/.cache/weft-size`
  mkdirSync(directory, { recursive: true })
  const entry = `${directory}/${names.replace(/[^A-Za-z0-9]+/g, '_')}.js`
  writeFileSync(entry, `export ${names} from ${JSON.stringify(file)}\n`)
  return entry
}

/** The file bundled with its own imports, minified and tree-shaken, `ignore`d packages (and their subpaths) external. */
async function bundle(file: string, ignore: readonly string[]): Promise<{ entry: Buffer; lazy: Buffer }> {
  const escaped = ignore.map((name) => name.replace(/[|\\{}()[\]^$+*?.-]/g, '\\$&'))
  const output = await build({
    input: file,
    cwd: root,
    external: escaped.length > 0 ? new RegExp(`^(${escaped.join('|')})($|/)`) : undefined,
    treeshake: true,
    write: false,
    output: { format: 'esm', minify: true, comments: { annotation: false } },
    onLog(_level, log) {
      // An unresolved import would silently shrink the bundle.
      if (log.code === 'UNRESOLVED_IMPORT') throw new Error(`unresolved import in ${file}: ${log.message}`)
    },
  })
  const chunks = output.output.filter((item) => item.type === 'chunk')
  // The entry and every chunk it imports statically; the rest is reached only through import().
  const eager = new Set<string>()
  const visit = (name: string) => {
    if (eager.has(name)) return
    eager.add(name)
    for (const imported of chunks.find((c) => c.fileName === name)?.imports ?? []) visit(imported)
  }
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName)
  const code = (list: typeof chunks) => Buffer.concat(list.map((chunk) => Buffer.from(chunk.code)))
  return { entry: code(chunks.filter((c) => eager.has(c.fileName))), lazy: code(chunks.filter((c) => !eager.has(c.fileName))) }
}

function checkPublint(): boolean {
  return run('publint', ['--strict'])
}

function checkAttw(): boolean {
  return run('attw', ['--pack', '.'])
}

function run(bin: string, args: string[]): boolean {
  const result = spawnSync(`${root}/node_modules/.bin/${bin}`, args, { cwd: root, stdio: 'inherit' })
  if (result.error) console.log(`${bin} did not start: ${result.error.message}`)
  return result.status === 0
}

/** size-limit's units: kB = 1000 B, KiB = 1024 B. */
function parseBytes(text: string): number {
  const match = /^(\d+(?:\.\d+)?) *(?:([kmg])?(i)?b)?$/i.exec(text.trim())
  if (!match) throw new Error(`.size-limit.json: cannot read limit "${text}"`)
  const power = match[2] ? 'kmg'.indexOf(match[2].toLowerCase()) + 1 : 0
  return Math.floor(Number(match[1]) * (match[3] ? 1024 : 1000) ** power)
}

function formatBytes(size: number): string {
  return size >= 1000 ? `${(size / 1000).toFixed(2)} kB` : `${size} B`
}

/** The package name of a bare import specifier (`viem/chains` -> `viem`, `@scope/a/b` -> `@scope/a`), or null for a relative or built-in one. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return null
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

function checkDependencies(): boolean {
  const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
    dependencies?: Record<string, string>
    peerDependencies?: Record<string, string>
  }
  const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})])
  const files = readdirSync(`${root}/dist`).filter((name) => /\.(c?js)$/.test(name))
  if (files.length === 0) {
    console.log('dist/ holds no built files: run `npm run build` first')
    return false
  }
  const imported = new Set<string>()
  // Static imports, re-exports, require() and dynamic import() of the bundled output.
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([@\w.][\w./@-]*)["']/g
  for (const file of files) {
    for (const match of readFileSync(`${root}/dist/${file}`, 'utf8').matchAll(pattern)) {
      const name = packageOf(match[1]!)
      if (name) imported.add(name)
    }
  }
  const undeclared = [...imported].filter((name) => !declared.has(name)).sort()
  const unused = [...declared].filter((name) => !imported.has(name)).sort()
  const pinnedViem = manifest.dependencies?.viem !== undefined
  const license = existsSync(`${root}/LICENSE`)
  const ok = undeclared.length === 0 && unused.length === 0 && !pinnedViem && license
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} dist imports ${[...imported].sort().join(', ') || 'no package'}; ` +
      `dependencies ${JSON.stringify(manifest.dependencies ?? {})}, peerDependencies ${JSON.stringify(manifest.peerDependencies ?? {})}` +
      (undeclared.length > 0 ? `; imported but not declared: ${undeclared.join(', ')}` : '') +
      (unused.length > 0 ? `; declared but never imported: ${unused.join(', ')}` : '') +
      (pinnedViem ? '; viem must be a peer dependency, not a dependency' : '') +
      (license ? '; LICENSE present' : '; LICENSE missing'),
  )
  return ok
}
