// The `weft` executable (dist/cli.js, `npm run quote`). Everything it does is in runCli;
// this file only connects it to the process: arguments in, text out, files, the user's stop,
// the exit code. No node:* imports: the global `process` is all it needs (files come through
// process.getBuiltinModule, Node >= 20.16).
import { runCli } from './runCli.js'

type FileSystem = {
  promises: {
    readFile(path: string, encoding: 'utf8'): Promise<string>
    writeFile(path: string, text: string, encoding: 'utf8'): Promise<void>
  }
}

type HostProcess = {
  argv: string[]
  exitCode?: number | string | undefined
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  stdin: { on(event: 'end', listener: () => void): unknown; off(event: 'end', listener: () => void): unknown; resume(): unknown; pause(): unknown }
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
  getBuiltinModule?: (name: 'node:fs') => FileSystem
}

const host = (globalThis as unknown as { process: HostProcess }).process
const files = host.getBuiltinModule?.('node:fs').promises

// exitCode, not process.exit(): the output of a pipe is flushed before the process ends.
void runCli(host.argv.slice(2), {
  out: (text) => host.stdout.write(`${text}\n`),
  err: (text) => host.stderr.write(`${text}\n`),
  ...(files
    ? {
        readFile: (path: string) => files.readFile(path, 'utf8'),
        writeFile: (path: string, text: string) => files.writeFile(path, text, 'utf8'),
      }
    : {}),
  onStop: (listener) => {
    // Ctrl-C, a TERM, or the end of the input (Ctrl-D, a closed pipe). Reading stdin keeps the
    // process alive, so it is read only while someone listens, and released after.
    const signals = ['SIGINT', 'SIGTERM'] as const
    for (const signal of signals) host.on(signal, listener)
    host.stdin.on('end', listener)
    host.stdin.resume()
    return () => {
      for (const signal of signals) host.off(signal, listener)
      host.stdin.off('end', listener)
      host.stdin.pause()
    }
  },
}).then((code) => {
  host.exitCode = code
})
