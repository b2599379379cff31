// Attacks on the Aerodrome V2 step (kind 7), against the real Pool and PoolFactory (compiled from
// sphere-mezo-solidity-files) and the real executor. A step names only (dex, tokenIn, tokenOut,
// param): the executor derives the pool as a clone of the configured factory's implementation at
// salt keccak256(token0, token1, stable), so
// - a fake pool (a contract of the attacker's, even a Pool clone running the real code with rigged
//   reserves, deployed outside the factory) is never called: a step for a pair the factory never
//   created finds no code at its address and reverts; other param bits are refused;
// - a pool from a rogue factory (the real PoolFactory code, deployed by the attacker, with its own
//   prices and fees) is never called either, for a pair the real factory has or has not;
// - a reentrant token on a real pool (pools are permissionless: the attacker creates one through the
//   real factory) that calls back into the executor or the pool mid-fill meets the executor's
//   Reentrancy guard and the pool's own nonReentrant: the fill reverts and nothing moves.
import { type Address, type Hex, decodeErrorResult, encodeDeployData, encodeFunctionData, maxUint256, numberToHex, toFunctionSelector } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { weftExecutorAbi } from '../../src/executor/artifacts.js'
import { getExecutorDexes } from '../../src/executor/getExecutorAddress.js'
import { getAerodromeV2PoolAddress } from '../../src/protocols/aerodromeV2/address.js'
import { aerodromeV2Family } from '../../src/protocols/aerodromeV2/family.js'
import { readAerodromeV2Pools } from '../../src/protocols/aerodromeV2/readPools.js'
import { defaultFamilies } from '../../src/protocols/defaultFamilies.js'
import type { ExecutorStep } from '../../src/protocols/types.js'
import { type AerodromeDeployment, aerodromePoolAbi, aerodromePoolFactoryAbi, compileAerodrome, deployAerodrome, withAerodrome } from '../devnet/aerodrome.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import { type Anvil, type CompiledContracts, type Devnet, compileTestContracts, deployDevnet, getCallRevertData, sendDevnetTransaction, startAnvil } from '../devnet/index.js'
import { buildAttackFill } from './support/attackDevnet.js'

const GAS = 6_000_000n
const E18 = 10n ** 18n
const lower = (address: string) => address.toLowerCase() as Address
const FILL_SELECTOR = toFunctionSelector(weftExecutorAbi.find((item) => item.type === 'function' && item.name === 'fill')!)
const ON_TRANSFER = 1

describe('attacks on the Aerodrome V2 step', () => {
  let anvil: Anvil
  let devnet: Devnet
  let aerodrome: AerodromeDeployment
  let compiled: CompiledContracts
  let executor: Address
  let dexIndex: number
  let user: Address
  let attacker: Address
  let weth: Address
  let usdc: Address
  let wbtc: Address
  let usdt: Address
  let checkpoint: AnvilCheckpoint
  const stats = { attacks: 0, refused: 0 }

  const send = (label: string, from: Address, to: Address | undefined, data: Hex) =>
    sendDevnetTransaction(anvil.rpcUrl, { label, from, ...(to ? { to } : {}), data, gas: GAS })
  const errorAbi = [...weftExecutorAbi, ...aerodromePoolAbi]
  /** How a call reverts now (the executor's or the pool's error name, or raw data), or null when it does not. */
  const revertOf = async (from: Address, data: Hex): Promise<string | null> => {
    const raw = await getCallRevertData(anvil.rpcUrl, { from, to: executor, data, gas: numberToHex(GAS) })
    if (raw === null) return null
    try {
      return decodeErrorResult({ abi: errorAbi, data: raw }).errorName
    } catch {
      return raw
    }
  }
  type Frame = { from: string; to?: string; input: Hex; output?: Hex; error?: string; calls?: Frame[] }
  /** Every call a fill would make, depth first, with whether it reverted. */
  const traceCalls = async (from: Address, data: Hex) => {
    const response = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params: [{ from, to: executor, data, gas: numberToHex(GAS) }, 'latest', { tracer: 'callTracer' }] }),
    })
    const { result } = (await response.json()) as { result: Frame }
    const frames: { from: Address; to: Address; input: Hex; output: Hex; reverted: boolean }[] = []
    const walk = (frame: Frame) => {
      frames.push({ from: lower(frame.from), to: lower(frame.to ?? '0x'), input: frame.input, output: frame.output ?? '0x', reverted: frame.error !== undefined })
      for (const child of frame.calls ?? []) walk(child)
    }
    walk(result)
    return frames
  }
  const calledAddresses = async (from: Address, data: Hex) => new Set((await traceCalls(from, data)).map((frame) => frame.to))
  const step = (tokenIn: Address, tokenOut: Address, param: bigint): ExecutorStep => ({ dex: dexIndex, tokenIn: lower(tokenIn), tokenOut: lower(tokenOut), param })
  const order = (tokenIn: Address, tokenOut: Address, amountIn: bigint, param = 0n, receiver?: Address) =>
    buildAttackFill({ tokenIn, tokenOut, amountIn, ...(receiver ? { receiver } : {}), paths: [{ amountIn, steps: [step(tokenIn, tokenOut, param)] }] })
  const balances = (tokens: readonly Address[], holders: readonly Address[]) =>
    Promise.all(
      tokens.flatMap((token) =>
        holders.map((holder) => anvil.publicClient.readContract({ address: token, abi: compiled.AttackToken!.abi, functionName: 'balanceOf', args: [holder] }) as Promise<bigint>),
      ),
    )

  /** Deploys a Pool clone (EIP-1167 of the real implementation) from the attacker, outside any factory. */
  async function deployLooseClone(): Promise<Address> {
    const initCode = `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${aerodrome.implementation.slice(2)}5af43d82803e903d91602b57fd5bf3` as Hex
    const receipt = await send('deploy a loose Pool clone', attacker, undefined, initCode)
    return lower(receipt.contractAddress!)
  }

  /** Creates and seeds a pool on `factory` (the real one or a rogue one) from `from`. */
  async function createPool(factory: Address, tokenA: Address, amountA: bigint, tokenB: Address, amountB: bigint, stable: boolean, from: Address): Promise<Address> {
    await send('create a pool', from, factory, encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'createPool', args: [tokenA, tokenB, stable] }))
    const pool = lower(await anvil.publicClient.readContract({ address: factory, abi: aerodromePoolFactoryAbi, functionName: 'getPool', args: [tokenA, tokenB, stable] }))
    await seed(pool, tokenA, amountA, tokenB, amountB, from)
    return pool
  }

  async function seed(pool: Address, tokenA: Address, amountA: bigint, tokenB: Address, amountB: bigint, from: Address) {
    for (const [token, amount] of [[tokenA, amountA], [tokenB, amountB]] as const) {
      await mint(token, from, amount)
      await send('seed', from, token, encodeFunctionData({ abi: compiled.AttackToken!.abi, functionName: 'transfer', args: [pool, amount] }))
    }
    await send('mint LP', from, pool, encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'mint', args: [from] }))
  }

  async function mint(token: Address, to: Address, amount: bigint) {
    if (Object.values(devnet.tokens).some((t) => t.address === lower(token))) return devnet.mint(token, to, amount)
    await send('mint', to, token, encodeFunctionData({ abi: compiled.AttackToken!.abi, functionName: 'mint', args: [to, amount] }))
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    devnet = await deployDevnet(anvil)
    aerodrome = await deployAerodrome(devnet)
    const config = withAerodrome(devnet.chain, aerodrome)
    dexIndex = config.dexes.length - 1
    const receipt = await send(
      'deploy WeftExecutor with the Aerodrome dex',
      devnet.accounts.deployer,
      undefined,
      encodeDeployData({ abi: weftExecutorAbi, bytecode: (await import('../../src/executor/executorBytecode.js')).weftExecutorBytecode, args: [config.wrappedNative.address, getExecutorDexes(config, [...defaultFamilies, aerodromeV2Family])] }),
    )
    executor = lower(receipt.contractAddress!)
    compiled = await compileTestContracts({ files: ['test/contracts/AttackToken.sol'] })
    ;[user, attacker] = [devnet.accounts.traders[0]!, lower(anvil.accounts[9]!.address)]
    weth = devnet.tokens.WETH.address
    usdc = devnet.tokens.USDC.address
    wbtc = devnet.tokens.WBTC.address
    usdt = devnet.tokens.USDT.address
    for (const token of Object.values(devnet.tokens)) await devnet.approve(token.address, user, executor, maxUint256)
    checkpoint = await anvil.checkpoint()
  }, 120_000)
  afterEach(async () => {
    await checkpoint.restore()
    checkpoint = await anvil.checkpoint()
  })
  afterAll(async () => {
    console.log(`Aerodrome V2 attacks: ${stats.attacks} attacks, ${stats.refused} refused with nothing moved`)
    await anvil?.stop()
  })

  it('control: an honest step trades the pool the executor derives, for exactly its getAmountOut', async () => {
    const pool = getAerodromeV2PoolAddress(aerodrome.dex, weth, usdc, false)
    const amountIn = E18
    const expected = await anvil.publicClient.readContract({ address: pool, abi: aerodromePoolAbi, functionName: 'getAmountOut', args: [amountIn, weth] })
    const data = order(weth, usdc, amountIn)
    expect(await calledAddresses(user, data)).toContain(pool)
    const [before] = await balances([usdc], [user])
    await send('honest fill', user, executor, data)
    const [after] = await balances([usdc], [user])
    expect(after! - before!).toBe(expected)
    expect(expected).toBeGreaterThan(0n)
  })

  it('a fake pool: a pair the factory never created, a loose Pool clone with rigged reserves, a flipped stable bit, stray param bits: refused, the fake never called, nothing moved', async () => {
    // The attacker's own Pool clone (the real code, deployed outside the factory, holding WBTC and
    // USDT): no step can name its address, so it is never called.
    const fake = await deployLooseClone()
    await mint(wbtc, fake, 10n ** 8n)
    await mint(usdt, fake, 10n ** 12n)
    const watched = [wbtc, usdt, weth, usdc]
    const holders = [user, executor, fake]
    const attempts: [string, Hex, string][] = [
      ['WBTC -> USDT (no such Aerodrome pool)', order(wbtc, usdt, 10n ** 6n), 'no code'],
      ['WETH -> USDC as stable (only a volatile pool exists)', order(weth, usdc, E18, 1n), 'no code'],
      ['WETH -> USDC with param bit 1', order(weth, usdc, E18, 2n), 'InvalidStep'],
      ['WETH -> USDC with a high param bit', order(weth, usdc, E18, 1n << 200n), 'InvalidStep'],
    ]
    for (const [name, data, expected] of attempts) {
      stats.attacks++
      const before = await balances(watched, holders)
      const reason = await revertOf(user, data)
      // A derived address without code answers getAmountOut with no data: the decode reverts with none.
      expect(reason, name).toBe(expected === 'no code' ? '0x' : expected)
      expect((await calledAddresses(user, data)).has(fake), name).toBe(false)
      const receipt = await sendDevnetTransaction(anvil.rpcUrl, { label: name, from: user, to: executor, data, gas: GAS }).catch((error: Error) => error)
      expect(receipt, name).toBeInstanceOf(Error)
      expect(await balances(watched, holders), name).toEqual(before)
      stats.refused++
    }
  })

  it('a rogue factory (the real PoolFactory code, deployed by the attacker): its pools are never read, priced or called', async () => {
    const { PoolFactory } = await compileAerodrome()
    const deployed = await send('deploy a rogue PoolFactory', attacker, undefined, encodeDeployData({ abi: aerodromePoolFactoryAbi, bytecode: PoolFactory.bytecode, args: [aerodrome.implementation] }))
    const rogue = lower(deployed.contractAddress!)
    // The same pair as a real pool, at a price twenty times the market and a zero fee; and a pair the real factory lacks.
    const rogueWethUsdc = await createPool(rogue, weth, E18, usdc, 60_000n * 10n ** 6n, false, attacker)
    const rogueWbtcUsdt = await createPool(rogue, wbtc, 10n ** 8n, usdt, 1_000_000n * 10n ** 6n, false, attacker)
    await send('zero fee on the rogue pool', attacker, rogue, encodeFunctionData({ abi: aerodromePoolFactoryAbi, functionName: 'setCustomFee', args: [rogueWethUsdc, 420n] }))
    const realWethUsdc = getAerodromeV2PoolAddress(aerodrome.dex, weth, usdc, false)
    expect(rogueWethUsdc).not.toBe(realWethUsdc)

    // The reader derives from the configured factory only.
    const block = await anvil.publicClient.getBlockNumber({ cacheTime: 0 })
    const { pools } = await readAerodromeV2Pools({ client: anvil.publicClient, chain: devnet.chain, blockNumber: block, tokens: [weth, usdc, wbtc, usdt], dexes: [aerodrome.dex] })
    expect(pools.map((p) => p.address)).not.toContain(rogueWethUsdc)
    expect(pools.map((p) => p.address)).not.toContain(rogueWbtcUsdt)

    stats.attacks += 2
    // WETH -> USDC: the real pool is traded, the rogue one untouched.
    const honest = order(weth, usdc, E18)
    const called = await calledAddresses(user, honest)
    expect(called).toContain(realWethUsdc)
    expect(called.has(rogueWethUsdc)).toBe(false)
    const rogueBefore = await balances([weth, usdc], [rogueWethUsdc])
    await send('fill past the rogue pool', user, executor, honest)
    expect(await balances([weth, usdc], [rogueWethUsdc])).toEqual(rogueBefore)
    stats.refused++
    // WBTC -> USDT: only the rogue factory has it; the step finds no real pool and reverts.
    const stray = order(wbtc, usdt, 10n ** 6n)
    expect(await revertOf(user, stray)).toBe('0x')
    expect((await calledAddresses(user, stray)).has(rogueWbtcUsdt)).toBe(false)
    stats.refused++
  })

  it('a reentrant token on a real Aerodrome pool: re-entering the executor or the pool mid-fill reverts the fill, nothing moves', async () => {
    const token = lower((await send('deploy AttackToken', attacker, undefined, compiled.AttackToken!.bytecode)).contractAddress!)
    // Pools are permissionless: the attacker creates one through the real factory.
    const pool = await createPool(aerodrome.factory, token, 10n ** 24n, weth, 10n ** 21n, false, attacker)
    expect(pool).toBe(getAerodromeV2PoolAddress(aerodrome.dex, token, weth, false))
    const amountIn = E18
    const buy = order(weth, token, amountIn)
    // Control: unarmed, the buy goes through.
    expect(await revertOf(user, buy)).toBeNull()

    const [token0] = lower(token) < lower(weth) ? [token, weth] : [weth, token]
    const payloads: [string, Address, Hex, string][] = [
      ['a second fill, paid to the attacker', executor, order(weth, token, amountIn, 0n, attacker), 'Reentrancy'],
      [
        "the pool's swap, for its whole WETH",
        pool,
        encodeFunctionData({ abi: aerodromePoolAbi, functionName: 'swap', args: token0 === weth ? [10n ** 20n, 0n, attacker, '0x'] : [0n, 10n ** 20n, attacker, '0x'] }),
        'Reentrancy',
      ],
    ]
    for (const [name, target, payload] of payloads) {
      stats.attacks++
      await send('arm', attacker, token, encodeFunctionData({ abi: compiled.AttackToken!.abi, functionName: 'arm', args: [target, payload, ON_TRANSFER, true] }))
      const watched = [weth, token]
      const holders = [user, executor, pool, attacker]
      const before = await balances(watched, holders)
      const frames = await traceCalls(user, buy)
      // The token's hook made its call, and it was refused.
      const hook = frames.filter((frame) => frame.from === token && frame.to === target)
      expect(hook.length, name).toBeGreaterThan(0)
      expect(hook.every((frame) => frame.reverted), name).toBe(true)
      if (target === executor) {
        expect(hook.every((frame) => frame.input.startsWith(FILL_SELECTOR))).toBe(true)
        expect(decodeErrorResult({ abi: errorAbi, data: hook[0]!.output }).errorName).toBe('Reentrancy')
      }
      expect(await revertOf(user, buy), name).not.toBeNull()
      await sendDevnetTransaction(anvil.rpcUrl, { label: name, from: user, to: executor, data: buy, gas: GAS }).catch(() => undefined)
      expect(await balances(watched, holders), name).toEqual(before)
      stats.refused++
    }
  })

  it('refused every attack', () => {
    expect(stats.refused).toBe(stats.attacks)
    expect(stats.attacks).toBeGreaterThanOrEqual(8)
  })
})
