// Runs the weft CLI from source as a child process: src/cli/main.ts bundled once per test process
// with esbuild (what tsup does for dist/cli.js, the `weft` users install), or through tsx (what
// `npm run quote` does). A tsx child compiles the whole library as it loads: about 1.2 s of CPU
// against 0.1–0.2 s for the bundle, so on a loaded machine a handful of tsx children side by side
// ran past a minute. Tests use the bundle; one runs the tsx way to keep `npm run quote` covered.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What one run printed and its exit code. */
export type CliRun = { code: number; stdout: string; stderr: string }

let bundled: Promise<string> | undefined

/**
 * The node arguments that start the CLI (then its own arguments): the bundle, built on the first
 * call of this process into a temporary directory removed when the process exits.
 *
 * @example
 * spawn(process.execPath, [...(await weftNodeArgs()), 'quote', '--help'])
 */
export async function weftNodeArgs(): Promise<string[]> {
  bundled ??= (async () => {
    const directory = mkdtempSync(join(tmpdir(), 'weft-cli-'))
    process.on('exit', () => rmSync(directory, { recursive: true, force: true }))
    const outfile = join(directory, 'cli.mjs')
    // Dependencies bundled too: the file runs from outside the project's node_modules.
    await build({ entryPoints: [join(ROOT, 'src/cli/main.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'warning' })
    return outfile
  })()
  return [await bundled]
}

/**
 * Runs `weft <args>` and collects its output; resolves on any exit code, rejects only when it
 * could not run. `via: 'tsx'` runs src/cli/main.ts through tsx, as `npm run quote` does.
 *
 * @example
 * const { code, stdout } = await runWeft(['chains'])
 */
export async function runWeft(args: readonly string[], { via = 'bundle' }: { via?: 'bundle' | 'tsx' } = {}): Promise<CliRun> {
  const start = via === 'tsx' ? ['--import', 'tsx', 'src/cli/main.ts'] : await weftNodeArgs()
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...start, ...args], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(new Error(`weft ${args.join(' ')} did not run to its end (${error.killed ? 'killed after 60 s' : (error.signal ?? error.message)}); stderr: ${stderr}`, { cause: error }))
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
    })
  })
}
