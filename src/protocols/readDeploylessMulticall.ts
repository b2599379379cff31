import { type Abi, type AbiFunction, type AbiParameter, type Address, BaseError, encodeFunctionData } from 'viem'
import { PINNED_BLOCK } from '../liquidity/createPinnedReader.js'
import type { ReadPoolsParameters } from './types.js'

/** One view call of a deployless multicall. */
export type DeploylessCall = {
  address: Address
  abi: Abi | readonly unknown[]
  functionName: string
  args?: readonly unknown[]
  /**
   * An upper bound of the call's ABI-encoded answer in bytes, required when an output is dynamic
   * (an array): the chunking cannot know its length before the call. Static outputs are measured.
   */
  answerBytes?: number
}

/** A call's outcome: its decoded answer, or the call reverted (or answered undecodably). */
export type DeploylessResult = { status: 'success'; result: unknown } | { status: 'failure'; error: Error }

/**
 * What one deployless multicall may send and return. Its answer comes back as the code of the
 * contract it "deploys" (capped at 24,576 bytes by EIP-170) and its request is init code (capped
 * at 49,152 bytes by EIP-3860): a node refuses the whole call past either, so every pool of it
 * would read as failed. The budgets keep a margin below both caps.
 */
const ANSWER_BUDGET = 24_576 - 1_024
/** The init-code cap less viem's deployless wrapper and Multicall3's creation code (~4.3 kB together). */
const REQUEST_BUDGET = 49_152 - 8_192

/** aggregate3's answer per call beside the call's own bytes: its offset, flag, data offset and length. */
const ANSWER_OVERHEAD = 4 * 32
/** aggregate3's request per call beside its calldata: offset, target, allowFailure, data offset and length. */
const REQUEST_OVERHEAD = 5 * 32

/** Bytes of one ABI-encoded value of a static type (tuples of static types included). */
function staticBytes(parameter: AbiParameter, where: string): number {
  const { type } = parameter
  if (type.endsWith(']') || type === 'bytes' || type === 'string') {
    throw new Error(`${where}: a dynamic output (${type}) needs answerBytes`)
  }
  if (type === 'tuple') return ((parameter as { components: readonly AbiParameter[] }).components ?? []).reduce((sum, c) => sum + staticBytes(c, where), 0)
  return 32
}

const padded = (bytes: number) => Math.ceil(bytes / 32) * 32

/** The call's calldata and its request and answer sizes inside aggregate3. */
function measure(call: DeploylessCall): { callData: `0x${string}`; request: number; answer: number } {
  const callData = encodeFunctionData({ abi: call.abi as Abi, functionName: call.functionName, args: call.args ?? [] } as never)
  const fn = (call.abi as readonly AbiFunction[]).find((item) => item.type === 'function' && item.name === call.functionName)
  const answer = call.answerBytes ?? (fn?.outputs ?? []).reduce((sum, output) => sum + staticBytes(output, `${call.functionName}()`), 0)
  return { callData, request: REQUEST_OVERHEAD + padded((callData.length - 2) / 2), answer: ANSWER_OVERHEAD + padded(answer) }
}

/**
 * The calls in consecutive chunks whose request and largest possible answer each fit one
 * deployless multicall ({@link ANSWER_BUDGET}, {@link REQUEST_BUDGET}).
 *
 * @example
 * chunkDeploylessCalls(calls).map((chunk) => chunk.length) // [200, 200, 17]
 */
export function chunkDeploylessCalls<Call extends DeploylessCall>(calls: readonly Call[]): Call[][] {
  const chunks: Call[][] = []
  let chunk: Call[] = []
  let request = 0
  let answer = 0
  for (const call of calls) {
    const size = measure(call)
    if (chunk.length > 0 && (request + size.request > REQUEST_BUDGET || answer + size.answer > ANSWER_BUDGET)) {
      chunks.push(chunk)
      chunk = []
      request = 0
      answer = 0
    }
    chunk.push(call)
    request += size.request
    answer += size.answer
  }
  if (chunk.length > 0) chunks.push(chunk)
  return chunks
}

/** The node refused the call for its size (answer over the code cap, request over the init-code cap). */
function isSizeRefusal(error: unknown): boolean {
  const matches = (e: unknown) => /contract ?size|code ?size|codesize|initcode|init code/i.test(String((e as { message?: unknown })?.message ?? ''))
  return error instanceof BaseError ? error.walk(matches) !== null : matches(error)
}

/**
 * Reads `calls` at one block through deployless Multicall3 (no Multicall3 needed on the chain), in
 * as many `eth_call`s as their sizes need ({@link chunkDeploylessCalls}), sent in parallel: the
 * results are the same as one multicall would give, in order. A call that reverts is a `failure`
 * of that call; a multicall that fails as a whole (the node's error, a timeout, a refusal) throws,
 * so a node fault is never read as pools that do not exist. A chunk the node refuses for its size
 * anyway (an answer larger than its bound said) is split in two and read again.
 *
 * Under createPinnedReader (`blockNumber` {@link PINNED_BLOCK}) the calls stay in one multicall: there
 * the deployless code runs as a called contract's code, its answer is return data with neither cap,
 * and each further chunk would only add a Multicall3 creation (~1.1M gas of code deposit) to the
 * one eth_call every reader of the quote shares (anvil caps it at 30M gas, geth at 50M).
 *
 * @example
 * const [reserves] = await readDeploylessMulticall(client, blockNumber, [{ address: pair, abi: pairAbi, functionName: 'getReserves' }])
 */
export async function readDeploylessMulticall(
  client: ReadPoolsParameters['client'],
  blockNumber: bigint,
  calls: readonly DeploylessCall[],
): Promise<DeploylessResult[]> {
  const chunks = blockNumber === PINNED_BLOCK ? [calls] : chunkDeploylessCalls(calls)
  const lists = await Promise.all(chunks.map((chunk) => readChunk(client, blockNumber, chunk)))
  return lists.flat()
}

async function readChunk(client: ReadPoolsParameters['client'], blockNumber: bigint, chunk: readonly DeploylessCall[]): Promise<DeploylessResult[]> {
  // allowFailure keeps one call's revert that call's; viem reports a failed aggregate3 itself as a
  // failure of every call, with the aggregate3 call's error: that one is rethrown.
  const results = await client.multicall({
    contracts: chunk.map(({ address, abi, functionName, args }) => ({ address, abi: abi as Abi, functionName, args: args ?? [] })),
    allowFailure: true,
    blockNumber,
    deployless: true,
    batchSize: 0,
  })
  const whole = results.find((r) => r.status === 'failure' && (r.error as { functionName?: unknown }).functionName === 'aggregate3')
  if (whole?.status === 'failure') {
    if (chunk.length > 1 && isSizeRefusal(whole.error)) {
      const half = Math.ceil(chunk.length / 2)
      const [first, second] = await Promise.all([readChunk(client, blockNumber, chunk.slice(0, half)), readChunk(client, blockNumber, chunk.slice(half))])
      return [...first, ...second]
    }
    throw whole.error
  }
  return results.map((r) => (r.status === 'success' ? { status: 'success', result: r.result } : { status: 'failure', error: r.error }))
}
