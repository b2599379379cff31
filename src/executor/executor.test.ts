// Runs the real executor on a fresh anvil: deterministic deployment, the dex table, wrap and
// unwrap fills with exact fee and surplus accounting, and the msg.value check.
// Self-contained for now; the shared devnet fixture under test/devnet/ will replace the setup.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import weth9 from '@uniswap/v2-periphery/build/WETH9.json' with { type: 'json' }
import {
  type Address,
  type Hex,
  createPublicClient,
  createWalletClient,
  getCreate2Address,
  http,
  parseEther,
  zeroAddress,
} from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ChainConfig } from '../chains/types.js'
import { weftExecutorAbi } from './artifacts.js'
import { deployExecutor } from './deployExecutor.js'
import {
  deterministicDeployer,
  executorSalt,
  getExecutorAddress,
  getExecutorDeployData,
} from './getExecutorAddress.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const anvilBinary = `${root}node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil`

const weth9Abi = [
  { type: 'function', name: 'deposit', stateMutability: 'payable', inputs: [], outputs: [] },
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'spender', type: 'address' }, { name: 'amount', type: 'uint256' }],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
] as const

// anvil's first unlocked account; the rest are fresh addresses that hold nothing.
const sender: Address = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const feeRecipientA: Address = '0x000000000000000000000000000000000000a001'
const feeRecipientB: Address = '0x000000000000000000000000000000000000a002'
const surplusRecipient: Address = '0x000000000000000000000000000000000000a003'
const treasury: Address = '0x000000000000000000000000000000000000a004'
const receiver: Address = '0x000000000000000000000000000000000000a005'
const orderId: Hex = '0x0194c7a1e2f37b3c8d4e5f60718293a4'
const gas = 1_000_000n

let anvil: ChildProcess
let rpcUrl: string
let weth: Address
let executor: Address
let chain: ChainConfig

const publicClient = () => createPublicClient({ chain: foundry, transport: http(rpcUrl), pollingInterval: 10 })
const walletClient = () =>
  createWalletClient({ account: sender, chain: foundry, transport: http(rpcUrl), pollingInterval: 10 })

/** The order fields a test sets; the rest default to zero / empty. */
type TestOrder = {
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
  minAmountOut: bigint
  receiver?: Address
  feeOnOutput: boolean
  fees?: { recipient: Address; rate: number }[]
  surplusRecipient?: Address
  surplusBps?: number
  treasury?: Address
}

function startAnvil(): Promise<{ process: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(anvilBinary, ['--host', '127.0.0.1', '--port', '0', '--prune-history', '64'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    // Keep draining stdout after the banner: a full pipe would block anvil.
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on (\S+)/.exec(output)
      if (match) resolve({ process: child, url: `http://${match[1]}` })
    })
    child.stderr?.on('data', () => {})
    child.on('error', reject)
    child.on('exit', (code: number | null) => reject(new Error(`anvil exited with ${code} before listening:\n${output}`)))
  })
}

async function balances(accounts: readonly Address[]) {
  const client = publicClient()
  return Promise.all(
    accounts.map(async (account) => ({
      eth: await client.getBalance({ address: account }),
      weth: await client.readContract({ address: weth, abi: weth9Abi, functionName: 'balanceOf', args: [account] }),
    })),
  )
}

function fillArgs(order: TestOrder) {
  return [
    {
      id: orderId,
      receiver: zeroAddress,
      // No wrap test is about the deadline: one no block reaches.
      deadline: 2n ** 40n,
      fees: [],
      surplusRecipient: zeroAddress,
      surplusBps: 0,
      treasury: zeroAddress,
      paths: [],
      ...order,
    },
  ] as const
}

async function fill(order: TestOrder, value: bigint) {
  const hash = await walletClient().writeContract({
    address: executor,
    abi: weftExecutorAbi,
    functionName: 'fill',
    args: fillArgs(order),
    value,
    gas,
  })
  const receipt = await publicClient().waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return { receipt, cost: receipt.gasUsed * receipt.effectiveGasPrice }
}

async function simulateFill(order: TestOrder, value: bigint) {
  return publicClient().simulateContract({
    account: sender,
    address: executor,
    abi: weftExecutorAbi,
    functionName: 'fill',
    args: fillArgs(order),
    value,
  })
}

beforeAll(async () => {
  const started = await startAnvil()
  anvil = started.process
  rpcUrl = started.url

  const wallet = walletClient()
  const hash = await wallet.deployContract({ abi: weth9.abi, bytecode: `0x${weth9.bytecode}`, gas: 2_000_000n })
  const receipt = await publicClient().waitForTransactionReceipt({ hash })
  if (!receipt.contractAddress) throw new Error('WETH9 deployment failed')
  weth = receipt.contractAddress.toLowerCase() as Address

  // A table with one entry of each kind; no pool is ever reached in these tests.
  chain = {
    id: foundry.id,
    name: 'Executor test devnet',
    status: 'active',
    nativeSymbol: 'ETH',
    wrappedNative: { address: weth, symbol: 'WETH', decimals: 18 },
    tokens: [],
    usdStablecoins: [],
    majorTokens: [weth],
    dexes: [
      {
        id: 'uniswapV2',
        family: 'uniswapV2',
        protocol: 'Uniswap V2',
        fork: 'Uniswap V2',
        factory: '0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f',
        initCodeHash: '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f',
        feeBps: 30,
      },
      {
        id: 'uniswapV3',
        family: 'uniswapV3',
        protocol: 'Uniswap V3',
        fork: 'UniswapV3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        initCodeHash: '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54',
      },
    ],
    defaultGasPriceWei: 1_000_000_000n,
  }
  executor = await deployExecutor({ walletClient: wallet, publicClient: publicClient(), chain })
})

afterAll(() => {
  anvil?.kill()
})

describe('deployment', () => {
  test('lands at the deterministic CREATE2 address, once', async () => {
    const expected = getCreate2Address({
      from: deterministicDeployer,
      salt: executorSalt,
      bytecode: getExecutorDeployData(chain),
    }).toLowerCase()
    expect(executor).toBe(expected)
    expect(getExecutorAddress(chain)).toBe(expected)
    expect(await publicClient().getCode({ address: executor })).toMatch(/^0x[0-9a-f]{100,}$/)

    const block = await publicClient().getBlockNumber()
    await expect(deployExecutor({ walletClient: walletClient(), publicClient: publicClient(), chain })).resolves.toBe(
      executor,
    )
    expect(await publicClient().getBlockNumber()).toBe(block)
  })

  test('honours chain.executor', () => {
    const custom: Address = '0x00000000000000000000000000000000000000ee'
    expect(getExecutorAddress({ ...chain, executor: custom })).toBe(custom)
  })

  test('holds the configured WETH and dex table', async () => {
    const client = publicClient()
    expect((await client.readContract({ address: executor, abi: weftExecutorAbi, functionName: 'weth' })).toLowerCase()).toBe(
      weth,
    )
    const [v2, v3] = await Promise.all(
      [0n, 1n].map((i) => client.readContract({ address: executor, abi: weftExecutorAbi, functionName: 'dexes', args: [i] })),
    )
    expect(v2).toEqual([1, '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f', chain.dexes[0]?.initCodeHash, 30])
    expect(v3).toEqual([2, '0x1F98431c8aD98523631AE4a59f267346ea31F984', chain.dexes[1]?.initCodeHash, 0])
    await expect(
      client.readContract({ address: executor, abi: weftExecutorAbi, functionName: 'dexes', args: [2n] }),
    ).rejects.toThrow(/InvalidDex/)
  })
})

describe('fill', () => {
  test('wraps native with input-side fees paid in ETH', async () => {
    const amountIn = parseEther('1')
    const feeA = (amountIn * 30_000n) / 10_000_000n // 30 bps
    const feeB = (amountIn * 1_234n) / 10_000_000n // 1.234 bps
    const net = amountIn - feeA - feeB
    const accounts = [sender, receiver, feeRecipientA, feeRecipientB, executor] as const
    const before = await balances(accounts)

    const { cost } = await fill(
      {
        tokenIn: zeroAddress,
        tokenOut: weth,
        amountIn,
        amountOut: net,
        minAmountOut: net,
        receiver,
        feeOnOutput: false,
        fees: [
          { recipient: feeRecipientA, rate: 30_000 },
          { recipient: feeRecipientB, rate: 1_234 },
        ],
      },
      amountIn,
    )

    const after = await balances(accounts)
    expect(after[0]?.eth).toBe((before[0]?.eth ?? 0n) - amountIn - cost)
    expect(after[1]?.weth).toBe((before[1]?.weth ?? 0n) + net)
    expect(after[2]?.eth).toBe((before[2]?.eth ?? 0n) + feeA)
    expect(after[3]?.eth).toBe((before[3]?.eth ?? 0n) + feeB)
    expect(after[4]).toEqual({ eth: 0n, weth: 0n })
  })

  test('pays the sender when the receiver is zero', async () => {
    const amountIn = 12_345n
    const [before] = await balances([sender])
    const { cost, receipt } = await fill(
      { tokenIn: zeroAddress, tokenOut: weth, amountIn, amountOut: amountIn, minAmountOut: amountIn, feeOnOutput: false },
      amountIn,
    )
    // 74,058 on anvil 1.7.1 (the sender's WETH slot goes from zero): a loose guard on the fixed
    // cost the SDK's gas estimate builds on.
    expect(receipt.gasUsed).toBeLessThan(90_000n)
    const [after] = await balances([sender])
    expect(after?.eth).toBe((before?.eth ?? 0n) - amountIn - cost)
    expect(after?.weth).toBe((before?.weth ?? 0n) + amountIn)
  })

  test('unwraps WETH with an output-side fee and splits the surplus', async () => {
    const amountIn = parseEther('2')
    const wallet = walletClient()
    for (const request of [
      { functionName: 'deposit', value: amountIn } as const,
      { functionName: 'approve', args: [executor, amountIn] } as const,
    ]) {
      const hash = await wallet.writeContract({ address: weth, abi: weth9Abi, gas, ...request })
      expect((await publicClient().waitForTransactionReceipt({ hash })).status).toBe('success')
    }

    const fee = (amountIn * 50_000n) / 10_000_000n // 5 bps of the gross output
    const net = amountIn - fee
    const amountOut = net - 1_001n // the quote promised less: 1,001 wei of surplus
    const toSurplusRecipient = (1_001n * 5_000n) / 10_000n
    const toTreasury = 1_001n - toSurplusRecipient
    const accounts = [sender, receiver, feeRecipientA, surplusRecipient, treasury, executor] as const
    const before = await balances(accounts)

    const { cost } = await fill(
      {
        tokenIn: weth,
        tokenOut: zeroAddress,
        amountIn,
        amountOut,
        minAmountOut: amountOut,
        receiver,
        feeOnOutput: true,
        fees: [{ recipient: feeRecipientA, rate: 50_000 }],
        surplusRecipient,
        surplusBps: 5_000,
        treasury,
      },
      0n,
    )

    const after = await balances(accounts)
    expect(after[0]).toEqual({ eth: (before[0]?.eth ?? 0n) - cost, weth: (before[0]?.weth ?? 0n) - amountIn })
    expect(after[1]?.eth).toBe((before[1]?.eth ?? 0n) + amountOut)
    expect(after[2]?.eth).toBe((before[2]?.eth ?? 0n) + fee)
    expect(after[3]?.eth).toBe((before[3]?.eth ?? 0n) + toSurplusRecipient)
    expect(after[4]?.eth).toBe((before[4]?.eth ?? 0n) + toTreasury)
    expect(after[5]).toEqual({ eth: 0n, weth: 0n })
  })

  test('without a treasury the receiver keeps the unshared surplus', async () => {
    const amountIn = 10_000n
    const { result } = await simulateFill(
      {
        tokenIn: zeroAddress,
        tokenOut: weth,
        amountIn,
        amountOut: 9_000n,
        minAmountOut: 9_000n,
        receiver,
        feeOnOutput: false,
        surplusRecipient,
        surplusBps: 2_500,
      },
      amountIn,
    )
    expect(result).toBe(9_000n + 750n)
  })

  test('reverts when msg.value is not amountIn', async () => {
    const order = { tokenIn: zeroAddress, tokenOut: weth, amountIn: 1_000n, amountOut: 1_000n, minAmountOut: 0n, feeOnOutput: false }
    await expect(simulateFill(order, 999n)).rejects.toThrow(/InvalidValue/)
    await expect(simulateFill(order, 1_001n)).rejects.toThrow(/InvalidValue/)
    // ERC-20 input takes no ether.
    await expect(simulateFill({ ...order, tokenIn: weth, tokenOut: zeroAddress }, 1n)).rejects.toThrow(/InvalidValue/)
  })

  test('reverts below minAmountOut', async () => {
    const order = { tokenIn: zeroAddress, tokenOut: weth, amountIn: 1_000n, amountOut: 1_000n, minAmountOut: 1_001n, feeOnOutput: false }
    await expect(simulateFill(order, 1_000n)).rejects.toThrow(/InsufficientOutput/)
  })

  test('reverts when fee rates exceed the whole', async () => {
    const order = {
      tokenIn: zeroAddress,
      tokenOut: weth,
      amountIn: 1_000n,
      amountOut: 0n,
      minAmountOut: 0n,
      feeOnOutput: false,
      fees: [
        { recipient: feeRecipientA, rate: 6_000_000 },
        { recipient: feeRecipientB, rate: 4_000_001 },
      ],
    }
    await expect(simulateFill(order, 1_000n)).rejects.toThrow(/InvalidFees/)
  })

  test('rejects a V3 callback outside its own swap, and stray ether', async () => {
    await expect(
      publicClient().simulateContract({
        account: sender,
        address: executor,
        abi: weftExecutorAbi,
        functionName: 'uniswapV3SwapCallback',
        args: [1n, 0n, '0x'.padEnd(2 + 4 * 64, '0') as Hex],
      }),
    ).rejects.toThrow(/InvalidCallback/)
    await expect(publicClient().call({ account: sender, to: executor, value: 1n })).rejects.toThrow()
  })
})

describe('artifacts', () => {
  test('src/executor/artifacts.ts matches a fresh compile of contracts/', async () => {
    const { stdout } = await promisify(execFile)(`${root}node_modules/.bin/tsx`, ['scripts/buildContracts.ts', '--check'], {
      cwd: root,
    })
    expect(stdout).toMatch(/is up to date/)
  })
})
