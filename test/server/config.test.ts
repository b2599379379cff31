// Server configuration: the JSON file, the environment variables over it, the apps
// file, the errors that name a bad setting, and the runnable entry (main.ts) with
// its SIGHUP reload and clean shutdown.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { createServer, loadServerConfig, resolveServerConfig } from '../../examples/server/index.js'
import { QuoteError } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'weft-server-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const write = (name: string, value: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2))
  return path
}

const recipient = '0x00000000000000000000000000000000000fee01'

/** The QuoteError a call throws or rejects with. */
async function errorOf(run: () => unknown): Promise<QuoteError> {
  try {
    await run()
  } catch (error) {
    expect(error).toBeInstanceOf(QuoteError)
    return error as QuoteError
  }
  throw new Error('expected a QuoteError')
}

describe('loadServerConfig', () => {
  it('reads the file, resolves the apps file beside it, and lets env variables win', async () => {
    write('apps.json', { apps: { 'acme-1': { fees: { feeBps: 20, feeRecipient: recipient }, rateLimit: { limit: 900, windowSeconds: 60 } } } })
    const file = write('server.json', {
      port: 9000,
      rateLimits: { anonymous: { limit: 5, windowSeconds: 10 } },
      appsFile: 'apps.json',
      liquidity: { source: 'rpc', rpcUrls: { '1': 'https://eth.example' }, timeoutMs: 3000 },
      treasuries: { '8453': recipient },
    })
    const { config, appsFile } = await loadServerConfig({
      configFile: file,
      env: {
        WEFT_PORT: '9100',
        WEFT_HOST: '0.0.0.0',
        WEFT_RPC_URL_8453: 'https://base.example',
        WEFT_REDIS_URL: 'redis://cache:6379',
        WEFT_RATE_LIMIT_SELF_CHOSEN: '50/30',
        WEFT_TRUST_PROXY: '2',
        WEFT_CORS_ORIGINS: 'https://a.example, https://b.example',
      },
    })
    expect(appsFile).toBe(join(dir, 'apps.json'))
    expect(config).toEqual({
      port: 9100,
      host: '0.0.0.0',
      rateLimits: { anonymous: { limit: 5, windowSeconds: 10 }, selfChosen: { limit: 50, windowSeconds: 30 } },
      liquidity: { source: 'rpc', rpcUrls: { '1': 'https://eth.example', '8453': 'https://base.example' }, timeoutMs: 3000 },
      treasuries: { '8453': recipient },
      redis: { url: 'redis://cache:6379' },
      trustProxy: 2,
      corsOrigins: ['https://a.example', 'https://b.example'],
      apps: { 'acme-1': { fees: { feeBps: 20, feeRecipient: recipient }, rateLimit: { limit: 900, windowSeconds: 60 } } },
    })
    const resolved = resolveServerConfig(config)
    expect(resolved.rateLimits).toEqual({
      anonymous: { limit: 5, windowMs: 10_000 },
      'self-chosen': { limit: 50, windowMs: 30_000 },
      issued: { limit: 600, windowMs: 60_000 },
    })
    expect(resolved.apps.get('acme-1')).toEqual({
      name: null,
      fees: { feeBps: 20, feeRecipient: recipient },
      rule: { limit: 900, windowMs: 60_000 },
      apiKeySha256: new Set(),
      allowedOrigins: new Set(),
    })
  })

  it('with nothing set: the embedded snapshot, memory limits, port 8080 on 127.0.0.1', async () => {
    const { config, appsFile } = await loadServerConfig({ env: {} })
    expect(config).toEqual({})
    expect(appsFile).toBeNull()
    const resolved = resolveServerConfig(config)
    expect([resolved.host, resolved.port, resolved.liquidity, resolved.redis]).toEqual(['127.0.0.1', 8080, { source: 'snapshot' }, null])
  })

  it('a snapshot file replaces the embedded snapshot', async () => {
    const file = write('snapshot.json', [{ chainId: 8453, blockNumber: 7, tokens: [], pools: [] }])
    const { config } = await loadServerConfig({ env: { WEFT_SNAPSHOT_FILE: file } })
    expect(config.liquidity).toEqual({ source: 'snapshot', snapshots: [{ chainId: 8453, blockNumber: 7, tokens: [], pools: [] }] })
    // Only chain 8453 is served: Ethereum is then listed as not supported.
    const app = await createServer({ ...config, port: 0, log: () => {}, defaultMetrics: false })
    try {
      const { url } = await app.listen()
      expect(await (await fetch(`${url}/v1/chains`)).json()).toEqual({ chains: [{ id: 8453, name: 'Base' }] })
    } finally {
      await app.close()
    }
  })

  it('WEFT_LIQUIDITY=live: the nodes, discovery blocks and checkpoint directory from the environment', async () => {
    const { config } = await loadServerConfig({
      env: { WEFT_LIQUIDITY: 'live', WEFT_RPC_URL_8453: 'http://127.0.0.1:8545', WEFT_LIVE_FROM_BLOCK_8453: '1000', WEFT_LIVE_CHECKPOINT_DIR: dir },
    })
    expect(config.liquidity).toEqual({ source: 'live', rpcUrls: { '8453': 'http://127.0.0.1:8545' }, fromBlocks: { '8453': 1000 }, checkpointDir: dir })
    expect(resolveServerConfig(config).liquidity.source).toBe('live')
  })

  it('the example files in examples/server load and pass validation', async () => {
    const { config, appsFile } = await loadServerConfig({ configFile: 'examples/server/server.example.json', env: {} })
    expect(appsFile).toMatch(/examples\/server\/apps\.example\.json$/)
    const resolved = resolveServerConfig(config)
    expect([...resolved.apps.keys()]).toEqual(['acme-wallet-3f9c2e71', 'partner-bot-8d41b0aa'])
    expect(resolved.apps.get('partner-bot-8d41b0aa')?.fees).toEqual({ serviceFeeBps: 2.5 })
  })

  it('names the bad setting', async () => {
    const cases: [() => unknown, RegExp][] = [
      [() => loadServerConfig({ configFile: write('typo.json', { rateLimit: {} }), env: {} }), /^Invalid server config: rateLimit is not a setting/],
      [() => loadServerConfig({ configFile: write('broken.json', '{ "port": '), env: {} }), /^Invalid server config: config file is not valid JSON/],
      [() => loadServerConfig({ configFile: join(dir, 'missing.json'), env: {} }), /^Invalid server config: config file cannot be read/],
      [() => loadServerConfig({ env: { WEFT_RATE_LIMIT_ANONYMOUS: 'lots' } }), /^Invalid server config: WEFT_RATE_LIMIT_ANONYMOUS must be "<limit>\/<windowSeconds>"/],
      [() => loadServerConfig({ env: { WEFT_LIQUIDITY: 'graph' } }), /^Invalid server config: WEFT_LIQUIDITY must be "snapshot", "rpc" or "live"/],
      [() => loadServerConfig({ env: { WEFT_APPS_FILE: write('bad-apps.json', { apps: { 'a-1': { fees: { feeBps: 20 } } } }) } }), /feeRecipient is required with feeBps/],
      [() => resolveServerConfig({ rateLimits: { anonymous: { limit: 0, windowSeconds: 60 } } }), /^Invalid server config: rateLimits\.anonymous\.limit must be an integer/],
      [() => resolveServerConfig({ apps: { 'a-1': { fees: { feeBps: 1001, feeRecipient: recipient } } } }), /apps\["a-1"\]\.fees\.feeBps must be an integer from 0 to 1000/],
      [() => resolveServerConfig({ apps: { 'a-1': { fees: { serviceFeeBps: 1.0001 } } } }), /serviceFeeBps must be a number from 0 to 1000 with at most 3 decimals/],
      [() => resolveServerConfig({ apps: { 'a-1': { fees: { feeBps: 5, feeRecipient: '0x12' } } } }), /feeRecipient must be an address/],
      [() => resolveServerConfig({ apps: { 'a-1': { apiKeys: ['short'] } } }), /apps\["a-1"\]\.apiKeys\[0\] must be 16 to 256 printable ASCII characters/],
      [() => resolveServerConfig({ apps: { 'a-1': { apiKeySha256: ['abc'] } } }), /apiKeySha256\[0\] must be a SHA-256 digest/],
      [() => resolveServerConfig({ apps: { 'a-1': { apiKeys: ['same-secret-123456'] }, 'b-2': { apiKeys: ['same-secret-123456'] } } }), /apps\["b-2"\]\.apiKeys repeats a key of app "a-1"/],
      [() => resolveServerConfig({ apps: { 'a-1': { allowedOrigins: ['https://wallet.example/path'] } } }), /allowedOrigins\[0\] must be an origin/],
      [() => resolveServerConfig({ redis: { url: 'localhost:6379' } }), /^Invalid server config: redis\.url must be a redis:\/\/ or rediss:\/\/ URL/],
      [() => resolveServerConfig({ liquidity: { source: 'rpc', rpcUrls: {} } }), /liquidity\.rpcUrls must map at least one chain id/],
      [() => resolveServerConfig({ liquidity: { source: 'live', rpcUrls: { '8453': 'ftp://node' } } }), /liquidity\.rpcUrls\["8453"\] must be an http\(s\) or ws\(s\) URL/],
      [() => resolveServerConfig({ liquidity: { source: 'live', rpcUrls: { '8453': 'http://node' }, fromBlocks: { '1': 5 } } }), /liquidity\.fromBlocks\["1"\] must be a block number of a chain in rpcUrls/],
      [() => resolveServerConfig({ liquidity: { source: 'live', rpcUrls: { '8453': 'http://node' }, tracking: { mode: 'tokens' } as never } }), /liquidity\.tracking must be/],
      [() => resolveServerConfig({ liquidity: { source: 'live', rpcUrls: { '8453': 'http://node' }, checkpointEveryBlocks: 0 } }), /liquidity\.checkpointEveryBlocks must be a positive integer/],
      [() => createServer({ liquidity: { source: 'rpc', rpcUrls: { '42161': 'https://arb.example' } } }), /liquidity\.rpcUrls\[42161\] names chain 42161, which is not an active chain/],
      [() => createServer({ treasuries: { '999': recipient } }), /treasuries\[999\] names a chain weft does not know/],
    ]
    for (const [run, message] of cases) {
      const error = await errorOf(run)
      expect(error.statusCode).toBe(500)
      expect(error.message).toMatch(message)
    }
  })
})

describe('main.ts', () => {
  /** Starts main.ts as a child process; resolves with its URL once it logs "listening". */
  function runMain(args: string[], env: Record<string, string>) {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const lines: Record<string, unknown>[] = []
    const waiters: { test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = []
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as Record<string, unknown>
      lines.push(line)
      for (const waiter of [...waiters]) if (waiter.test(line)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(line)
    })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const waitFor = (test: (line: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const seen = lines.find(test)
        if (seen) return resolve(seen)
        waiters.push({ test, resolve })
        exited.then((code) => reject(new Error(`main.ts exited with ${code}: ${stderr}`)))
      })
    return { child, lines, waitFor, exited, stderr: () => stderr }
  }

  it('serves, reloads the apps file on SIGHUP, and exits 0 on SIGTERM', async () => {
    const apps = write('main-apps.json', { apps: {} })
    const config = write('main.json', { port: 0, appsFile: 'main-apps.json', rateLimits: { selfChosen: { limit: 7, windowSeconds: 60 } } })
    const main = runMain(['--config', config], { WEFT_PORT: '0' })
    try {
      const listening = await main.waitFor((line) => line.msg === 'listening')
      const url = listening.url as string
      expect(listening).toMatchObject({ liquidity: 'snapshot', rateLimiter: 'memory', chains: [1, 8453] })
      const before = await fetch(`${url}/v1/chains`, { headers: { 'x-app-id': 'late-app' } })
      expect(before.headers.get('ratelimit-limit')).toBe('7')

      writeFileSync(apps, JSON.stringify({ apps: { 'late-app': { rateLimit: { limit: 77, windowSeconds: 60 }, apiKeys: ['late-app-secret-93e1c4'] } } }))
      main.child.kill('SIGHUP')
      await main.waitFor((line) => line.msg === 'issued apps replaced')
      const after = await fetch(`${url}/v1/chains`, { headers: { 'x-app-id': 'late-app', 'x-api-key': 'late-app-secret-93e1c4' } })
      expect(after.headers.get('ratelimit-limit')).toBe('77')
      // Log lines reach the pipe after the response: wait for the second one.
      await main.waitFor((line) => line.msg === 'request' && line.appIdKind === 'issued')
      expect(main.lines.filter((line) => line.msg === 'request').map((line) => [line.appIdKind, line.appId])).toEqual([
        ['self-chosen', 'late-app'],
        ['issued', 'late-app'],
      ])

      main.child.kill('SIGTERM')
      expect(await main.exited).toBe(0)
    } finally {
      main.child.kill('SIGKILL')
    }
  })

  it('exits 1 with the reason when the configuration is wrong', async () => {
    const main = runMain([], { WEFT_PORT: '0', WEFT_RATE_LIMIT_ISSUED: '0/60' })
    expect(await main.exited).toBe(1)
    expect(JSON.parse(main.stderr())).toMatchObject({ level: 'error', msg: 'startup failed', error: expect.stringMatching(/rateLimits\.issued\.limit/) })
  })
})
