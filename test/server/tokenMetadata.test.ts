// Untrusted token metadata and the RPC source's caches, on a real anvil: tokens whose
// symbol() is an ANSI escape sequence, a 10 kB string, invalid UTF-8 or a bytes32 word
// reach weft (and the server's JSON) sanitised; a token asked about before it had a
// pool is quoted once it has one, on the same long-lived source and server.
import { type Address, type Hex, encodeDeployData, encodeFunctionData, getAddress, parseAbi, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QuoteError, createRpcSource, getQuote } from '../../src/index.js'
import { MAX_TOKEN_SYMBOL_LENGTH, sanitizeTokenSymbol } from '../../src/liquidity/sanitizeTokenSymbol.js'
import { uniswapV2FactoryAbi, uniswapV2PairAbi } from '../devnet/abis.js'
import { type Anvil, startAnvil } from '../devnet/anvil.js'
import { compileTestContracts } from '../devnet/compile.js'
import { DEVNET_GAS, type Devnet, deployDevnet } from '../devnet/deployDevnet.js'
import { sendDevnetTransaction } from '../devnet/rpc.js'
import { type TestServer, quotePath, startTestServer } from './support/server.js'

const hostileAbi = parseAbi(['constructor(bytes symbol_, bool asBytes32_)', 'function mint(address to, uint256 amount)'])
const invisible = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u

let anvil: Anvil
let devnet: Devnet
let bytecode: Hex
let app: TestServer

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31_337 })
  devnet = await deployDevnet(anvil)
  const { HostileSymbolToken } = await compileTestContracts({ files: ['test/contracts/HostileSymbolToken.sol'] })
  bytecode = HostileSymbolToken!.bytecode
  app = await startTestServer({
    rateLimits: { anonymous: { limit: 10_000, windowSeconds: 60 } },
    // Workers quote; the RPC source (and its caches) stays in the main thread, shared by them.
    overload: { workers: 2 },
    chains: [devnet.chain],
    liquidity: { source: 'rpc', rpcUrls: { [devnet.chain.id]: anvil.rpcUrl } },
  })
}, 120_000)

afterAll(async () => {
  await app?.close()
  await anvil?.stop()
})

async function deployHostile(symbol: Uint8Array | string, asBytes32 = false): Promise<Address> {
  const receipt = await sendDevnetTransaction(anvil.rpcUrl, {
    label: 'deploy HostileSymbolToken',
    from: devnet.accounts.deployer,
    data: encodeDeployData({ abi: hostileAbi, bytecode, args: [toHex(symbol), asBytes32] }),
    gas: 30_000_000n,
  })
  return receipt.contractAddress!.toLowerCase() as Address
}

/** A V2 pair of `token` with WETH at 1 token = 0.001 WETH, created through the real factory. */
async function createPoolWithWeth(token: Address) {
  const send = (label: string, to: Address, data: Hex, gas: bigint) => sendDevnetTransaction(anvil.rpcUrl, { label, from: devnet.accounts.deployer, to, data, gas })
  const factory = devnet.contracts.uniswapV2Factory
  await send('create pair', factory, encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [token, devnet.tokens.WETH.address] }), DEVNET_GAS.createPair)
  const pair = (await anvil.publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [token, devnet.tokens.WETH.address] })) as Address
  await send('mint token to pair', token, encodeFunctionData({ abi: hostileAbi, functionName: 'mint', args: [pair, 1_000_000n * 10n ** 18n] }), 200_000n)
  await devnet.mint('WETH', pair, 1_000n * 10n ** 18n)
  await send('mint LP', pair, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [devnet.accounts.deployer] }), 500_000n)
  return pair
}

const symbolOf = async (token: Address) => {
  const source = createRpcSource({ client: anvil.publicClient, chain: devnet.chain })
  const liquidity = await source.getLiquidity({ chain: devnet.chain, tokenIn: token, tokenOut: devnet.tokens.WETH.address })
  return liquidity.tokens.find((t) => t.address === token)?.symbol
}

describe('hostile symbol() read through createRpcSource', () => {
  it('ANSI escape sequences that rewrite a terminal line are removed whole', async () => {
    const token = await deployHostile('\u001b[2K\r\u001b[1;31mUSDC\u001b[0m\u001b]0;owned\u0007\u202e')
    expect(await symbolOf(token)).toBe('USDC')
  })

  it('a 10 kB symbol is cut to the maximum length', async () => {
    const token = await deployHostile(`${'A'.repeat(5_000)}${'\n'.repeat(5_000)}`)
    const symbol = await symbolOf(token)
    expect([...symbol!]).toHaveLength(MAX_TOKEN_SYMBOL_LENGTH)
    expect(symbol).toBe(`${'A'.repeat(MAX_TOKEN_SYMBOL_LENGTH - 1)}…`)
  })

  it('invalid UTF-8 shows as one replacement character per run, so it cannot pass for a clean symbol', async () => {
    const token = await deployHostile(new Uint8Array([0x57, 0xff, 0x45, 0xc0, 0x80, 0x54, 0xed, 0xa0, 0x80, 0x48, 0x00, 0x07]))
    expect(await symbolOf(token)).toBe('W\uFFFDE\uFFFDT\uFFFDH')
  })

  it('a bytes32 return (as MKR returns it) is read, its NUL padding dropped', async () => {
    const token = await deployHostile('MKR', true)
    expect(await symbolOf(token)).toBe('MKR')
    const hostile32 = await deployHostile('\u001b[2KBAD\u0000\u0000', true)
    expect(await symbolOf(hostile32)).toBe('BAD')
  })
})

describe('sanitizeTokenSymbol', () => {
  it('keeps ordinary and non-Latin symbols, drops invisible characters', () => {
    for (const plain of ['USDC', 'USDC.e', 'cbBTC', 'WETH-USDC LP', 'ÆTH', '币安币', '🦄'])
      expect(sanitizeTokenSymbol(plain)).toBe(plain)
    expect(sanitizeTokenSymbol('U\u200bS\u200dD\ufeffC\u2028')).toBe('USDC')
    expect(sanitizeTokenSymbol('  two   words\t')).toBe('two words')
    expect(sanitizeTokenSymbol('\u001b')).toBe('')
  })
})

describe('a token asked about before it had a pool', () => {
  it('is measured again once it has one: the same source and the same server quote it', async () => {
    const token = await deployHostile('\u001b[31mLATE\u001b[0m')
    const source = createRpcSource({ client: anvil.publicClient, chain: devnet.chain })
    const intent = { chainId: devnet.chain.id, sellToken: token, buyToken: devnet.tokens.USDC.address, sellAmount: 10n ** 18n }
    const path = quotePath(intent)

    const before = await getQuote(intent, source, { chains: [devnet.chain] }).catch((error: unknown) => error)
    expect(before).toBeInstanceOf(QuoteError)
    expect([404, 422]).toContain((before as QuoteError).statusCode)
    const served = await fetch(`${app.url}${path}`)
    expect([404, 422]).toContain(served.status)
    await served.text()

    await createPoolWithWeth(token)

    const liquidity = await source.getLiquidity({ chain: devnet.chain, tokenIn: token, tokenOut: devnet.tokens.USDC.address })
    expect(liquidity.tokens.find((t) => t.address === token)).toMatchObject({ symbol: 'LATE', transferFeeBps: 0 })
    expect(liquidity.report.roundTrips).toBe(2) // the one extra round trip (after the pinned batch): the fee measured again
    const after = await getQuote(intent, source, { chains: [devnet.chain] })
    expect(BigInt(after.amountOut)).toBeGreaterThan(0n)

    const response = await fetch(`${app.url}${path}`)
    const text = await response.text()
    expect(response.status).toBe(200)
    expect(text).not.toMatch(invisible)
    expect(text).not.toContain('\\u001b')
    const quote = JSON.parse(text)
    expect(quote.tokens.find((t: { address: string }) => getAddress(t.address) === getAddress(token)).symbol).toBe('LATE')
  })
})
