// A real redis-server for the server tests: started on a free port, no persistence.
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'

/** The redis-server binary: `REDIS_SERVER`, else whatever `redis-server` is on PATH (CI: apt-get install redis-server). */
export const REDIS_BINARY = process.env.REDIS_SERVER ?? 'redis-server'

/** A running redis-server. */
export type RedisProcess = {
  url: string
  port: number
  /** Stops the server (SIGTERM) and waits for it to exit. Idempotent. */
  stop(): Promise<void>
  /** Starts it again on the same port (after `stop`), with empty data. */
  restart(): Promise<void>
}

const live = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL')
})

/** A port nothing listens on right now. */
export async function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

function launch(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()]
  const child = spawn(REDIS_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  live.add(child)
  child.once('exit', () => live.delete(child))
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('timed out waiting for "Ready to accept connections"')), 10_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        child.stdout?.off('data', onData)
        child.stdout?.resume()
        child.off('exit', onExit)
        resolve(child)
      }
    }
    const onExit = (code: number | null) => fail(new Error(`exited with ${code}`))
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`redis-server did not start on port ${port}: ${error.message}\n${output.slice(-2000)}`))
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.once('error', (error) => fail(error))
    child.once('exit', onExit)
  })
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/**
 * Starts `redis-server --port N --save '' --appendonly no` on a free port.
 *
 * @example
 * const redis = await startRedis()
 * const app = await startServer({ port: 0, redis: { url: redis.url } })
 */
export async function startRedis(): Promise<RedisProcess> {
  let child: ChildProcess | undefined
  let port = 0
  let lastError: unknown
  // The free port can be taken between the probe and the launch: try a few.
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await getFreePort()
    child = await launch(port).catch((error) => {
      lastError = error
      return undefined
    })
  }
  if (!child) throw lastError
  let current: ChildProcess = child
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => stopChild(current),
    async restart() {
      await stopChild(current)
      current = await launch(port)
    },
  }
}
