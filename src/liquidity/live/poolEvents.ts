import { type AbiEvent, type DecodeEventLogReturnType, type Hex, type Log, decodeEventLog, parseAbi, toEventSelector } from 'viem'

/**
 * Every event a Uniswap V2 pair emits (v2-core): `Sync` is applied, the others are known to change
 * nothing the state holds (each reserve change is followed by a `Sync`).
 *
 * @example
 * decodeEventLog({ abi: uniswapV2PairEventsAbi, topics: log.topics, data: log.data })
 */
export const uniswapV2PairEventsAbi = parseAbi([
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
])

/**
 * Every event a Uniswap V3 pool emits (v3-core 1.0): see applyUniswapV3Log for which are applied,
 * which change nothing the state holds and which cause a re-read.
 *
 * @example
 * decodeEventLog({ abi: uniswapV3PoolEventsAbi, topics: log.topics, data: log.data })
 */
export const uniswapV3PoolEventsAbi = parseAbi([
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)',
  'event Flash(address indexed sender, address indexed recipient, uint256 amount0, uint256 amount1, uint256 paid0, uint256 paid1)',
  'event IncreaseObservationCardinalityNext(uint16 observationCardinalityNextOld, uint16 observationCardinalityNextNew)',
  'event SetFeeProtocol(uint8 feeProtocol0Old, uint8 feeProtocol1Old, uint8 feeProtocol0New, uint8 feeProtocol1New)',
  'event CollectProtocol(address indexed sender, address indexed recipient, uint128 amount0, uint128 amount1)',
])

/**
 * A decoder for one contract's events that picks the event by its topic first (selectors computed
 * once), so each log is decoded against one ABI item: viem's `decodeEventLog` otherwise hashes
 * every item of the ABI for every log. Returns undefined for a log it does not know or cannot decode.
 *
 * @example
 * const decodeV3 = createEventDecoder(uniswapV3PoolEventsAbi)
 * const decoded = decodeV3(log) // { eventName: 'Swap', args: { ... } }
 */
export function createEventDecoder<const TAbi extends readonly AbiEvent[]>(abi: TAbi) {
  const byTopic = new Map<Hex, AbiEvent>(abi.map((event) => [toEventSelector(event), event]))
  return (log: Pick<Log, 'topics' | 'data'>): DecodeEventLogReturnType<TAbi> | undefined => {
    const event = log.topics[0] === undefined ? undefined : byTopic.get(log.topics[0])
    if (!event) return undefined
    try {
      return decodeEventLog({ abi: [event], topics: log.topics as never, data: log.data }) as unknown as DecodeEventLogReturnType<TAbi>
    } catch {
      return undefined
    }
  }
}

/**
 * Word `index` (32 bytes) of ABI-encoded `hex` as an unsigned integer, or undefined past its end:
 * the hot events (V2 `Sync`, V3 `Swap`, `Mint`, `Burn`) are read word by word, ~40 times faster
 * than a generic decode.
 *
 * @example
 * BigInt.asIntN(256, readWord(log.data, 0)!) // a V3 Swap's amount0
 */
export function readWord(hex: Hex, index: number): bigint | undefined {
  const start = 2 + 64 * index
  if (hex.length < start + 64) return undefined
  return BigInt(`0x${hex.slice(start, start + 64)}`)
}
