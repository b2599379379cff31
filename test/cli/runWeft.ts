// Runs the weft CLI from source as a child process (node + tsx on src/cli/main.ts, what `npm run quote` does).
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What one run printed and its exit code. */
export type CliRun = { code: number; stdout: string; stderr: string }

/** Runs `weft <args>` and collects its output; resolves on any exit code, rejects only when it could not run. */
export function runWeft(args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error)
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
    })
  })
}
