// Attacks on the executor's PancakeSwap V3 step and its pancakeV3SwapCallback, on anvil with the
// real PancakeV3Pool bytecode: the RouteProcessor2 exploit's fake pool and an EOA calling the
// callback, a genuine pool calling it outside a fill, a real PancakeV3Pool of the same pair and fee
// from another deployer, a pool that asks for more than the step's input or asks twice, a Uniswap
// V3 pool paid through the Pancake callback, and a token that calls it in the middle of a real
// Pancake fill. Each attempt fails and the approved victim's tokens never move.
import {
  type Abi,
  type Address,
  type Hex,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  maxUint256,
  numberToHex,
  toFunctionSelector,
} from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, type ExecutorStep, deployExecutor, weftExecutorAbi } from '../../src/index.js'
import { type Anvil, type AnvilCheckpoint, startAnvil } from '../devnet/anvil.js'
import { type CompiledContracts, compileTestContracts } from '../devnet/compile.js'
import { type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { testTokenAbi } from '../devnet/abis.js'
import {
  type PancakeDevnetPool,
  type PancakeV3Deployment,
  deployPancakeV3,
  getPancakePoolAddress,
  pancakeV3FactoryArtifact,
  pancakeV3PoolAbi,
  withPancakeV3,
} from '../devnet/pancakeV3.js'
import { getCallRevertData, rpc } from '../devnet/rpc.js'
import { buildAttackFill, encodeCallbackData } from './support/attackDevnet.js'

const GAS = 6_000_000n
const lower = (address: string) => address.toLowerCase() as Address
const PANCAKE_CALLBACK = toFunctionSelector('pancakeV3SwapCallback(int256,int256,bytes)')

type Revert = { errorName: string | null; args: readonly unknown[] }

describe('pancakeV3SwapCallback and the Pancake step against spoofing', () => {
  let anvil: Anvil
  let devnet: Devnet
  let pancake: PancakeV3Deployment
  let chain: ChainConfig
  let executor: Address
  let compiled: CompiledContracts
  let errorAbi: Abi
  let checkpoint: AnvilCheckpoint
  let victim: Address
  let user: Address
  let attacker: Address
  let pancakeDex: number
  let uniswapDex: number
  let usdc: Address
  let weth: Address
  let pool: PancakeDevnetPool

  const send = async (from: Address, to: Address | undefined, data: Hex) => {
    const hash = await rpc<Hex>(anvil.rpcUrl, 'eth_sendTransaction', [{ from, ...(to ? { to } : {}), data, gas: numberToHex(GAS) }])
    return anvil.publicClient.waitForTransactionReceipt({ hash })
  }
  const getRevert = async (from: Address, to: Address, data: Hex): Promise<Revert | null> => {
    const raw = await getCallRevertData(anvil.rpcUrl, { from, to, data, gas: numberToHex(GAS) })
    if (raw === null) return null
    try {
      const decoded = decodeErrorResult({ abi: errorAbi, data: raw })
      return { errorName: decoded.errorName, args: decoded.args ?? [] }
    } catch {
      return { errorName: null, args: [] }
    }
  }
  const deploy = async (name: string, args: readonly unknown[] = []) => {
    const contract = compiled[name]!
    const wallet = anvil.walletClients.find((w) => lower(w.account.address) === attacker)!
    const hash = await wallet.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args, gas: GAS })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return lower(receipt.contractAddress!)
  }
  const balanceOf = (token: Address, who: Address) =>
    anvil.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [who] })
  const exposure = async () => [
    await balanceOf(usdc, victim),
    await balanceOf(weth, victim),
    await balanceOf(usdc, executor),
    await balanceOf(weth, executor),
    await balanceOf(usdc, pool.address),
    await balanceOf(weth, pool.address),
  ]
  const callback = (amount0: bigint, amount1: bigint, data: Hex) =>
    encodeFunctionData({ abi: weftExecutorAbi, functionName: 'pancakeV3SwapCallback', args: [amount0, amount1, data] })
  const pancakeStep = (tokenIn: Address, tokenOut: Address, fee: number): ExecutorStep => ({ dex: pancakeDex, tokenIn, tokenOut, param: BigInt(fee) })
  /** A user's one-step fill of `amountIn` USDC -> WETH through the genuine Pancake USDC/WETH 500 pool. */
  const userFill = (amountIn: bigint) =>
    buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [pancakeStep(usdc, weth, 500)] }] })
  const plant = async (name: string, at: Address) => {
    const runtime = (await compileTestContracts({ files: ['test/contracts/AttackPancakePool.sol'] }))[name]!.deployedBytecode
    await rpc(anvil.rpcUrl, 'anvil_setCode', [at, runtime])
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    pancake = await deployPancakeV3(devnet)
    compiled = await compileTestContracts({ files: ['test/contracts/AttackPancakePool.sol', 'test/contracts/AttackToken.sol'] })
    const withPancake = withPancakeV3(devnet.chain, pancake)
    executor = lower(await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: withPancake, gas: GAS }))
    chain = { ...withPancake, executor }
    pancakeDex = chain.dexes.findIndex((d) => d.id === pancake.dex.id)
    uniswapDex = chain.dexes.findIndex((d) => d.id === 'uniswapV3')
    ;[victim, user] = devnet.accounts.traders as [Address, Address]
    attacker = lower(anvil.accounts[5]!.address)
    usdc = devnet.tokens.USDC.address
    weth = devnet.tokens.WETH.address
    pool = pancake.getPool('USDC', 'WETH', 500)
    errorAbi = [
      ...weftExecutorAbi,
      ...pancakeV3FactoryArtifact.abi,
      ...Object.values(compiled).flatMap((c) => c.abi),
    ].filter((item) => item.type === 'error') as Abi
    for (const token of Object.values(devnet.tokens)) await devnet.approve(token.address, victim, executor, maxUint256)
    await devnet.approve('USDC', user, executor, maxUint256)
    checkpoint = await anvil.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  it('control: an honest Pancake fill through the executor succeeds', async () => {
    const [before] = [await balanceOf(weth, user)]
    const receipt = await send(user, executor, userFill(10_000n * 10n ** 6n))
    expect(receipt.status).toBe('success')
    expect(await balanceOf(weth, user)).toBeGreaterThan(before)
    expect([await balanceOf(usdc, executor), await balanceOf(weth, executor)]).toEqual([0n, 0n])
  })

  it('an EOA calling pancakeV3SwapCallback directly is refused, whatever it claims', async () => {
    const victimUsdc = await balanceOf(usdc, victim)
    const before = await exposure()
    const claims: [number, Address, Address, number][] = [
      [pancakeDex, usdc, weth, 500],
      [pancakeDex, weth, usdc, 2500],
      [pancakeDex, usdc, weth, 100],
      [uniswapDex, usdc, weth, 500],
      [0, usdc, weth, 0],
      [200, usdc, weth, 500],
    ]
    for (const [dex, tokenIn, tokenOut, fee] of claims) {
      for (const [amount0, amount1] of [[0n, 0n], [victimUsdc, 0n], [0n, victimUsdc], [victimUsdc, -1n]] as const) {
        const revert = await getRevert(attacker, executor, callback(amount0, amount1, encodeCallbackData(dex, tokenIn, tokenOut, fee)))
        expect(revert?.errorName, `dex ${dex} fee ${fee}`).toBe('InvalidCallback')
        expect(lower(revert!.args[0] as string)).toBe(attacker)
      }
    }
    const receipt = await send(attacker, executor, callback(victimUsdc, 0n, encodeCallbackData(pancakeDex, usdc, weth, 500)))
    expect(receipt.status).toBe('reverted')
    expect(await exposure()).toEqual(before)
  })

  it('a fake pool contract calling it is refused, and so is one claiming tokens stranded in the executor', async () => {
    const fake = await deploy('AttackCallbackCaller')
    await devnet.mint('USDC', executor, 5_000n * 10n ** 6n)
    const before = await exposure()
    for (const [amount0, amount1] of [[5_000n * 10n ** 6n, 0n], [0n, 5_000n * 10n ** 6n], [1n, 0n]] as const) {
      const data = encodeFunctionData({
        abi: compiled.AttackCallbackCaller!.abi,
        functionName: 'relay',
        args: [executor, callback(amount0, amount1, encodeCallbackData(pancakeDex, usdc, weth, 500))],
      })
      const revert = await getRevert(attacker, fake, data)
      expect(revert?.errorName).toBe('InvalidCallback')
      expect(lower(revert!.args[0] as string)).toBe(fake)
      expect((await send(attacker, fake, data)).status).toBe('reverted')
    }
    expect(await exposure()).toEqual(before)
  })

  it('the genuine pool itself, outside a fill, is refused (no swap in flight)', async () => {
    await rpc(anvil.rpcUrl, 'anvil_impersonateAccount', [pool.address])
    await rpc(anvil.rpcUrl, 'anvil_setBalance', [pool.address, numberToHex(10n ** 18n)])
    const before = await exposure()
    const [amount0, amount1] = pool.tokens[0] === usdc ? [1_000n * 10n ** 6n, 0n] : [0n, 1_000n * 10n ** 6n]
    const data = callback(amount0, amount1, encodeCallbackData(pancakeDex, usdc, weth, 500))
    const revert = await getRevert(pool.address, executor, data)
    expect(revert?.errorName).toBe('InvalidCallback')
    expect((await send(pool.address, executor, data)).status).toBe('reverted')
    // Nor through the Uniswap V3 callback, which a Pancake pool never calls.
    const uniswapCallback = encodeFunctionData({ abi: weftExecutorAbi, functionName: 'uniswapV3SwapCallback', args: [amount0, amount1, encodeCallbackData(pancakeDex, usdc, weth, 500)] })
    expect((await getRevert(pool.address, executor, uniswapCallback))?.errorName).toBe('InvalidCallback')
    await rpc(anvil.rpcUrl, 'anvil_stopImpersonatingAccount', [pool.address])
    expect(await exposure()).toEqual(before)
  })

  it('a real PancakeV3Pool of the same pair and fee from another deployer is not the pool: refused', async () => {
    // The attacker's own PancakeSwap deployment: same npm bytecode, same init-code hash.
    const rogue = await deployPancakeV3(devnet, { pools: [{ pair: ['USDC', 'WETH'], fee: 500, positions: [{ range: 'full', usd: 100_000 }] }], dexId: 'rogue' })
    const roguePool = rogue.pools[0]!
    expect(roguePool.address).toBe(getPancakePoolAddress(rogue.poolDeployer, usdc, weth, 500))
    expect(roguePool.address).not.toBe(pool.address)
    // A genuine-looking pool: the same code (up to its immutables), tokens and fee.
    for (const functionName of ['token0', 'token1', 'fee'] as const) {
      const read = (address: Address) => anvil.publicClient.readContract({ address, abi: pancakeV3PoolAbi, functionName })
      expect(await read(roguePool.address)).toEqual(await read(pool.address))
    }
    await rpc(anvil.rpcUrl, 'anvil_impersonateAccount', [roguePool.address])
    await rpc(anvil.rpcUrl, 'anvil_setBalance', [roguePool.address, numberToHex(10n ** 18n)])
    const before = await exposure()
    for (const dex of [pancakeDex, uniswapDex]) {
      const data = callback(10n ** 9n, 10n ** 9n, encodeCallbackData(dex, usdc, weth, 500))
      const revert = await getRevert(roguePool.address, executor, data)
      expect(revert?.errorName).toBe('InvalidCallback')
      expect(lower(revert!.args[0] as string)).toBe(roguePool.address)
      expect((await send(roguePool.address, executor, data)).status).toBe('reverted')
    }
    await rpc(anvil.rpcUrl, 'anvil_stopImpersonatingAccount', [roguePool.address])
    expect(await exposure()).toEqual(before)
  })

  it('a pool in flight that asks for one wei more than the step’s input is refused: the fill reverts', async () => {
    await plant('AttackGreedyPancakePool', pool.address)
    const data = userFill(10_000n * 10n ** 6n)
    const userBefore = [await balanceOf(usdc, user), await balanceOf(weth, user)]
    const before = await exposure()
    const revert = await getRevert(user, executor, data)
    expect(revert?.errorName).toBe('InvalidCallback')
    expect(lower(revert!.args[0] as string)).toBe(pool.address)
    expect((await send(user, executor, data)).status).toBe('reverted')
    expect(await exposure()).toEqual(before)
    expect([await balanceOf(usdc, user), await balanceOf(weth, user)]).toEqual(userBefore)
  })

  it('a pool in flight that asks for the input twice gets no more than the input: the fill reverts', async () => {
    await plant('AttackDoubleDipPancakePool', pool.address)
    const amountIn = 10_000n * 10n ** 6n
    // Two paths from USDC: while the first is in flight the executor holds the second's input too.
    const data = buildAttackFill({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn: 2n * amountIn,
      paths: [
        { amountIn, steps: [pancakeStep(usdc, weth, 500)] },
        { amountIn, steps: [pancakeStep(usdc, weth, 2500)] },
      ],
    })
    const before = await exposure()
    const userBefore = await balanceOf(usdc, user)
    // The callback pays once per swap: the second claim finds the step's allowance spent.
    const revert = await getRevert(user, executor, data)
    expect(revert?.errorName).toBe('InvalidCallback')
    expect(lower(revert!.args[0] as string)).toBe(pool.address)
    expect((await send(user, executor, data)).status).toBe('reverted')
    expect(await exposure()).toEqual(before)
    expect(await balanceOf(usdc, user)).toBe(userBefore)
  })

  it('a Uniswap V3 pool in flight cannot be paid through the Pancake callback (the dex kind is checked)', async () => {
    const uniswapPool = devnet.getPool('USDC', 'WETH', 'uniswapV3', 500)
    await plant('AttackCrossCallbackPool', uniswapPool.address)
    const amountIn = 10_000n * 10n ** 6n
    const data = buildAttackFill({
      tokenIn: usdc,
      tokenOut: weth,
      amountIn,
      paths: [{ amountIn, steps: [{ dex: uniswapDex, tokenIn: usdc, tokenOut: weth, param: 500n }] }],
    })
    const revert = await getRevert(user, executor, data)
    expect(revert?.errorName).toBe('InvalidCallback')
    expect(lower(revert!.args[0] as string)).toBe(uniswapPool.address)
  })

  describe('a token that calls pancakeV3SwapCallback during a real Pancake fill', () => {
    const amountIn = 10n ** 18n
    let token: Address
    let tokenPool: PancakeDevnetPool

    const setUp = async () => {
      token = await deploy('AttackToken')
      const mint = encodeFunctionData({ abi: compiled.AttackToken!.abi, functionName: 'mint', args: [devnet.accounts.deployer, 10n ** 25n] })
      expect((await send(attacker, token, mint)).status).toBe('success')
      tokenPool = await pancake.createPool(token, weth, 2500, 10n ** 23n)
      await devnet.approve('WETH', user, executor, maxUint256)
    }
    const arm = async (payload: Hex, bubble: boolean) => {
      const data = encodeFunctionData({ abi: compiled.AttackToken!.abi, functionName: 'arm', args: [executor, payload, 1, bubble] })
      expect((await send(attacker, token, data)).status).toBe('success')
    }
    const buy = () =>
      buildAttackFill({ tokenIn: weth, tokenOut: token, amountIn, paths: [{ amountIn, steps: [pancakeStep(weth, token, 2500)] }] })
    const tokenCallbacks = async (data: Hex) => {
      const response = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'debug_traceCall',
          params: [{ from: user, to: executor, data, gas: numberToHex(GAS) }, 'latest', { tracer: 'callTracer' }],
        }),
      })
      type Frame = { from: string; to?: string; input: Hex; output?: Hex; error?: string; calls?: Frame[] }
      const { result } = (await response.json()) as { result: Frame }
      const found: { reverted: boolean; errorName: string | null }[] = []
      const walk = (frame: Frame) => {
        if (lower(frame.from) === token && frame.to && lower(frame.to) === executor && frame.input.startsWith(PANCAKE_CALLBACK)) {
          let errorName: string | null = null
          try {
            errorName = decodeErrorResult({ abi: errorAbi, data: frame.output ?? '0x' }).errorName
          } catch {}
          found.push({ reverted: frame.error !== undefined, errorName })
        }
        for (const child of frame.calls ?? []) walk(child)
      }
      walk(result)
      return found
    }

    it('control: unarmed, the fill through the real Pancake pool succeeds', async () => {
      await setUp()
      expect((await send(user, executor, buy())).status).toBe('success')
      expect(await balanceOf(token, user)).toBeGreaterThan(0n)
    })

    it('armed, the executor refuses the token (InvalidCallback) and the whole fill reverts', async () => {
      await setUp()
      const victimUsdc = await balanceOf(usdc, victim)
      for (const claim of [
        callback(amountIn, amountIn, encodeCallbackData(pancakeDex, weth, token, 2500)),
        callback(victimUsdc, victimUsdc, encodeCallbackData(pancakeDex, usdc, weth, 500)),
      ]) {
        await arm(claim, true)
        const before = [await balanceOf(weth, user), await balanceOf(token, user), await balanceOf(weth, tokenPool.address), await balanceOf(usdc, victim)]
        expect(await tokenCallbacks(buy())).toEqual([{ reverted: true, errorName: 'InvalidCallback' }])
        expect((await send(user, executor, buy())).status).toBe('reverted')
        expect([await balanceOf(weth, user), await balanceOf(token, user), await balanceOf(weth, tokenPool.address), await balanceOf(usdc, victim)]).toEqual(before)
      }
    })

    it('when the token swallows the refusal, the fill completes exactly as the honest one', async () => {
      await setUp()
      const honest = decodeFunctionResult({
        abi: weftExecutorAbi,
        functionName: 'fill',
        data: (await anvil.publicClient.call({ account: user, to: executor, data: buy(), gas: GAS })).data!,
      })
      await arm(callback(amountIn, amountIn, encodeCallbackData(pancakeDex, weth, token, 2500)), false)
      expect((await tokenCallbacks(buy())).every((c) => c.reverted && c.errorName === 'InvalidCallback')).toBe(true)
      const before = await balanceOf(token, user)
      expect((await send(user, executor, buy())).status).toBe('success')
      expect((await balanceOf(token, user)) - before).toBe(honest)
      expect([await balanceOf(weth, token), await balanceOf(weth, executor), await balanceOf(token, executor)]).toEqual([0n, 0n, 0n])
    })
  })
})
