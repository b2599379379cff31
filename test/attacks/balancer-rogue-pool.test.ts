// A rogue Balancer V2 pool: anyone can register a pool contract in the real Vault, and an order may
// name any pool id in a Balancer step. The executor approves the Vault (not the pool) for exactly the
// step's input right before Vault.swap and requires the allowance back at 0 after it, so whatever the
// pool's onSwap does — claim to pay more than it holds, pull from the executor or the victim, swap
// again through the Vault in the executor's name, re-enter the executor — it gets at most the step's
// input, through the Vault's own GIVEN_IN pull, and leaves no allowance. The honest SDK never routes
// through such a pool: it prices only pools a configured WeightedPoolFactory created.
import { type Address, type Hex, decodeErrorResult, encodeAbiParameters, encodeFunctionData, maxUint256, numberToHex, parseAbi, zeroAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ChainConfig, createRpcSource, deployExecutor, getQuote, weftExecutorAbi } from '../../src/index.js'
import { readBalancerV2Pools } from '../../src/protocols/balancerV2/readPools.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import {
  type BalancerV2Deployment,
  type BalancerV2DevnetPool,
  balancerVaultAbi,
  createBalancerV2WeightedPool,
  deployBalancerV2,
  getBalancerV2DexConfig,
} from '../devnet/balancerV2.js'
import { type Anvil, type CompiledContracts, type Devnet, compileTestContracts, deployDevnet, getCallRevertData, startAnvil, testTokenAbi } from '../devnet/index.js'
import { buildAttackFill, buildCallbackCalldata, encodeCallbackData } from './support/attackDevnet.js'

const E18 = 10n ** 18n
const GAS = 6_000_000n
const lower = (address: string) => address.toLowerCase() as Address
const roguePoolAbi = parseAbi([
  'function arm(uint8 mode, address executor, address victim, bytes payload)',
  'function poolId() view returns (bytes32)',
  'function attempts() view returns (uint256)',
  'function successes() view returns (uint256)',
  'function lastReturn() view returns (bytes)',
])
const MODE = { HONEST: 0, OVERCLAIM: 1, PULL: 2, REENTER_VAULT: 3, REENTER_EXECUTOR: 4 } as const

describe('a rogue Balancer V2 pool against the real Vault and executor', () => {
  let anvil: Anvil
  let devnet: Devnet
  let balancer: BalancerV2Deployment
  let compiled: CompiledContracts
  let honest: BalancerV2DevnetPool
  let chain: ChainConfig
  let executor: Address
  let rogue: Address
  let rogueId: Hex
  let attacker: Address
  let victim: Address
  let weth: Address
  let usdc: Address
  let dexIndex: number
  let checkpoint: AnvilCheckpoint

  const wallet = (from: Address) => anvil.walletClients.find((w) => lower(w.account.address) === lower(from))!
  const send = async (from: Address, to: Address, data: Hex, value = 0n) => {
    const hash = await wallet(from).sendTransaction({ to, data, value, gas: GAS })
    return anvil.publicClient.waitForTransactionReceipt({ hash })
  }
  const sendOk = async (label: string, from: Address, to: Address, data: Hex, value = 0n) => {
    const receipt = await send(from, to, data, value)
    if (receipt.status !== 'success') throw new Error(`${label} reverted`)
    return receipt
  }
  /** How `data` reverts when called now (eth_call), as raw revert data. */
  const revertData = async (from: Address, to: Address, data: Hex): Promise<Hex> => {
    const raw = await getCallRevertData(anvil.rpcUrl, { from, to, data, gas: numberToHex(GAS) })
    if (raw === null) throw new Error('the call did not revert')
    return raw
  }
  const balanceOf = (token: Address, who: Address) =>
    anvil.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [who] })
  const allowance = (token: Address, owner: Address, spender: Address) =>
    anvil.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'allowance', args: [owner, spender] })
  const rogueRead = <F extends 'attempts' | 'successes' | 'lastReturn'>(functionName: F) =>
    anvil.publicClient.readContract({ address: rogue, abi: roguePoolAbi, functionName })
  const arm = (mode: number, payload: Hex = '0x') =>
    sendOk('arm', attacker, rogue, encodeFunctionData({ abi: roguePoolAbi, functionName: 'arm', args: [mode, executor, victim, payload] }))
  const balancerStep = (tokenIn: Address, tokenOut: Address, poolId: Hex) => ({ dex: dexIndex, tokenIn, tokenOut, param: BigInt(poolId) })

  /** Deploys a rogue pool (from the attacker) for two tokens and seeds it through the Vault. */
  async function deployRogue(tokenA: Address, tokenB: Address, amounts: [bigint, bigint]): Promise<{ pool: Address; poolId: Hex }> {
    const contract = compiled.BalancerRoguePool!
    const hash = await wallet(attacker).deployContract({ abi: contract.abi, bytecode: contract.bytecode, args: [balancer.vault, tokenA, tokenB], gas: GAS })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    const pool = lower(receipt.contractAddress!)
    const poolId = await anvil.publicClient.readContract({ address: pool, abi: roguePoolAbi, functionName: 'poolId' })
    const tokens = lower(tokenA) < lower(tokenB) ? [lower(tokenA), lower(tokenB)] : [lower(tokenB), lower(tokenA)]
    const sorted = lower(tokenA) < lower(tokenB) ? amounts : ([amounts[1], amounts[0]] as [bigint, bigint])
    for (const [i, token] of tokens.entries()) {
      await fund(token, attacker, sorted[i]!)
      await sendOk('approve Vault', attacker, token, encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [balancer.vault, maxUint256] }))
    }
    await sendOk(
      'seed the rogue pool',
      attacker,
      balancer.vault,
      encodeFunctionData({
        abi: balancerVaultAbi,
        functionName: 'joinPool',
        args: [poolId, attacker, attacker, { assets: tokens, maxAmountsIn: sorted, userData: encodeAbiParameters([{ type: 'uint256[]' }], [sorted]), fromInternalBalance: false }],
      }),
    )
    return { pool, poolId }
  }

  async function fund(token: Address, to: Address, amount: bigint) {
    if (Object.values(devnet.tokens).some((t) => t.address === lower(token))) return devnet.mint(token, to, amount)
    await sendOk('mint', devnet.accounts.deployer, token, encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }))
  }

  /** What could leak: the victim's and the executor's balances, and every allowance the executor could leave. */
  const exposure = async (tokens: readonly Address[]) => ({
    victim: await Promise.all(tokens.map((t) => balanceOf(t, victim))),
    executor: await Promise.all(tokens.map((t) => balanceOf(t, executor))),
    toVault: await Promise.all(tokens.map((t) => allowance(t, executor, balancer.vault))),
    toRogue: await Promise.all(tokens.map((t) => allowance(t, executor, rogue))),
  })

  beforeAll(async () => {
    anvil = await startAnvil()
    ;[devnet, compiled] = await Promise.all([
      deployDevnet(anvil),
      compileTestContracts({ files: ['test/contracts/BalancerRoguePool.sol', 'test/contracts/BalancerStickyToken.sol'] }),
    ])
    balancer = await deployBalancerV2(devnet)
    weth = devnet.tokens.WETH.address
    usdc = devnet.tokens.USDC.address
    // Deep and cheap, so quotes take it: the rogue pool must lose to it only by being refused.
    honest = await createBalancerV2WeightedPool(
      devnet,
      balancer,
      [
        { token: 'WETH', weight: E18 / 2n, amount: 10_000n * E18 },
        { token: 'USDC', weight: E18 / 2n, amount: 30_000_000n * 10n ** 6n },
      ],
      { swapFee: 10n ** 14n },
    )
    attacker = lower(anvil.accounts[5]!.address)
    victim = devnet.accounts.traders[0]!
    ;({ pool: rogue, poolId: rogueId } = await deployRogue(weth, usdc, [20_000n * E18, 60_000_000n * 10n ** 6n]))
    // The chain lists both pool ids: the honest SDK must price one and skip the other.
    const dexes = [...devnet.chain.dexes, getBalancerV2DexConfig(balancer, [honest.poolId, rogueId])]
    dexIndex = dexes.length - 1
    executor = lower(await deployExecutor({ walletClient: anvil.walletClients[0]!, publicClient: anvil.publicClient, chain: { ...devnet.chain, dexes }, gas: GAS }))
    chain = { ...devnet.chain, dexes, executor }
    for (const token of Object.values(devnet.tokens)) await devnet.approve(token.address, victim, executor, maxUint256)
    checkpoint = await anvil.checkpoint()
  }, 120_000)
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  it('the honest SDK reads the rogue pool, reports it skipped, and never routes through it', async () => {
    const blockNumber = await anvil.publicClient.getBlockNumber()
    const { pools, skipped } = await readBalancerV2Pools({ client: anvil.publicClient, chain, blockNumber, tokens: [weth, usdc], dexes: [chain.dexes[dexIndex]!] })
    expect(pools.map((p) => p.poolId)).toEqual([honest.poolId])
    expect(skipped).toEqual([{ address: rogueId, reason: expect.stringMatching(/not a weighted pool from a known WeightedPoolFactory/) }])

    const source = createRpcSource({ client: anvil.publicClient, chain })
    const liquidity = await source.getLiquidity({ chain, tokenIn: weth, tokenOut: usdc })
    expect(liquidity.report?.skipped.map((s) => s.address)).toContain(rogueId)
    // The rogue pool poses as a 50/50 pool twice as deep as the honest one at a 0.0001% fee: a quote
    // that priced it would take it (checked below by reading it as if it were genuine).
    for (const sellAmount of [50n * E18, 300n * E18]) {
      const quote = await getQuote({ chainId: chain.id, sellToken: weth, buyToken: usdc, sellAmount, slippageBps: 50 }, source, { chains: [chain] })
      const keys = quote.route.swaps.flat().map((s) => s.key)
      expect(keys).not.toContain(rogueId)
      expect(keys).toContain(honest.poolId)
    }
    // Control: a source that hands the router the rogue pool's state as its getters and the Vault
    // report it (what a reader without the factory check would deliver) gets it routed through.
    const [rogueTokens] = [await anvil.publicClient.readContract({ address: balancer.vault, abi: balancerVaultAbi, functionName: 'getPoolTokens', args: [rogueId] })]
    const posing = { ...pools[0]!, poolId: rogueId, pool: rogue, balances: rogueTokens[1].map(String), swapFeePercentage: '1000000000000' }
    const withRogue = {
      async getLiquidity(request: Parameters<typeof source.getLiquidity>[0]) {
        const read = await source.getLiquidity(request)
        return { ...read, pools: [...read.pools, posing] }
      },
    }
    const control = await getQuote({ chainId: chain.id, sellToken: weth, buyToken: usdc, sellAmount: 300n * E18, slippageBps: 50 }, withRogue, { chains: [chain] })
    expect(control.route.swaps.flat().map((s) => s.key)).toContain(rogueId)
  })

  it('a pool claiming to pay more than it holds: the Vault refuses, the fill reverts, nothing moves', async () => {
    await arm(MODE.OVERCLAIM)
    const before = await exposure([weth, usdc])
    const data = buildAttackFill({ tokenIn: zeroAddress, tokenOut: usdc, amountIn: E18, paths: [{ amountIn: E18, steps: [balancerStep(weth, usdc, rogueId)] }] })
    const receipt = await send(attacker, executor, data, E18)
    expect(receipt.status).toBe('reverted')
    expect(await exposure([weth, usdc])).toEqual(before)
  })

  it('a pool pulling from the executor and the victim mid-swap gets nothing; the Vault takes exactly the step input', async () => {
    await arm(MODE.PULL)
    // The rogue step runs first while the executor still holds the second path's WETH too.
    const rogueIn = 2n * E18
    const laterIn = 3n * E18
    const data = buildAttackFill({
      tokenIn: zeroAddress,
      tokenOut: usdc,
      amountIn: rogueIn + laterIn,
      paths: [
        { amountIn: rogueIn, steps: [balancerStep(weth, usdc, rogueId)] },
        { amountIn: laterIn, steps: [balancerStep(weth, usdc, honest.poolId)] },
      ],
    })
    const victimBefore = await exposure([weth, usdc])
    const vaultWethBefore = await balanceOf(weth, balancer.vault)
    const attackerUsdcBefore = await balanceOf(usdc, attacker)
    const receipt = await send(attacker, executor, data, rogueIn + laterIn)
    expect(receipt.status).toBe('success')
    expect(await rogueRead('attempts')).toBe(3n)
    expect(await rogueRead('successes')).toBe(0n)
    // The Vault pulled the two steps' inputs and nothing more; the rogue holds nothing itself.
    expect((await balanceOf(weth, balancer.vault)) - vaultWethBefore).toBe(rogueIn + laterIn)
    expect(await balanceOf(weth, rogue)).toBe(0n)
    expect(await balanceOf(usdc, rogue)).toBe(0n)
    const after = await exposure([weth, usdc])
    expect(after.victim).toEqual(victimBefore.victim)
    expect(after.executor).toEqual([0n, 0n])
    expect(after.toVault).toEqual([0n, 0n])
    expect(after.toRogue).toEqual([0n, 0n])
    // The attacker got what the two pools paid: the rogue's thousandth of its USDC and the honest pool's output.
    expect((await balanceOf(usdc, attacker)) - attackerUsdcBefore).toBeGreaterThan(0n)
  })

  it('a pool swapping again through the Vault in the executor’s name is refused', async () => {
    await arm(MODE.REENTER_VAULT)
    const data = buildAttackFill({ tokenIn: zeroAddress, tokenOut: usdc, amountIn: E18, paths: [{ amountIn: E18, steps: [balancerStep(weth, usdc, rogueId)] }] })
    const before = await exposure([weth, usdc])
    expect((await send(attacker, executor, data, E18)).status).toBe('success')
    expect(await rogueRead('attempts')).toBe(1n)
    expect(await rogueRead('successes')).toBe(0n)
    const after = await exposure([weth, usdc])
    expect(after.victim).toEqual(before.victim)
    expect(after.executor).toEqual([0n, 0n])
    expect(after.toVault).toEqual([0n, 0n])
  })

  it('a pool re-entering the executor: fill hits the lock, the V3 callback finds no swap in flight', async () => {
    const inner = buildAttackFill({ tokenIn: weth, tokenOut: usdc, amountIn: E18, paths: [{ amountIn: E18, steps: [balancerStep(weth, usdc, honest.poolId)] }] })
    const callback = buildCallbackCalldata(10n ** 30n, 0n, encodeCallbackData(1, usdc, weth, 500))
    for (const [payload, expected] of [
      [inner, 'Reentrancy'],
      [callback, 'InvalidCallback'],
    ] as const) {
      await arm(MODE.REENTER_EXECUTOR, payload)
      const data = buildAttackFill({ tokenIn: zeroAddress, tokenOut: usdc, amountIn: E18, paths: [{ amountIn: E18, steps: [balancerStep(weth, usdc, rogueId)] }] })
      const before = await exposure([weth, usdc])
      expect((await send(attacker, executor, data, E18)).status).toBe('success')
      expect(await rogueRead('successes')).toBe(0n)
      const answer = (await rogueRead('lastReturn')) as Hex
      const selector = weftExecutorAbi.find((item) => item.type === 'error' && item.name === expected)
      expect(selector, expected).toBeDefined()
      expect(decodeErrorResult({ abi: weftExecutorAbi, data: answer }).errorName).toBe(expected)
      const after = await exposure([weth, usdc])
      expect(after.victim).toEqual(before.victim)
      expect(after.toVault).toEqual([0n, 0n])
    }
  })

  it('a step naming a pool id that does not hold its tokens reverts in the Vault, leaving no allowance', async () => {
    const dai = devnet.tokens.DAI.address
    await devnet.mint(dai, attacker, 1_000n * E18)
    await sendOk('approve executor', attacker, dai, encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [executor, maxUint256] }))
    const data = buildAttackFill({ tokenIn: dai, tokenOut: usdc, amountIn: 1_000n * E18, paths: [{ amountIn: 1_000n * E18, steps: [balancerStep(dai, usdc, honest.poolId)] }] })
    expect((await send(attacker, executor, data)).status).toBe('reverted')
    expect(await allowance(dai, executor, balancer.vault)).toBe(0n)
  })

  it('a token whose transferFrom leaves the allowance standing: the executor reverts instead of leaving it', async () => {
    const stickyContract = compiled.BalancerStickyToken!
    const hash = await wallet(attacker).deployContract({ abi: stickyContract.abi, bytecode: stickyContract.bytecode, gas: GAS })
    const sticky = lower((await anvil.publicClient.waitForTransactionReceipt({ hash })).contractAddress!)
    const { poolId } = await deployRogue(sticky, usdc, [1_000n * E18, 100_000n * 10n ** 6n])
    await fund(sticky, attacker, 10n * E18)
    await sendOk('approve executor', attacker, sticky, encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [executor, maxUint256] }))
    const data = buildAttackFill({ tokenIn: sticky, tokenOut: usdc, amountIn: 10n * E18, paths: [{ amountIn: 10n * E18, steps: [balancerStep(sticky, usdc, poolId)] }] })
    const receipt = await send(attacker, executor, data)
    expect(receipt.status).toBe('reverted')
    const decoded = decodeErrorResult({ abi: weftExecutorAbi, data: await revertData(attacker, executor, data) })
    expect(decoded.errorName).toBe('AllowanceLeft')
    expect([lower(decoded.args[0] as string), decoded.args[1]]).toEqual([sticky, 10n * E18])
    expect(await allowance(sticky, executor, balancer.vault)).toBe(0n)
  })
})
