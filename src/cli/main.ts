// The `weft` executable (dist/cli.js, `npm run quote`). Everything it does is in runCli;
// this file only connects it to the process: arguments in, text out, the exit code.
// No node:* imports: the global `process` is all it needs.
import { runCli } from './runCli.js'

type HostProcess = {
  argv: string[]
  exitCode?: number | string | undefined
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

const host = (globalThis as unknown as { process: HostProcess }).process

// exitCode, not process.exit(): the output of a pipe is flushed before the process ends.
void runCli(host.argv.slice(2), {
  out: (text) => host.stdout.write(`${text}\n`),
  err: (text) => host.stderr.write(`${text}\n`),
}).then((code) => {
  host.exitCode = code
})
