import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import {
  type Address,
  type Chain,
  type Hex,
  type HttpTransport,
  type JsonRpcAccount,
  type PublicClient,
  type TestClient,
  type WalletClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
} from 'viem'

/** Absolute path of the anvil binary shipped by `@foundry-rs/anvil` (launched directly, not through the npm wrapper). */
export const ANVIL_BINARY = fileURLToPath(
  new URL('../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url),
)

/** Chain id used when `startAnvil` is given none (anvil's own default). */
export const DEFAULT_DEVNET_CHAIN_ID = 31337

/**
 * anvil's default accounts (mnemonic `test test ... junk`), unlocked on every
 * anvil and funded with 10,000 ETH. Public test keys: never use them elsewhere.
 */
export const ANVIL_ACCOUNTS = [
  { address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
  { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
  { address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' },
  { address: '0x90f79bf6eb2c4f870365e785982e1f101e93b906', privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' },
  { address: '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65', privateKey: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a' },
  { address: '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc', privateKey: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba' },
  { address: '0x976ea74026e726554db657fa54763abd0c3a0aa9', privateKey: '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e' },
  { address: '0x14dc79964da2c08b23698b3d3cc7ca32193d9955', privateKey: '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356' },
  { address: '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f', privateKey: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97' },
  { address: '0xa0ee7a142d267c1f36714e4a8f75612f20a79720', privateKey: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6' },
] as const satisfies readonly { address: Address; privateKey: Hex }[]

/** One of anvil's unlocked accounts. Address lowercase. */
export type AnvilAccount = (typeof ANVIL_ACCOUNTS)[number]

/** A wallet client bound to one unlocked anvil account (transactions go out as `eth_sendTransaction`). */
export type DevnetWalletClient = WalletClient<HttpTransport, Chain, JsonRpcAccount>

/** Options of {@link startAnvil}. */
export type StartAnvilOptions = {
  /** Chain id of the devnet. Default {@link DEFAULT_DEVNET_CHAIN_ID}. */
  chainId?: number
  /** States kept in memory for calls at past blocks (`--prune-history`). Default 64. */
  pruneHistory?: number
  /** Extra command-line arguments for anvil. */
  args?: string[]
  /** How long to wait for the `Listening on` line, in ms. Default 10,000. */
  startTimeoutMs?: number
}

/** A running anvil and viem clients for it. Stop it with `stop()` (it is also killed when the test process exits). */
export type Anvil = {
  rpcUrl: string
  chainId: number
  /** The viem `Chain` describing the devnet (name `Devnet`, native ETH). */
  chain: Chain
  /** anvil's OS process id. */
  pid: number
  publicClient: PublicClient<HttpTransport, Chain>
  testClient: TestClient<'anvil', HttpTransport, Chain>
  /** The unlocked accounts, in anvil's order. */
  accounts: readonly AnvilAccount[]
  /** One wallet client per account, same order as `accounts`. */
  walletClients: readonly DevnetWalletClient[]
  /** The last ~64 KB anvil printed, for diagnostics. */
  output(): string
  /** `evm_snapshot`: an id to pass to `revert` once (ids are single use). */
  snapshot(): Promise<Hex>
  /** `evm_revert` to a snapshot, consuming its id. Throws when anvil refuses. */
  revert(id: Hex): Promise<void>
  /**
   * Takes a snapshot and returns a reusable checkpoint: `restore()` reverts to
   * it and immediately takes a fresh one, so it works in every `afterEach`.
   */
  checkpoint(): Promise<AnvilCheckpoint>
  /** Kills anvil and waits for it to exit. Idempotent. */
  stop(): Promise<void>
}

/** A state to return to any number of times (see {@link Anvil.checkpoint}). */
export type AnvilCheckpoint = {
  /** Reverts the chain to the checkpoint's state. */
  restore(): Promise<void>
}

const OUTPUT_LIMIT = 64 * 1024
const live = new Set<ChildProcess>()
let exitHooksInstalled = false

/**
 * Killing children is synchronous (a signal), so it is safe in an `exit`
 * handler. Terminating signals skip `exit`, so they are hooked too, and
 * re-raised when nothing else listens so the process still dies as it would have.
 */
function installExitHooks(): void {
  if (exitHooksInstalled) return
  exitHooksInstalled = true
  const killAll = () => {
    for (const child of live) child.kill('SIGKILL')
    live.clear()
  }
  process.on('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      killAll()
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal)
        process.kill(process.pid, signal)
      }
    }
    process.on(signal, onSignal)
  }
}

/**
 * Starts a fresh anvil on a free port and returns viem clients for it.
 * Start one per test file (anvil slows as its chain grows).
 *
 * @example
 * const anvil = await startAnvil({ chainId: 31337 })
 * const block = await anvil.publicClient.getBlockNumber()
 * await anvil.stop()
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<Anvil> {
  const chainId = options.chainId ?? DEFAULT_DEVNET_CHAIN_ID
  const args = [
    '--host', '127.0.0.1',
    '--port', '0',
    '--chain-id', String(chainId),
    '--prune-history', String(options.pruneHistory ?? 64),
    // State dumps of a full devnet exceed the default 2 MB request limit.
    '--no-request-size-limit',
    // `--silent` and `--quiet` also hide the `Listening on` line we need, so output is drained instead.
    ...(options.args ?? []),
  ]
  installExitHooks()
  const child = spawn(ANVIL_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  live.add(child)

  let output = ''
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8')
    if (output.length > 2 * OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT)
  }
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child)
      resolve()
    })
  })

  const port = await new Promise<number>((resolve, reject) => {
    const settle = (error?: Error, port?: number) => {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.off('error', onError)
      child.off('exit', onExit)
      child.stdout?.on('data', append)
      if (error) {
        child.kill('SIGKILL')
        reject(new Error(`anvil did not start: ${error.message}\n${output.slice(-4000)}`))
      } else resolve(port as number)
    }
    const onData = (chunk: Buffer) => {
      append(chunk)
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (match) settle(undefined, Number(match[1]))
    }
    const onError = (error: Error) => settle(error)
    const onExit = (code: number | null, signal: string | null) => settle(new Error(`exited with ${signal ?? code}`))
    const timer = setTimeout(
      () => settle(new Error('timed out waiting for "Listening on"')),
      options.startTimeoutMs ?? 10_000,
    )
    child.stdout?.on('data', onData)
    child.stderr?.on('data', append)
    child.on('error', onError)
    child.on('exit', onExit)
  })
  // After start, spawn errors (e.g. a failed kill) must not crash the test process.
  child.on('error', () => {})

  const rpcUrl = `http://127.0.0.1:${port}`
  let stopping: Promise<void> | undefined
  return buildAnvilHandle(rpcUrl, chainId, {
    pid: child.pid ?? -1,
    output: () => output.slice(-OUTPUT_LIMIT),
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 2_000)
        await exited
        clearTimeout(timer)
      })()
      return stopping
    },
  })
}

/**
 * Connects to an anvil someone else started (e.g. `npx anvil`), with the same
 * clients and helpers as {@link startAnvil}; `stop()` leaves that node running.
 *
 * @example
 * const anvil = await connectAnvil('http://127.0.0.1:8545')
 */
export async function connectAnvil(rpcUrl: string): Promise<Anvil> {
  const chainId = await createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) }).getChainId()
  return buildAnvilHandle(rpcUrl, chainId, { pid: -1, output: () => '', stop: async () => {} })
}

function buildAnvilHandle(
  rpcUrl: string,
  chainId: number,
  lifecycle: Pick<Anvil, 'pid' | 'output' | 'stop'>,
): Anvil {
  const chain = defineChain({
    id: chainId,
    name: 'Devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  })
  const transport = http(rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 10 })
  const testClient = createTestClient({ mode: 'anvil', chain, transport, pollingInterval: 10 })
  const walletClients = ANVIL_ACCOUNTS.map((account) =>
    createWalletClient({ account: getAddress(account.address), chain, transport, pollingInterval: 10 }),
  )

  const snapshot = () => testClient.snapshot()
  const revert = async (id: Hex) => {
    // viem's `revert` drops anvil's boolean answer; a refused revert must not pass silently.
    const ok = await testClient.request({ method: 'evm_revert', params: [id] })
    if ((ok as unknown) !== true) throw new Error(`evm_revert(${id}) was refused (snapshot ids are single use)`)
  }

  return {
    rpcUrl,
    chainId,
    chain,
    ...lifecycle,
    publicClient,
    testClient,
    accounts: ANVIL_ACCOUNTS,
    walletClients,
    snapshot,
    revert,
    async checkpoint() {
      // anvil can answer a receipt before it prunes the mined transaction from its pool; a revert
      // in that window leaves the transaction pending, to be mined again with the next one (seen
      // about once in a few hundred restores with several anvils busy). So wait for an empty pool
      // first, and drop anything left after.
      const pending = async () => (await testClient.getTxpoolStatus()).pending
      let id = await snapshot()
      return {
        async restore() {
          const deadline = Date.now() + 5_000
          while ((await pending()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
          await revert(id)
          if ((await pending()) > 0) await testClient.request({ method: 'anvil_dropAllTransactions' as never })
          id = await snapshot()
        },
      }
    },
  }
}
