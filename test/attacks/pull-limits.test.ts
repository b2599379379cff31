// Pull limits: an executor that users approve must take the input token only, only from the
// caller, only up to the input amount, spend exactly that, call only genuine pools, and keep neither
// tokens nor allowances afterwards (leftover approvals and balances are what the Transit Swap,
// Dexible and LI.FI drains emptied). Each test builds an order that breaks one limit and sends it
// to the real executor.
import {
  type Address,
  type Hex,
  concat,
  decodeFunctionData,
  encodeAbiParameters,
  encodePacked,
  getCreate2Address,
  keccak256,
  parseEventLogs,
  toFunctionSelector,
  zeroAddress,
} from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type QuoteIntent,
  UNISWAP_V2_INIT_CODE_HASH,
  UNISWAP_V3_INIT_CODE_HASH,
  createRpcSource,
  getQuote,
} from '../../src/index.js'
import { testTokenAbi, uniswapV2FactoryAbi, uniswapV2PairAbi, uniswapV3FactoryAbi } from '../devnet/abis.js'
import type { AnvilCheckpoint } from '../devnet/anvil.js'
import type { DevnetSymbol } from '../devnet/universe.js'
import {
  type AttackDevnet,
  type AttackTx,
  buildAttackFill,
  readUniswapBytecode,
  startAttackDevnet,
  v2Step,
  v3Step,
} from './support/attackDevnet.js'

const lower = (address: string) => address.toLowerCase() as Address
const TRANSFER_FROM = toFunctionSelector('transferFrom(address,address,uint256)')

function sortTokens(a: Address, b: Address): [Address, Address] {
  return lower(a) < lower(b) ? [lower(a), lower(b)] : [lower(b), lower(a)]
}
function getV2PairAddress(factory: Address, a: Address, b: Address): Address {
  const [token0, token1] = sortTokens(a, b)
  const salt = keccak256(encodePacked(['address', 'address'], [token0, token1]))
  return lower(getCreate2Address({ from: factory, salt, bytecodeHash: UNISWAP_V2_INIT_CODE_HASH }))
}
function getV3PoolAddress(factory: Address, a: Address, b: Address, fee: number): Address {
  const [token0, token1] = sortTokens(a, b)
  const salt = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, fee]))
  return lower(getCreate2Address({ from: factory, salt, bytecodeHash: UNISWAP_V3_INIT_CODE_HASH }))
}

describe('pull limits: only the input token, only from the caller, only up to the input amount', () => {
  let stage: AttackDevnet
  let checkpoint: AnvilCheckpoint
  let usdc: Address
  let weth: Address
  let link: Address
  const amountIn = 1_000n * 10n ** 6n
  const FEE_RECIPIENT = '0x00000000000000000000000000000000000fee01' as Address

  beforeAll(async () => {
    stage = await startAttackDevnet()
    ;({ USDC: { address: usdc }, WETH: { address: weth }, LINK: { address: link } } = stage.devnet.tokens)
    for (const symbol of ['USDC', 'WETH', 'LINK', 'WBTC'] as const) await stage.devnet.approve(symbol, stage.user, stage.executor)
    checkpoint = await stage.checkpoint()
  })
  afterEach(async () => {
    await checkpoint.restore()
  })
  afterAll(async () => {
    await stage?.anvil.stop()
  })

  const fromUser = (data: Hex): AttackTx => ({ from: stage.user, to: stage.executor, data })
  const userAndVictim = () =>
    stage.readBalances([
      ['USDC', stage.user],
      ['WETH', stage.user],
      ['LINK', stage.user],
      ['USDC', stage.victim],
      ['WETH', stage.victim],
      ['LINK', stage.victim],
    ])
  /** eth_call names `error` with `args`; the transaction reverts; the user and the victim keep everything. */
  const expectRefused = async (data: Hex, error: string | null, args?: readonly unknown[]) => {
    const revert = await stage.getRevert(fromUser(data))
    expect(revert).not.toBeNull()
    expect(revert!.errorName).toBe(error)
    if (args) expect(revert!.args.map((a) => (typeof a === 'string' ? lower(a) : a))).toEqual(args)
    const before = await userAndVictim()
    expect((await stage.send(fromUser(data))).status).toBe('reverted')
    expect(await userAndVictim()).toEqual(before)
  }
  /** Every transferFrom the transaction makes: [token, from, to, amount]. */
  const pulls = async (tx: AttackTx) =>
    (await stage.traceCalls(tx))
      .filter((frame) => frame.input.startsWith(TRANSFER_FROM))
      .map((frame) => {
        const [from, to, amount] = decodeFunctionData({ abi: testTokenAbi, data: frame.input }).args as readonly [string, string, bigint]
        return [frame.to, lower(from), lower(to), amount]
      })

  describe('the input amount', () => {
    it('control: the one pull is the order’s input token, from msg.sender, for exactly amountIn', async () => {
      const data = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v2Step(stage, usdc, weth)] }] })
      expect(await pulls(fromUser(data))).toEqual([[usdc, stage.user, stage.executor, amountIn]])
      await stage.sendOk('honest fill', fromUser(data))
      expect(await stage.readBalances([['USDC', stage.executor], ['WETH', stage.executor]])).toEqual([0n, 0n])
    })

    it('paths summing to less than amountIn: AmountMismatch (the rest would be stranded)', async () => {
      const short = amountIn - 1n
      await expectRefused(
        buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn: short, steps: [v2Step(stage, usdc, weth)] }] }),
        'AmountMismatch',
        [short, amountIn],
      )
      await expectRefused(
        buildAttackFill({
          tokenIn: usdc,
          tokenOut: weth,
          amountIn,
          paths: [
            { amountIn: amountIn / 2n, steps: [v2Step(stage, usdc, weth)] },
            { amountIn: amountIn / 4n, steps: [v3Step(stage, usdc, weth, 500)] },
          ],
        }),
        'AmountMismatch',
        [(3n * amountIn) / 4n, amountIn],
      )
    })

    it('paths summing to more than amountIn cannot spend what was not pulled: AmountMismatch', async () => {
      await expectRefused(
        buildAttackFill({
          tokenIn: usdc,
          tokenOut: weth,
          amountIn,
          paths: [
            { amountIn, steps: [v2Step(stage, usdc, weth)] },
            { amountIn: 1n, steps: [v3Step(stage, usdc, weth, 500)] },
          ],
        }),
        'AmountMismatch',
        [amountIn + 1n, amountIn],
      )
    })

    it('paths summing to more than amountIn cannot spend tokens stranded in the executor either: AmountMismatch', async () => {
      const stranded = 500n * 10n ** 6n
      await stage.devnet.mint('USDC', stage.executor, stranded)
      await expectRefused(
        buildAttackFill({
          tokenIn: usdc,
          tokenOut: weth,
          amountIn,
          paths: [
            { amountIn, steps: [v2Step(stage, usdc, weth)] },
            { amountIn: stranded, steps: [v3Step(stage, usdc, weth, 500)] },
          ],
        }),
        'AmountMismatch',
        [amountIn + stranded, amountIn],
      )
      expect(await stage.readBalances([['USDC', stage.executor]])).toEqual([stranded])
    })

    it('input-side fees: the paths must route exactly amountIn less the fees', async () => {
      const rate = 100_000n // 10 bps
      const fee = (amountIn * rate) / 10_000_000n
      const order = (routed: bigint) =>
        buildAttackFill({
          tokenIn: usdc,
          tokenOut: weth,
          amountIn,
          fees: [{ recipient: FEE_RECIPIENT, rate }],
          paths: [{ amountIn: routed, steps: [v2Step(stage, usdc, weth)] }],
        })
      // Routing the fee too would spend tokens the executor no longer holds.
      await expectRefused(order(amountIn), 'AmountMismatch', [amountIn, amountIn - fee])
      await expectRefused(order(amountIn - fee - 1n), 'AmountMismatch', [amountIn - fee - 1n, amountIn - fee])
      await stage.sendOk('exact routing', fromUser(order(amountIn - fee)))
      expect(await stage.readBalances([['USDC', FEE_RECIPIENT], ['USDC', stage.executor]])).toEqual([fee, 0n])
    })
  })

  describe('the ledger: a later path spends only what an earlier path produced', () => {
    const flow = (second: bigint) =>
      buildAttackFill({
        tokenIn: usdc,
        tokenOut: link,
        amountIn,
        paths: [
          { amountIn, steps: [v2Step(stage, usdc, weth)] },
          { amountIn: second, steps: [v2Step(stage, weth, link)] },
        ],
      })

    it('control: USDC -> WETH, then all the WETH it produced -> LINK; nothing is left behind', async () => {
      await stage.sendOk('flow fill', fromUser(flow(0n)))
      expect(await stage.readBalances([['USDC', stage.executor], ['WETH', stage.executor], ['LINK', stage.executor]])).toEqual([0n, 0n, 0n])
    })

    it('spending more of an intermediate than was produced: Overdraw, even with that token stranded in the executor', async () => {
      const stranded = 10n ** 21n
      await stage.devnet.mint('WETH', stage.executor, stranded)
      const revert = await stage.getRevert(fromUser(flow(stranded)))
      expect(revert?.errorName).toBe('Overdraw')
      const [token, requested, held] = revert?.args as readonly [string, bigint, bigint]
      expect([lower(token), requested]).toEqual([weth, stranded])
      expect(held > 0n && held < stranded).toBe(true)
      expect(await stage.readBalances([['WETH', stage.executor]])).toEqual([stranded])
    })

    it('leaving part of an intermediate unspent: Stranded', async () => {
      expect((await stage.getRevert(fromUser(flow(1n))))?.errorName).toBe('Stranded')
    })
  })

  describe('the input token', () => {
    it('a first step whose tokenIn is not the order’s tokenIn: InvalidPath, and only the order’s token was pulled', async () => {
      // The user sells LINK on paper but routes USDC, which the executor would have to find elsewhere.
      const data = buildAttackFill({ tokenIn: link, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v2Step(stage, usdc, weth)] }] })
      expect(await pulls(fromUser(data))).toEqual([[link, stage.user, stage.executor, amountIn]])
      await expectRefused(data, 'InvalidPath', [0n])
      // The victim, who approved USDC, sending the same order gets no further.
      expect((await stage.getRevert({ from: stage.victim, to: stage.executor, data }))?.errorName).toBe('InvalidPath')
    })

    it('a wrong token in any path or any hop: InvalidPath naming the path; a path ending short of the output: Stranded', async () => {
      const cases: [Hex, bigint][] = [
        [
          buildAttackFill({
            tokenIn: usdc,
            tokenOut: weth,
            amountIn,
            paths: [
              { amountIn: amountIn / 2n, steps: [v2Step(stage, usdc, weth)] },
              { amountIn: amountIn / 2n, steps: [v2Step(stage, link, weth)] },
            ],
          }),
          1n,
        ],
        [
          buildAttackFill({
            tokenIn: usdc,
            tokenOut: link,
            amountIn,
            paths: [{ amountIn, steps: [v2Step(stage, usdc, weth), v3Step(stage, usdc, link, 10000)] }],
          }),
          0n,
        ],
        [buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [] }] }), 0n],
        // A path may start only at a token the fill holds: the output token never counts as held.
        [
          buildAttackFill({
            tokenIn: usdc,
            tokenOut: weth,
            amountIn,
            paths: [
              { amountIn, steps: [v2Step(stage, usdc, weth)] },
              { amountIn: 0n, steps: [v3Step(stage, weth, usdc, 500)] },
            ],
          }),
          1n,
        ],
      ]
      for (const [data, path] of cases) await expectRefused(data, 'InvalidPath', [path])
      // The path's output (WETH) is not the order's (LINK): it stays on the ledger and the fill reverts.
      const short = buildAttackFill({ tokenIn: usdc, tokenOut: link, amountIn, paths: [{ amountIn, steps: [v2Step(stage, usdc, weth)] }] })
      expect((await stage.getRevert(fromUser(short)))?.errorName).toBe('Stranded')
    })
  })

  describe('after a fill', () => {
    const intents: [DevnetSymbol | 'ETH', DevnetSymbol | 'ETH', bigint][] = [
      ['USDC', 'WETH', 300_000n * 10n ** 6n],
      ['ETH', 'LINK', 10n ** 19n],
      ['LINK', 'ETH', 1_000n * 10n ** 18n],
      ['WBTC', 'LINK', 10n ** 8n],
    ]
    it.each(intents)('%s -> %s: the executor holds no token and has approved no one', async (sell, buy, sellAmount) => {
      const address = (symbol: DevnetSymbol | 'ETH') => (symbol === 'ETH' ? zeroAddress : stage.devnet.tokens[symbol].address)
      const intent: QuoteIntent = {
        chainId: stage.chain.id,
        sellToken: address(sell),
        buyToken: address(buy),
        sellAmount,
        slippageBps: 50,
        priceImpactLimitBps: 10_000,
        feeBps: 20,
        feeRecipient: FEE_RECIPIENT,
      }
      const quote = await getQuote(intent, createRpcSource({ client: stage.anvil.publicClient, chain: stage.chain }), { chains: [stage.chain] })
      const receipt = await stage.sendOk('fill', {
        from: stage.user,
        to: quote.transaction.to,
        data: quote.transaction.data,
        value: BigInt(quote.transaction.value),
      })

      const pools = new Set(quote.route.swaps.flat().map((swap) => lower(swap.address)))
      const tokens = new Set<Address>([weth])
      for (const swap of quote.route.swaps.flat()) tokens.add(lower(swap.tokenIn)).add(lower(swap.tokenOut))
      tokens.delete(zeroAddress)
      expect(pools.size).toBeGreaterThan(0)

      // No approval at all was given by the executor during the fill...
      const approvals = parseEventLogs({ abi: testTokenAbi, eventName: 'Approval', logs: receipt.logs })
      expect(approvals.filter((log) => lower(log.args.owner) === stage.executor)).toEqual([])
      // ...so none stands now, to any pool it touched or any party.
      const spenders = [...pools, stage.user, stage.attacker, stage.deployer, FEE_RECIPIENT, stage.treasury]
      for (const token of tokens) {
        for (const spender of spenders) expect(await stage.readAllowance(token, stage.executor, spender), `${token} -> ${spender}`).toBe(0n)
        expect(await stage.readBalances([[token, stage.executor]]), token).toEqual([0n])
      }
      expect(await stage.readBalances([['ETH', stage.executor]])).toEqual([0n])
    })
  })

  describe('only CREATE2 pools of the dex table', () => {
    it('a step whose pool was never created reverts on the empty address, and nothing moves', async () => {
      const { uniswapV2Factory, uniswapV3Factory } = stage.devnet.contracts
      const absent: { name: string; data: Hex; pool: Address }[] = [
        {
          name: 'V2 LINK/USDC',
          data: buildAttackFill({ tokenIn: link, tokenOut: usdc, amountIn, paths: [{ amountIn, steps: [v2Step(stage, link, usdc)] }] }),
          pool: getV2PairAddress(uniswapV2Factory, link, usdc),
        },
        {
          name: 'V3 LINK/WETH 500',
          data: buildAttackFill({ tokenIn: link, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v3Step(stage, link, weth, 500)] }] }),
          pool: getV3PoolAddress(uniswapV3Factory, link, weth, 500),
        },
        {
          name: 'V3 USDC/WETH at a tier no factory has (12345)',
          data: buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v3Step(stage, usdc, weth, 12345)] }] }),
          pool: getV3PoolAddress(uniswapV3Factory, usdc, weth, 12345),
        },
      ]
      expect(
        await stage.anvil.publicClient.readContract({ address: uniswapV2Factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [link, usdc] }),
      ).toBe(zeroAddress)
      expect(
        await stage.anvil.publicClient.readContract({ address: uniswapV3Factory, abi: uniswapV3FactoryAbi, functionName: 'getPool', args: [link, weth, 500] }),
      ).toBe(zeroAddress)
      for (const { name, data, pool } of absent) {
        expect(await stage.anvil.publicClient.getCode({ address: pool }), name).toBeUndefined()
        // The executor calls the derived address and nothing besides the tokens: no address from calldata.
        const called = await stage.getCalledAddresses(fromUser(data))
        expect(called, name).toContain(pool)
        for (const address of called) expect([stage.executor, pool, usdc, weth, link], `${name} called ${address}`).toContain(address)
        // An empty account answers a pool call with no data, which does not decode: the fill reverts.
        await expectRefused(data, null)
        expect(await stage.readBalances([['USDC', pool], ['WETH', pool], ['LINK', pool]]), name).toEqual([0n, 0n, 0n])
      }
    })

    describe('a pair created by another factory deployment (same bytecode, same init-code hash)', () => {
      let rogueFactory: Address
      const setUpRogue = async () => {
        rogueFactory = await stage.deployBytecode(
          concat([readUniswapBytecode('@uniswap/v2-core/build/UniswapV2Factory.json'), encodeAbiParameters([{ type: 'address' }], [stage.attacker])]),
        )
      }
      const reservesOf = (pair: Address) =>
        stage.anvil.publicClient.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' })

      it('is never called, even for a pair the real factory lacks: the step resolves to the real factory’s empty address', async () => {
        await setUpRogue()
        const roguePair = await stage.createV2Pair(link, 10n ** 24n, usdc, 15n * 10n ** 12n, rogueFactory)
        const canonical = getV2PairAddress(stage.devnet.contracts.uniswapV2Factory, link, usdc)
        expect(roguePair).not.toBe(canonical)
        expect(roguePair).toBe(getV2PairAddress(rogueFactory, link, usdc))
        const reserves = await reservesOf(roguePair)

        const data = buildAttackFill({ tokenIn: link, tokenOut: usdc, amountIn, paths: [{ amountIn, steps: [v2Step(stage, link, usdc)] }] })
        const called = await stage.getCalledAddresses(fromUser(data))
        expect(called).not.toContain(roguePair)
        expect(called).toContain(canonical)
        await expectRefused(data, null)
        expect(await reservesOf(roguePair)).toEqual(reserves)
      })

      it('is never called for a pair both factories have: the fill goes to the real factory’s pair', async () => {
        await setUpRogue()
        const roguePair = await stage.createV2Pair(usdc, 3_000n * 10n ** 6n, weth, 10n ** 18n, rogueFactory)
        const canonical = stage.devnet.getPool('USDC', 'WETH', 'uniswapV2').address
        const data = buildAttackFill({ tokenIn: usdc, tokenOut: weth, amountIn, paths: [{ amountIn, steps: [v2Step(stage, usdc, weth)] }] })
        const called = await stage.getCalledAddresses(fromUser(data))
        expect(called).toContain(canonical)
        expect(called).not.toContain(roguePair)
        const reserves = await reservesOf(roguePair)
        await stage.sendOk('fill', fromUser(data))
        expect(await reservesOf(roguePair)).toEqual(reserves)
      })

      it('cannot be smuggled in through the only free fields: param, or a dex index past the table', async () => {
        await setUpRogue()
        const roguePair = await stage.createV2Pair(link, 10n ** 24n, usdc, 15n * 10n ** 12n, rogueFactory)
        const asParam = BigInt(roguePair)
        // V2 reads only bit 0 of param (measure a fee-on-transfer output) and refuses anything wider.
        await expectRefused(
          buildAttackFill({
            tokenIn: link,
            tokenOut: usdc,
            amountIn,
            paths: [{ amountIn, steps: [{ ...v2Step(stage, link, usdc), param: asParam }] }],
          }),
          'InvalidStep',
          [],
        )
        // Bit 0 alone still resolves to the real factory's (absent) pair.
        const v2 = buildAttackFill({
          tokenIn: link,
          tokenOut: usdc,
          amountIn,
          paths: [{ amountIn, steps: [{ ...v2Step(stage, link, usdc), param: 1n }] }],
        })
        expect(await stage.getCalledAddresses(fromUser(v2))).not.toContain(roguePair)
        await expectRefused(v2, null)
        // V3 reads param as a fee tier (bits 0-23) and a price limit (bits 24-183): an address there
        // only names a fee tier whose CREATE2 pool does not exist, and the rogue pair is never called.
        const v3 = buildAttackFill({
          tokenIn: link,
          tokenOut: usdc,
          amountIn,
          paths: [{ amountIn, steps: [{ ...v3Step(stage, link, usdc, 0), param: asParam }] }],
        })
        expect(await stage.getCalledAddresses(fromUser(v3))).not.toContain(roguePair)
        await expectRefused(v3, null)
        // Anything wider than 184 bits is refused outright.
        const wide = buildAttackFill({
          tokenIn: link,
          tokenOut: usdc,
          amountIn,
          paths: [{ amountIn, steps: [{ ...v3Step(stage, link, usdc, 0), param: (asParam << 72n) & ((1n << 256n) - 1n) }] }],
        })
        await expectRefused(wide, 'InvalidStep', [])
        // Indexes past the two-entry table hold nothing.
        for (const dex of [2, 3, 255]) {
          const data = buildAttackFill({
            tokenIn: link,
            tokenOut: usdc,
            amountIn,
            paths: [{ amountIn, steps: [{ dex, tokenIn: link, tokenOut: usdc, param: asParam }] }],
          })
          await expectRefused(data, 'InvalidDex', [BigInt(dex)])
        }
      })
    })
  })
})
