// The Uniswap V4 unlock callback is weft's RouteProcessor2 surface: whoever can make the executor
// run `unlockCallback` with their data could have it swap, settle and take on the PoolManager. Here
// an EOA, an attacker's contract, the attacker holding the PoolManager's own lock, the genuine
// PoolManager (impersonated) outside a weft swap, and a token re-entering in the middle of a real
// V4 step all try, against the real executor and the real PoolManager; none gets anything. Then the
// step's own limits: it settles exactly the step's input (never stranded tokens), a take beyond
// the swap's output makes the whole unlock revert, a partial fill reverts, native flags name only
// WETH, the pool key never has hooks, and ether reaches the executor only from WETH or the
// PoolManager of a swap in flight.
import {
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
  decodeErrorResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  maxUint256,
  numberToHex,
  parseAbi,
  toFunctionSelector,
  zeroAddress,
} from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../../src/chains/types.js'
import { type ExecutorStep, deployExecutor, weftExecutorAbi } from '../../src/index.js'
import { getUniswapV4PoolKey } from '../../src/protocols/uniswapV4/poolKey.js'
import { testTokenAbi } from '../devnet/abis.js'
import { type Anvil, type AnvilCheckpoint, startAnvil } from '../devnet/anvil.js'
import { type CompiledContracts, compileTestContracts } from '../devnet/compile.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { getCallRevertData, rpc } from '../devnet/rpc.js'
import {
  type UniswapV4Deployment,
  V4_HOOK_ADDRESSES,
  deployUniswapV4,
  getPoolStateSlot,
  poolManagerAbi,
  v4TestRouterAbi,
  withUniswapV4,
} from '../devnet/uniswapV4.js'
import { buildAttackFill } from './support/attackDevnet.js'

const GAS = 6_000_000n
const CALLBACK_SELECTOR = toFunctionSelector('unlockCallback(bytes)')
const FILL_SELECTOR = toFunctionSelector(weftExecutorAbi.find((item) => item.type === 'function' && item.name === 'fill')!)
const ON_TRANSFER = 1
const unlockCallbackAbi = parseAbi(['function unlockCallback(bytes data) returns (bytes)'])
const lower = (address: string) => address.toLowerCase() as Address

type Tx = { from: Address; to: Address; data?: Hex; value?: bigint }
type Revert = { errorName: string | null; args: readonly unknown[] }

describe('v4 unlock callback: spoofed, re-entered and abused against the real executor and PoolManager', () => {
  let anvil: Anvil
  let devnet: Devnet
  let v4: UniswapV4Deployment
  let chain: ChainConfig
  let executor: Address
  let compiled: CompiledContracts
  let errorAbi: Abi
  let checkpoint: AnvilCheckpoint
  let dexIndex: number
  let weth: Address
  let usdc: Address
  let victim: Address
  let user: Address
  let attacker: Address

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    v4 = await deployUniswapV4(devnet)
    const withV4 = withUniswapV4(devnet.chain, v4)
    executor = lower(await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withV4, gas: GAS }))
    chain = { ...withV4, executor }
    dexIndex = chain.dexes.length - 1
    compiled = await compileTestContracts({ files: ['test/contracts/AttackToken.sol', 'test/contracts/V4AttackUnlocker.sol'] })
    errorAbi = [...weftExecutorAbi, ...poolManagerAbi, ...testTokenAbi, ...v4TestRouterAbi, ...Object.values(compiled).flatMap((c) => c.abi)].filter(
      (item) => item.type === 'error',
    ) as Abi
    weth = devnet.tokens.WETH.address
    usdc = devnet.tokens.USDC.address
    ;[victim, user] = devnet.accounts.traders as [Address, Address]
    attacker = anvil.accounts[5]!.address.toLowerCase() as Address
    for (const token of Object.values(devnet.tokens)) await devnet.approve(token.address, victim, executor, maxUint256)
    await devnet.approve('USDC', user, executor, maxUint256)
    await devnet.approve('WETH', user, executor, maxUint256)
    checkpoint = await anvil.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  const wallet = (from: Address) => {
    const client = anvil.walletClients.find((w) => lower(w.account.address) === lower(from))
    if (!client) throw new Error(`no unlocked wallet for ${from}`)
    return client
  }
  const send = async (tx: Tx): Promise<TransactionReceipt> => {
    const hash = await rpc<Hex>(anvil.rpcUrl, 'eth_sendTransaction', [
      { from: tx.from, to: tx.to, data: tx.data ?? '0x', value: numberToHex(tx.value ?? 0n), gas: numberToHex(GAS) },
    ])
    return anvil.publicClient.waitForTransactionReceipt({ hash })
  }
  const sendOk = async (label: string, tx: Tx) => {
    const receipt = await send(tx)
    if (receipt.status !== 'success') throw new Error(`${label} reverted: ${JSON.stringify(await getRevert(tx))}`)
    return receipt
  }
  const decodeRevert = (data: Hex): Revert => {
    try {
      const decoded = decodeErrorResult({ abi: errorAbi, data })
      return { errorName: decoded.errorName, args: decoded.args ?? [] }
    } catch {
      return { errorName: null, args: [data] }
    }
  }
  const getRevert = async (tx: Tx): Promise<Revert | null> => {
    const data = await getCallRevertData(anvil.rpcUrl, { from: tx.from, to: tx.to, data: tx.data ?? '0x', value: numberToHex(tx.value ?? 0n), gas: numberToHex(GAS) })
    return data === null ? null : decodeRevert(data)
  }
  /** Every call the transaction would make, depth first (anvil's call tracer). */
  const traceCalls = async (tx: Tx) => {
    type Frame = { from: string; to?: string; input: Hex; output?: Hex; error?: string; value?: Hex; calls?: Frame[] }
    const response = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_traceCall',
        params: [
          { from: tx.from, to: tx.to, data: tx.data ?? '0x', value: numberToHex(tx.value ?? 0n), gas: numberToHex(GAS) },
          'latest',
          { tracer: 'callTracer' },
        ],
      }),
    })
    const answer = (await response.json()) as { result?: Frame }
    if (!answer.result) throw new Error('debug_traceCall failed')
    const frames: { from: Address; to: Address | null; input: Hex; output: Hex; reverted: boolean }[] = []
    const walk = (frame: Frame) => {
      frames.push({ from: lower(frame.from), to: frame.to ? lower(frame.to) : null, input: frame.input, output: frame.output ?? '0x', reverted: frame.error !== undefined })
      for (const child of frame.calls ?? []) walk(child)
    }
    walk(answer.result)
    return frames
  }
  const balances = (entries: readonly (readonly [Address | 'ETH', Address])[]) =>
    Promise.all(
      entries.map(([token, holder]) =>
        token === 'ETH'
          ? anvil.publicClient.getBalance({ address: holder })
          : anvil.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [holder] }),
      ),
    )
  const deploy = async (name: string, args: readonly unknown[] = []) => {
    const contract = compiled[name]!
    const hash = await wallet(attacker).deployContract({ abi: contract.abi, bytecode: contract.bytecode, args, gas: GAS })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${name} failed`)
    return lower(receipt.contractAddress)
  }

  /** The unlock callback's data, as the executor encodes it for its own V4 swaps. */
  const callbackData = (dex: number, currencyIn: Address, currencyOut: Address, param: bigint, wrapped: Address = weth) =>
    encodeAbiParameters(
      [{ type: 'uint8' }, { type: 'address' }, { type: 'address' }, { type: 'uint256' }, { type: 'address' }],
      [dex, getAddress(currencyIn), getAddress(currencyOut), param, getAddress(wrapped)],
    )
  const callbackCall = (data: Hex) => encodeFunctionData({ abi: unlockCallbackAbi, functionName: 'unlockCallback', args: [data] })
  /** A V4 step: fee | spacing << 24 | flags << 48 | limit << 56. */
  const v4Step = (tokenIn: Address, tokenOut: Address, fee: number, tickSpacing: number, flags = 0n, limit = 0n): ExecutorStep => ({
    dex: dexIndex,
    tokenIn: lower(tokenIn),
    tokenOut: lower(tokenOut),
    param: BigInt(fee) | (BigInt(tickSpacing) << 24n) | (flags << 48n) | (limit << 56n),
  })
  const NATIVE_IN = 1n
  const NATIVE_OUT = 2n
  const victimExposure = async () => [
    ...(await balances([[usdc, victim], [weth, victim], ['ETH', victim], [usdc, executor], [weth, executor]])),
    await anvil.publicClient.readContract({ address: usdc, abi: testTokenAbi, functionName: 'allowance', args: [victim, executor] }),
  ]
  // Claims: the victim's USDC for WETH on the genuine ETH/USDC and WETH/USDC pools, both ways, native and not.
  const claims = () => {
    const ethUsdc = v4.getPool('ETH', 'USDC', 500)
    const wethUsdc = v4.getPool('WETH', 'USDC', 500)
    const p = (pool: typeof ethUsdc) => BigInt(pool.fee) | (BigInt(pool.tickSpacing) << 24n)
    return [
      callbackData(dexIndex, usdc, zeroAddress, p(ethUsdc) | (NATIVE_OUT << 48n)),
      callbackData(dexIndex, zeroAddress, usdc, p(ethUsdc) | (NATIVE_IN << 48n)),
      callbackData(dexIndex, usdc, weth, p(wethUsdc)),
      callbackData(dexIndex, weth, usdc, p(wethUsdc)),
      callbackData(0, usdc, weth, p(wethUsdc)),
      callbackData(255, usdc, weth, p(wethUsdc)),
    ]
  }

  it('an EOA calling unlockCallback directly is refused, whatever the data names', async () => {
    const before = await victimExposure()
    for (const data of claims()) {
      const revert = await getRevert({ from: attacker, to: executor, data: callbackCall(data) })
      expect(revert?.errorName).toBe('InvalidCallback')
      expect(lower(revert!.args[0] as string)).toBe(attacker)
      expect((await getRevert({ from: victim, to: executor, data: callbackCall(data) }))?.errorName).toBe('InvalidCallback')
    }
    // The data is never read: garbage is refused just the same.
    expect((await getRevert({ from: attacker, to: executor, data: callbackCall('0x1234') }))?.errorName).toBe('InvalidCallback')
    const receipt = await send({ from: attacker, to: executor, data: callbackCall(claims()[2]!) })
    expect(receipt.status).toBe('reverted')
    expect(await victimExposure()).toEqual(before)
  })

  it('an attacker’s contract calling it, before or while holding the PoolManager’s lock, is refused', async () => {
    const unlocker = await deploy('V4AttackUnlocker', [v4.manager])
    await devnet.mint('USDC', executor, 5_000n * 10n ** 6n) // stranded tokens are a target too
    const before = await victimExposure()
    for (const data of claims()) {
      const poke = encodeFunctionData({ abi: compiled.V4AttackUnlocker!.abi, functionName: 'poke', args: [executor, callbackCall(data)] })
      const inside = encodeFunctionData({ abi: compiled.V4AttackUnlocker!.abi, functionName: 'unlockAndCall', args: [executor, callbackCall(data)] })
      for (const call of [poke, inside]) {
        const revert = await getRevert({ from: attacker, to: unlocker, data: call })
        expect(revert?.errorName).toBe('InvalidCallback')
        expect(lower(revert!.args[0] as string)).toBe(unlocker)
      }
    }
    const receipt = await send({
      from: attacker,
      to: unlocker,
      data: encodeFunctionData({ abi: compiled.V4AttackUnlocker!.abi, functionName: 'unlockAndCall', args: [executor, callbackCall(claims()[0]!)] }),
    })
    expect(receipt.status).toBe('reverted')
    expect(await victimExposure()).toEqual(before)
  })

  it('the genuine PoolManager calling it outside a weft swap is refused', async () => {
    await devnet.mint('USDC', executor, 5_000n * 10n ** 6n)
    await rpc(anvil.rpcUrl, 'anvil_impersonateAccount', [v4.manager])
    await rpc(anvil.rpcUrl, 'anvil_setBalance', [v4.manager, numberToHex(10n ** 20n)])
    try {
      const before = await victimExposure()
      for (const data of claims()) {
        const revert = await getRevert({ from: v4.manager, to: executor, data: callbackCall(data) })
        expect(revert?.errorName).toBe('InvalidCallback')
        expect(lower(revert!.args[0] as string)).toBe(v4.manager)
      }
      expect((await send({ from: v4.manager, to: executor, data: callbackCall(claims()[0]!) })).status).toBe('reverted')
      // Nor does it get ether in: the executor takes ether from the PoolManager only during its own swap.
      expect((await getRevert({ from: v4.manager, to: executor, value: 1n }))?.errorName).toBe('UnexpectedEther')
      expect((await getRevert({ from: attacker, to: executor, value: 1n }))?.errorName).toBe('UnexpectedEther')
      expect(await victimExposure()).toEqual(before)
    } finally {
      await rpc(anvil.rpcUrl, 'anvil_stopImpersonatingAccount', [v4.manager])
    }
  })

  it('control: an honest V4 fill succeeds, and its trace shows the PoolManager calling back exactly once', async () => {
    const amountIn = 1_000n * 10n ** 6n
    const pool = v4.getPool('ETH', 'USDC', 500)
    const data = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_OUT)] }] })
    const frames = await traceCalls({ from: user, to: executor, data })
    const callbacks = frames.filter((f) => f.to === executor && f.input.startsWith(CALLBACK_SELECTOR))
    expect(callbacks.map((f) => [f.from, f.reverted])).toEqual([[v4.manager, false]])
    const [wethBefore] = await balances([[weth, user]])
    await sendOk('honest fill', { from: user, to: executor, data })
    const [wethAfter, execUsdc, execWeth, execEth] = await balances([[weth, user], [usdc, executor], [weth, executor], ['ETH', executor]])
    expect(wethAfter! - wethBefore!).toBeGreaterThan(0n)
    expect([execUsdc, execWeth, execEth]).toEqual([0n, 0n, 0n])
  })

  it('a fill while someone else holds the PoolManager’s lock cannot run a V4 step (AlreadyUnlocked)', async () => {
    const unlocker = await deploy('V4AttackUnlocker', [v4.manager])
    const amountIn = 10n ** 17n
    const pool = v4.getPool('ETH', 'USDC', 500)
    const fill = buildAttackFill({ tokenIn: zeroAddress, tokenOut: usdc, amountIn, paths: [{ amountIn, steps: [v4Step(weth, usdc, pool.fee, pool.tickSpacing, NATIVE_IN)] }] })
    await rpc(anvil.rpcUrl, 'anvil_setBalance', [unlocker, numberToHex(amountIn)])
    const call = encodeFunctionData({ abi: compiled.V4AttackUnlocker!.abi, functionName: 'unlockAndCall', args: [executor, fill] })
    expect((await getRevert({ from: attacker, to: unlocker, data: call }))?.errorName).toBe('AlreadyUnlocked')
    // The same fill outside the attacker's lock goes through.
    expect(await getRevert({ from: attacker, to: unlocker, data: encodeFunctionData({ abi: compiled.V4AttackUnlocker!.abi, functionName: 'poke', args: [executor, fill] }) })).toBeNull()
  })

  describe('a token re-entering during a real V4 step (its transfer hook fires inside the executor’s unlock)', () => {
    const amountIn = 10n ** 18n
    let token: Address

    /** An ATK/WETH V4 pool (fee 3000, spacing 60) with full-range liquidity, and the user holding ATK. */
    const setUp = async () => {
      token = await deploy('AttackToken')
      const key = getUniswapV4PoolKey(token, weth, 3000, 60, { native: false, weth })
      const deployer = devnet.accounts.deployer
      await sendOk('mint ATK', { from: deployer, to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [deployer, 10n ** 30n] }) })
      await sendOk('approve ATK', { from: deployer, to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [v4.router, maxUint256] }) })
      await sendOk('initialize ATK/WETH', {
        from: deployer,
        to: v4.manager,
        data: encodeFunctionData({ abi: poolManagerAbi, functionName: 'initialize', args: [key, 2n ** 96n] }),
      })
      await sendOk('add ATK/WETH liquidity', {
        from: deployer,
        to: v4.router,
        data: encodeFunctionData({
          abi: v4TestRouterAbi,
          functionName: 'modifyLiquidity',
          args: [key, -887220, 887220, 10n ** 23n, '0x0000000000000000000000000000000000000000000000000000000000000000'],
        }),
      })
      await sendOk('mint ATK to the user', { from: deployer, to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [user, 100n * amountIn] }) })
      await sendOk('user approves ATK', { from: user, to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [executor, maxUint256] }) })
    }
    const arm = (target: Address, payload: Hex, bubble: boolean, hooks = ON_TRANSFER) =>
      sendOk('arm', { from: attacker, to: token, data: encodeFunctionData({ abi: compiled.AttackToken!.abi, functionName: 'arm', args: [target, payload, hooks, bubble] }) })
    const buy = () => buildAttackFill({ tokenIn: weth, tokenOut: token, amountIn, paths: [{ amountIn, steps: [v4Step(weth, token, 3000, 60)] }] })
    const sell = () => buildAttackFill({ tokenIn: token, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v4Step(token, weth, 3000, 60)] }] })
    const inPlay = () => balances([[weth, user], [token, user], [weth, v4.manager], [token, v4.manager], [weth, executor], [token, executor], [usdc, victim], [weth, token]])
    const callbackAnswers = async (data: Hex) =>
      (await traceCalls({ from: user, to: executor, data }))
        .filter((f) => f.from === token && f.to === executor && f.input.startsWith(CALLBACK_SELECTOR))
        .map((f) => ({ reverted: f.reverted, errorName: decodeRevert(f.output).errorName }))

    it('control: unarmed, buying and selling the token through the real pool succeed', async () => {
      await setUp()
      await sendOk('buy', { from: user, to: executor, data: buy() })
      await sendOk('sell', { from: user, to: executor, data: sell() })
    })

    it('calling unlockCallback from the hook (paid out by the PoolManager, or paid in by the executor) is refused', async () => {
      await setUp()
      const data = callbackCall(callbackData(dexIndex, weth, token, 3000n | (60n << 24n)))
      await arm(executor, data, true)
      for (const fill of [buy(), sell()]) {
        const before = await inPlay()
        expect(await callbackAnswers(fill)).toEqual([{ reverted: true, errorName: 'InvalidCallback' }])
        expect((await send({ from: user, to: executor, data: fill })).status).toBe('reverted')
        expect(await inPlay()).toEqual(before)
      }
      // Swallowed by the token, the refusals leave the fill exactly as honest.
      await arm(executor, '0x', false, 0)
      const honest = await anvil.publicClient.call({ account: user, to: executor, data: buy(), gas: GAS })
      await arm(executor, data, false)
      const armed = await anvil.publicClient.call({ account: user, to: executor, data: buy(), gas: GAS })
      expect(armed.data).toBe(honest.data)
      // Twice refused: as the PoolManager pays the executor inside its unlock, and as the executor pays the user.
      const refused = { reverted: true, errorName: 'InvalidCallback' }
      expect(await callbackAnswers(buy())).toEqual([refused, refused])
    })

    it('calling fill from the hook is refused (Reentrancy)', async () => {
      await setUp()
      const inner = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn: 10n ** 6n, paths: [{ amountIn: 10n ** 6n, steps: [v4Step(usdc, weth, 500, 10)] }] })
      await arm(executor, inner, false)
      const frames = await traceCalls({ from: user, to: executor, data: buy() })
      const reentries = frames.filter((f) => f.from === token && f.to === executor && f.input.startsWith(FILL_SELECTOR))
      expect(reentries.length).toBeGreaterThan(0)
      for (const f of reentries) expect([f.reverted, decodeRevert(f.output).errorName]).toEqual([true, 'Reentrancy'])
    })

    it('taking more than the step’s output from inside the executor’s unlock reverts the whole fill (CurrencyNotSettled)', async () => {
      await setUp()
      const unlocker = await deploy('V4AttackUnlocker', [v4.manager])
      // WETH the PoolManager holds for other pools: the hook asks for some of it while the executor's unlock is open.
      const take = encodeFunctionData({ abi: compiled.V4AttackUnlocker!.abi, functionName: 'takeDuring', args: [weth, attacker, 10n ** 18n] })
      await arm(unlocker, take, true)
      for (const fill of [buy(), sell()]) {
        const before = await inPlay()
        expect((await getRevert({ from: user, to: executor, data: fill }))?.errorName).toBe('CurrencyNotSettled')
        expect((await send({ from: user, to: executor, data: fill })).status).toBe('reverted')
        expect(await inPlay()).toEqual(before)
      }
      const [attackerWeth] = await balances([[weth, attacker]])
      expect(attackerWeth).toBe(0n)
    })
  })

  it('the step settles exactly its input: tokens stranded in the executor stay where they are', async () => {
    const stranded = 7_000n * 10n ** 6n
    await devnet.mint('USDC', executor, stranded)
    const amountIn = 500n * 10n ** 6n
    const pool = v4.getPool('WETH', 'USDC', 500)
    const data = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v4Step(usdc, weth, pool.fee, pool.tickSpacing)] }] })
    const [managerBefore] = await balances([[usdc, v4.manager]])
    await sendOk('fill', { from: user, to: executor, data })
    const [managerAfter, execUsdc] = await balances([[usdc, v4.manager], [usdc, executor]])
    expect(managerAfter! - managerBefore!).toBe(amountIn)
    expect(execUsdc).toBe(stranded)
    // A path that asks to spend the stranded tokens is refused by the ledger before any pool is called.
    const greedy = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn: amountIn + stranded, steps: [v4Step(usdc, weth, pool.fee, pool.tickSpacing)] }] })
    expect((await getRevert({ from: user, to: executor, data: greedy }))?.errorName).toBe('AmountMismatch')
  })

  it('a pool stopped early by the step’s price limit is a partial fill, and reverts', async () => {
    const pool = v4.getPool('ETH', 'USDC', 500)
    const slot = await anvil.publicClient.readContract({
      address: v4.manager,
      abi: poolManagerAbi,
      functionName: 'extsload',
      args: [getPoolStateSlot(pool.id)],
    })
    const sqrtPrice = BigInt(slot) & ((1n << 160n) - 1n)
    // Selling USDC (currency1) raises the price: a limit 0.01% above stops a large sale early.
    const limit = sqrtPrice + sqrtPrice / 20_000n
    const amountIn = 1_000_000n * 10n ** 6n
    await devnet.mint('USDC', user, amountIn)
    const data = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_OUT, limit)] }] })
    const revert = await getRevert({ from: user, to: executor, data })
    expect(revert?.errorName).toBe('PartialFill')
    expect(lower(revert!.args[0] as string)).toBe(v4.manager)
  })

  it('native flags stand only for WETH, address(0) is no token, unused param bits and oversized inputs are refused (InvalidStep)', async () => {
    const amountIn = 100n * 10n ** 6n
    const pool = v4.getPool('ETH', 'USDC', 500)
    const bad: ExecutorStep[] = [
      // "The input is native" on a USDC input: the executor would unwrap something that is not WETH.
      v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_IN),
      // "The output is native" on a USDC output.
      { ...v4Step(weth, usdc, pool.fee, pool.tickSpacing, NATIVE_OUT) },
      // address(0) is the PoolManager's native currency: without the flag, it is not a token.
      { ...v4Step(usdc, weth, pool.fee, pool.tickSpacing), tokenOut: zeroAddress },
      // Bits 50-55 and above the price limit are reserved.
      { ...v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_OUT), param: v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_OUT).param | (1n << 50n) },
      { ...v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_OUT), param: v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_OUT).param | (1n << 216n) },
    ]
    for (const step of bad) {
      const tokenIn = step.tokenIn
      const data = buildAttackFill({ tokenIn, tokenOut: step.tokenOut, amountIn, paths: [{ amountIn, steps: [step] }] })
      if (tokenIn === weth) await devnet.approve('WETH', user, executor, maxUint256)
      expect((await getRevert({ from: user, to: executor, data }))?.errorName, toJson(step)).toBe('InvalidStep')
    }
    // An input past int128 cannot be a PoolManager delta: refused before any call.
    const huge = 1n << 127n
    await devnet.mint('USDC', user, huge)
    await devnet.approve('USDC', user, executor, maxUint256)
    const data = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn: huge, paths: [{ amountIn: huge, steps: [v4Step(usdc, weth, pool.fee, pool.tickSpacing, NATIVE_OUT)] }] })
    expect((await getRevert({ from: user, to: executor, data }))?.errorName).toBe('InvalidStep')
  })

  it('the executor never swaps on a hooked pool: a step naming its fee and spacing reaches the hookless key, and the hook is never called', async () => {
    const hooked = v4.getPool('ETH', 'USDC', 500, V4_HOOK_ADDRESSES.beforeSwap)
    const amountIn = 10n ** 17n
    const data = buildAttackFill({ tokenIn: zeroAddress, tokenOut: usdc, amountIn, paths: [{ amountIn, steps: [v4Step(weth, usdc, hooked.fee, hooked.tickSpacing, NATIVE_IN)] }] })
    const frames = await traceCalls({ from: user, to: executor, data, value: amountIn })
    expect(frames.some((f) => f.to === lower(V4_HOOK_ADDRESSES.beforeSwap))).toBe(false)
    expect(frames[0]!.reverted).toBe(false)
    // The dynamic-fee pool's spacing (60) with its flag as the fee: no hookless pool has that key.
    const dynamic = v4.getPool('WETH', 'USDC', 0x800000, V4_HOOK_ADDRESSES.dynamicFee)
    const onDynamic = buildAttackFill({ tokenIn: zeroAddress, tokenOut: usdc, amountIn, paths: [{ amountIn, steps: [v4Step(weth, usdc, 0x800000, dynamic.tickSpacing)] }] })
    expect((await getRevert({ from: user, to: executor, data: onDynamic, value: amountIn }))?.errorName).toBe('PoolNotInitialized')
    expect((await traceCalls({ from: user, to: executor, data: onDynamic, value: amountIn })).some((f) => f.to === lower(V4_HOOK_ADDRESSES.dynamicFee))).toBe(false)
  })
})

const toJson = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))
