// The stage every attack test plays on: one anvil with the devnet universe, the real WeftExecutor
// deployed for it, the attack contracts compiled, and the parties (a victim who approved the
// executor for everything, an attacker with ether only, an honest user). Transactions always carry
// an explicit gas limit and are checked through their receipt: anvil mines a reverting transaction
// from an unlocked account, and viem does not throw for it.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
  decodeErrorResult,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  maxUint256,
  numberToHex,
} from 'viem'
import {
  type ChainConfig,
  type ExecutorStep,
  type FillOrder,
  type FillPath,
  buildFillCalldata,
  deployExecutor,
  weftExecutorAbi,
} from '../../../src/index.js'
import {
  testTokenAbi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
  v3LiquidityProviderAbi,
} from '../../devnet/abis.js'
import { type Anvil, type AnvilCheckpoint, startAnvil } from '../../devnet/anvil.js'
import { type CompiledContracts, compileTestContracts } from '../../devnet/compile.js'
import { type Devnet, deployDevnet } from '../../devnet/deployDevnet.js'
import { getCallRevertData, rpc } from '../../devnet/rpc.js'
import type { DevnetSymbol } from '../../devnet/universe.js'

/** Gas limit of every transaction an attack test sends. */
export const ATTACK_GAS = 6_000_000n

/** The attack contracts, in `test/contracts/` (compile.ts lists that folder only, not subfolders). */
export const ATTACK_CONTRACT_FILES = [
  'test/contracts/AttackToken.sol',
  'test/contracts/AttackFakePool.sol',
  'test/contracts/AttackReceiver.sol',
  'test/contracts/AttackTaxToken.sol',
  'test/contracts/AttackSandwich.sol',
] as const

export type AttackContractName = 'AttackToken' | 'AttackFakePool' | 'AttackReceiver' | 'AttackTaxToken' | 'AttackSandwich'

/** A transaction (or call) from an unlocked anvil account. */
export type AttackTx = { from: Address; to: Address; data?: Hex; value?: bigint }

/** How a call reverted: a known custom error (executor, token, attack contract), or raw data. */
export type Revert = { errorName: string; args: readonly unknown[]; data: Hex } | { errorName: null; args: readonly []; data: Hex }

/** One call of a trace. `output` is the revert data when `reverted`. */
export type CallFrame = { from: Address; to: Address | null; input: Hex; output: Hex; reverted: boolean }

/** A token by devnet symbol, any address (an attack token), or ether. */
export type BalanceRef = DevnetSymbol | Address | 'ETH'

export type AttackDevnet = {
  anvil: Anvil
  devnet: Devnet
  /** The real executor, deployed by `deployExecutor` for `devnet.chain`. */
  executor: Address
  /** `devnet.chain` with the executor and a treasury set, for `getQuote`. */
  chain: ChainConfig
  treasury: Address
  /** anvil account 0: deployed everything, holds plenty of every devnet token. */
  deployer: Address
  /** A funded trader who approved the executor for every devnet token, with max allowance. */
  victim: Address
  /** A funded trader with no approvals: the honest user of the controls. */
  user: Address
  /** An anvil account with ether only: no tokens, no approvals. */
  attacker: Address
  /** Index of each family in the executor's dex table. */
  dexIndex: { uniswapV2: number; uniswapV3: number }
  compiled: CompiledContracts
  /** Every error the executor, the tokens and the attack contracts can revert with. */
  errorAbi: Abi
  /**
   * {@link Anvil.checkpoint}, made safe under load: anvil can return a receipt before it prunes the
   * mined transaction from its pool, and a revert in that window leaves the transaction pending, to
   * be mined again with the next one (seen about once in a few hundred restores with six anvils
   * busy). So `restore` waits for an empty pool first, and drops anything left after.
   */
  checkpoint(): Promise<AnvilCheckpoint>
  /** Deploys an attack contract from `from` (default: the attacker). */
  deploy(name: AttackContractName, args?: readonly unknown[], from?: Address): Promise<Address>
  /** Deploys raw init code (creation bytecode and encoded constructor arguments) from `from` (default: the attacker). */
  deployBytecode(initCode: Hex, from?: Address): Promise<Address>
  /** Sends a transaction with {@link ATTACK_GAS} and returns its receipt, whatever its status. */
  send(tx: AttackTx): Promise<TransactionReceipt>
  /** Sends a transaction and throws, naming it, unless it succeeded. */
  sendOk(label: string, tx: AttackTx): Promise<TransactionReceipt>
  /** `eth_call`s the transaction on the latest state: how it reverts, or null when it does not. */
  getRevert(tx: AttackTx): Promise<Revert | null>
  /** What `fill` would return (the receiver's gain) if `tx` were sent now; throws when it reverts. */
  readFillResult(tx: AttackTx): Promise<bigint>
  /** Decodes revert data with {@link AttackDevnet.errorAbi}. */
  decodeRevert(data: Hex): Revert
  /** Every call the transaction would make, depth first, from anvil's call tracer. */
  traceCalls(tx: AttackTx): Promise<CallFrame[]>
  /** Every address the transaction would call, from anvil's call tracer (lowercase). */
  getCalledAddresses(tx: AttackTx): Promise<Set<Address>>
  /** Balances of (token, holder) pairs, in order. */
  readBalances(entries: readonly (readonly [BalanceRef, Address])[]): Promise<bigint[]>
  /** A token's allowance from `owner` to `spender`. */
  readAllowance(token: Address, owner: Address, spender: Address): Promise<bigint>
  /** Mints an attack token or a devnet token to `to`. */
  fund(token: Address, to: Address, amount: bigint): Promise<void>
  /** Creates a V2 pair on `factory` (default: the devnet's) and adds liquidity; returns the pair. */
  createV2Pair(tokenA: Address, amountA: bigint, tokenB: Address, amountB: bigint, factory?: Address): Promise<Address>
  /** Creates a V3 pool on the devnet's factory at price 1 (raw units) with full-range liquidity. */
  createV3Pool(tokenA: Address, tokenB: Address, fee: number, liquidity: bigint): Promise<Address>
}

const require = createRequire(import.meta.url)

/** Creation bytecode of an npm Uniswap artifact (the V2 builds store it without 0x). */
export function readUniswapBytecode(modulePath: string): Hex {
  const { bytecode } = JSON.parse(readFileSync(require.resolve(modulePath), 'utf8')) as { bytecode: string }
  return (bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`) as Hex
}

const lower = (address: string) => address.toLowerCase() as Address

/**
 * Starts anvil, deploys the devnet and the executor, and prepares the parties. One per test file.
 *
 * @example
 * const stage = await startAttackDevnet()
 * const revert = await stage.getRevert({ from: stage.attacker, to: stage.executor, data })
 */
export async function startAttackDevnet(): Promise<AttackDevnet> {
  const anvil = await startAnvil()
  try {
    return await prepare(anvil)
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

async function prepare(anvil: Anvil): Promise<AttackDevnet> {
  const [devnet, compiled] = await Promise.all([
    deployDevnet(anvil),
    compileTestContracts({ files: [...ATTACK_CONTRACT_FILES] }),
  ])
  const executor = lower(
    await deployExecutor({
      walletClient: anvil.walletClients[0]!,
      publicClient: anvil.publicClient,
      chain: devnet.chain,
      gas: ATTACK_GAS,
    }),
  )
  const treasury = '0x00000000000000000000000000000000000ffee4' as Address
  const chain: ChainConfig = { ...devnet.chain, executor, treasury }
  const deployer = devnet.accounts.deployer
  const [victim, user] = devnet.accounts.traders as [Address, Address]
  const attacker = anvil.accounts[5]!.address as Address
  const dexIndex = {
    uniswapV2: devnet.chain.dexes.findIndex((dex) => dex.family === 'uniswapV2'),
    uniswapV3: devnet.chain.dexes.findIndex((dex) => dex.family === 'uniswapV3'),
  }

  const errorAbi = [
    ...weftExecutorAbi,
    ...testTokenAbi,
    ...v3LiquidityProviderAbi,
    ...Object.values(compiled).flatMap((contract) => contract.abi),
  ].filter((item) => item.type === 'error') as Abi

  const wallet = (from: Address) => {
    const client = anvil.walletClients.find((w) => lower(w.account.address) === lower(from))
    if (!client) throw new Error(`no unlocked wallet for ${from}`)
    return client
  }

  const send = async (tx: AttackTx): Promise<TransactionReceipt> => {
    const hash = await wallet(tx.from).sendTransaction({
      to: tx.to,
      data: tx.data ?? '0x',
      value: tx.value ?? 0n,
      gas: ATTACK_GAS,
    })
    return anvil.publicClient.waitForTransactionReceipt({ hash })
  }

  const decodeRevert = (data: Hex): Revert => {
    if (data === '0x') return { errorName: null, args: [], data }
    try {
      const decoded = decodeErrorResult({ abi: errorAbi, data })
      return { errorName: decoded.errorName, args: decoded.args ?? [], data }
    } catch {
      return { errorName: null, args: [], data }
    }
  }

  const getRevert = async (tx: AttackTx): Promise<Revert | null> => {
    const data = await getCallRevertData(anvil.rpcUrl, { from: tx.from, to: tx.to, data: tx.data ?? '0x', value: numberToHex(tx.value ?? 0n), gas: numberToHex(ATTACK_GAS) })
    return data === null ? null : decodeRevert(data)
  }

  const traceCalls = async (tx: AttackTx): Promise<CallFrame[]> => {
    type Frame = { from: string; to?: string; input: Hex; output?: Hex; error?: string; calls?: Frame[] }
    const response = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_traceCall',
        params: [
          { from: tx.from, to: tx.to, data: tx.data ?? '0x', value: numberToHex(tx.value ?? 0n), gas: numberToHex(ATTACK_GAS) },
          'latest',
          { tracer: 'callTracer' },
        ],
      }),
    })
    const answer = (await response.json()) as { result?: Frame; error?: { message: string } }
    if (!answer.result) throw new Error(`debug_traceCall failed: ${answer.error?.message}`)
    const frames: CallFrame[] = []
    const walk = (frame: Frame) => {
      frames.push({
        from: lower(frame.from),
        to: frame.to ? lower(frame.to) : null,
        input: frame.input,
        output: frame.output ?? '0x',
        reverted: frame.error !== undefined,
      })
      for (const child of frame.calls ?? []) walk(child)
    }
    walk(answer.result)
    return frames
  }

  const pendingCount = async () => {
    const status = await rpc<{ pending: Hex; queued: Hex }>(anvil.rpcUrl, 'txpool_status', [])
    return Number(status.pending) + Number(status.queued)
  }

  const stage: AttackDevnet = {
    anvil,
    devnet,
    executor,
    chain,
    treasury,
    deployer,
    victim,
    user,
    attacker,
    dexIndex,
    compiled,
    errorAbi,
    checkpoint: () => anvil.checkpoint(),
    async deploy(name, args = [], from = attacker) {
      const contract = compiled[name]
      if (!contract) throw new Error(`${name} did not compile`)
      const hash = await wallet(from).deployContract({ abi: contract.abi, bytecode: contract.bytecode, args, gas: ATTACK_GAS })
      const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${name} failed`)
      return lower(receipt.contractAddress)
    },
    async deployBytecode(initCode, from = attacker) {
      const hash = await wallet(from).deployContract({ abi: [], bytecode: initCode, gas: ATTACK_GAS })
      const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('deployment failed')
      return lower(receipt.contractAddress)
    },
    send,
    async sendOk(label, tx) {
      const receipt = await send(tx)
      if (receipt.status !== 'success') {
        const revert = await getRevert(tx)
        throw new Error(`${label} reverted: ${revert?.errorName ?? revert?.data ?? 'does not revert when replayed'}`)
      }
      return receipt
    },
    getRevert,
    async readFillResult(tx) {
      const { data } = await anvil.publicClient.call({
        account: tx.from,
        to: tx.to,
        data: tx.data ?? '0x',
        value: tx.value ?? 0n,
        gas: ATTACK_GAS,
      })
      return decodeFunctionResult({ abi: weftExecutorAbi, functionName: 'fill', data: data ?? '0x' })
    },
    decodeRevert,
    traceCalls,
    async getCalledAddresses(tx) {
      return new Set((await traceCalls(tx)).flatMap((frame) => (frame.to ? [frame.to] : [])))
    },
    async readBalances(entries) {
      return Promise.all(
        entries.map(([token, holder]) => {
          if (token === 'ETH') return anvil.publicClient.getBalance({ address: holder })
          const address = token.startsWith('0x') ? (token as Address) : devnet.tokens[token as DevnetSymbol].address
          return anvil.publicClient.readContract({ address, abi: testTokenAbi, functionName: 'balanceOf', args: [holder] })
        }),
      )
    },
    readAllowance(token, owner, spender) {
      return anvil.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'allowance', args: [owner, spender] })
    },
    async fund(token, to, amount) {
      const known = Object.values(devnet.tokens).some((t) => t.address === lower(token))
      if (known) return devnet.mint(lower(token), to, amount)
      await stage.sendOk(`mint ${token}`, {
        from: deployer,
        to: token,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
      })
    },
    async createV2Pair(tokenA, amountA, tokenB, amountB, factory = devnet.contracts.uniswapV2Factory) {
      await stage.sendOk('createPair', {
        from: deployer,
        to: factory,
        data: encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [tokenA, tokenB] }),
      })
      const pair = lower(
        await anvil.publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [tokenA, tokenB] }),
      )
      await stage.fund(tokenA, pair, amountA)
      await stage.fund(tokenB, pair, amountB)
      await stage.sendOk('mint V2 liquidity', {
        from: deployer,
        to: pair,
        data: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [deployer] }),
      })
      return pair
    },
    async createV3Pool(tokenA, tokenB, fee, liquidity) {
      const factory = devnet.contracts.uniswapV3Factory
      await stage.sendOk('createPool', {
        from: deployer,
        to: factory,
        data: encodeFunctionData({ abi: uniswapV3FactoryAbi, functionName: 'createPool', args: [tokenA, tokenB, fee] }),
      })
      const pool = lower(
        await anvil.publicClient.readContract({ address: factory, abi: uniswapV3FactoryAbi, functionName: 'getPool', args: [tokenA, tokenB, fee] }),
      )
      await stage.sendOk('initialize', {
        from: deployer,
        to: pool,
        data: encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'initialize', args: [2n ** 96n] }),
      })
      const spacing = await anvil.publicClient.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'tickSpacing' })
      const edge = Math.floor(887272 / spacing) * spacing
      const provider = devnet.contracts.v3LiquidityProvider
      for (const token of [tokenA, tokenB]) {
        await stage.fund(token, deployer, liquidity * 2n)
        await stage.sendOk('approve provider', {
          from: deployer,
          to: token,
          data: encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [provider, maxUint256] }),
        })
      }
      await stage.sendOk('mint V3 liquidity', {
        from: deployer,
        to: provider,
        data: encodeFunctionData({ abi: v3LiquidityProviderAbi, functionName: 'mint', args: [pool, deployer, -edge, edge, liquidity] }),
      })
      return pool
    },
  }

  for (const token of Object.values(devnet.tokens)) await devnet.approve(token.address, victim, executor, maxUint256)
  return stage
}

/** A V2 step on the executor's dex table. */
export function v2Step(stage: AttackDevnet, tokenIn: Address, tokenOut: Address): ExecutorStep {
  return { dex: stage.dexIndex.uniswapV2, tokenIn: lower(tokenIn), tokenOut: lower(tokenOut), param: 0n }
}

/** A V3 step on the executor's dex table; `fee` is the pool's fee tier. */
export function v3Step(stage: AttackDevnet, tokenIn: Address, tokenOut: Address, fee: number): ExecutorStep {
  return { dex: stage.dexIndex.uniswapV3, tokenIn: lower(tokenIn), tokenOut: lower(tokenOut), param: BigInt(fee) }
}

/** A deadline no test reaches: attack orders that are not about the deadline never expire. */
export const FAR_DEADLINE = 2n ** 40n

/** An order with no fees, no surplus split, receiver = sender, no minimum and a far deadline unless given. */
export function buildOrder(
  order: Pick<FillOrder, 'tokenIn' | 'tokenOut' | 'amountIn'> & { paths: readonly FillPath[] } & Partial<FillOrder>,
): FillOrder {
  return {
    id: '0x000000000000000000000000000000a7',
    amountOut: 0n,
    minAmountOut: 0n,
    receiver: null,
    deadline: FAR_DEADLINE,
    feeOnOutput: false,
    fees: [],
    surplusRecipient: null,
    surplusBps: 0,
    treasury: null,
    ...order,
  }
}

/** Calldata of `fill(order)` for {@link buildOrder}'s order. */
export function buildAttackFill(order: Parameters<typeof buildOrder>[0]): Hex {
  return buildFillCalldata(buildOrder(order))
}

/** The callback's `data`, as the executor encodes it for its own swaps. */
export function encodeCallbackData(dex: number, tokenIn: Address, tokenOut: Address, fee: number): Hex {
  return encodeAbiParameters(
    [{ type: 'uint8' }, { type: 'address' }, { type: 'address' }, { type: 'uint24' }],
    [dex, getAddress(tokenIn), getAddress(tokenOut), fee],
  )
}

/** Calldata of `uniswapV3SwapCallback(amount0Delta, amount1Delta, data)`. */
export function buildCallbackCalldata(amount0Delta: bigint, amount1Delta: bigint, data: Hex): Hex {
  return encodeFunctionData({ abi: weftExecutorAbi, functionName: 'uniswapV3SwapCallback', args: [amount0Delta, amount1Delta, data] })
}
