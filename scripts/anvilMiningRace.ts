// A probe of anvil, not of weft: does `eth_call` at block N (the latest when it is sent) answer
// with block N's state while anvil is mining block N + 1? It transfers tokens into V2 pairs and
// calls sync() in one mined block, while it reads the pairs' reserves at block N again and again,
// and counts the answers that differ from the reserves read at N before the block was sent.
// On anvil 1.x here: 3 of 177 reads differed. A live source whose first read overlaps mining can
// then hold the next block's change and apply it again from its log; on a node, the state at a
// block number does not change. Run: npx tsx scripts/anvilMiningRace.ts [rounds]
import { encodeFunctionData, parseAbi } from 'viem'
import { deployDevnet, sendDevnetTransactions, startAnvil, testTokenAbi, uniswapV2PairAbi } from '../test/devnet/index.js'

const rounds = Number(process.argv[2] ?? 40)
const syncAbi = parseAbi(['function sync()'])
const anvil = await startAnvil()
try {
  const devnet = await deployDevnet(anvil)
  const pairs = devnet.pools.filter((pool) => pool.family === 'uniswapV2' && pool.tokens[0] !== devnet.chain.wrappedNative.address).slice(0, 6)
  const deployer = devnet.accounts.deployer
  const client = anvil.publicClient
  const asText = (value: unknown) => JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))
  let reads = 0
  let differing = 0
  for (let round = 0; round < rounds; round++) {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
    const read = async () => asText(await Promise.all(pairs.map((pair) => client.readContract({ address: pair.address, abi: uniswapV2PairAbi, functionName: 'getReserves', blockNumber }))))
    const before = await read()
    const txs = pairs.flatMap((pair) => [
      { label: 'donate', from: deployer, to: pair.tokens[0], data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [pair.address, 10n ** 9n] }), gas: 100_000n },
      { label: 'sync', from: deployer, to: pair.address, data: encodeFunctionData({ abi: syncAbi, functionName: 'sync' }), gas: 100_000n },
    ])
    let mined = false
    const mining = sendDevnetTransactions(anvil.rpcUrl, txs).finally(() => (mined = true))
    while (!mined) {
      reads++
      if ((await read()) !== before) differing++
    }
    await mining
  }
  console.log(`eth_call at block N while anvil mines N + 1: ${differing} of ${reads} reads differed from block N's state (${rounds} rounds)`)
} finally {
  await anvil.stop()
}
