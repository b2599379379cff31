// The in-fill sandwich's moving parts, shared by the attack tests that use a hooked token: an
// AttackToken armed to call AttackSandwich.strike() on every transfer, and the V2 pair the searcher
// trades from inside the fill.
import { type Address, type Hex, decodeFunctionData, encodeFunctionData, encodePacked, getCreate2Address, keccak256, toFunctionSelector } from 'viem'
import { weftExecutorAbi } from '../../../src/index.js'
import { uniswapV2PairAbi } from '../../devnet/abis.js'
import type { AttackDevnet } from './attackDevnet.js'

/** AttackToken's hook kinds: 1 on `transfer`. */
export const ON_TRANSFER = 1

const attackTokenAbi = [
  {
    type: 'function',
    name: 'arm',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'target_', type: 'address' },
      { name: 'payload_', type: 'bytes' },
      { name: 'hooks_', type: 'uint8' },
      { name: 'bubble_', type: 'bool' },
    ],
    outputs: [],
  },
] as const
const sandwichAbi = [
  {
    type: 'function',
    name: 'configure',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'pair_', type: 'address' },
      { name: 'sold_', type: 'address' },
      { name: 'bought_', type: 'address' },
      { name: 'amount_', type: 'uint256' },
      { name: 'backrunAt_', type: 'uint256' },
    ],
    outputs: [],
  },
] as const

/** A path of the executor's order, as decoded from calldata. */
export type OrderPath = { amountIn: bigint; minAmountOut: bigint; steps: readonly { dex: number; tokenIn: Address; tokenOut: Address; param: bigint }[] }

/** The order `fill` calldata carries. */
export function decodeOrder(data: Hex): { paths: readonly OrderPath[] } & Record<string, unknown> {
  const { args } = decodeFunctionData({ abi: weftExecutorAbi, data })
  return args[0] as unknown as { paths: readonly OrderPath[] } & Record<string, unknown>
}

/** `fill` calldata for `order` with other paths. */
export function encodeWithPaths(data: Hex, paths: readonly OrderPath[]): Hex {
  return encodeFunctionData({ abi: weftExecutorAbi, functionName: 'fill', args: [{ ...decodeOrder(data), paths } as never] })
}

/** The V2 pair a step trades (CREATE2 from its dex's factory and init-code hash), lowercase. */
export function getStepPair(stage: AttackDevnet, step: OrderPath['steps'][number]): Address {
  const dex = stage.chain.dexes[step.dex]!
  const [token0, token1] = step.tokenIn.toLowerCase() < step.tokenOut.toLowerCase() ? [step.tokenIn, step.tokenOut] : [step.tokenOut, step.tokenIn]
  const salt = keccak256(encodePacked(['address', 'address'], [token0, token1]))
  return getCreate2Address({ from: dex.factory, salt, bytecodeHash: dex.initCodeHash }).toLowerCase() as Address
}

/**
 * Arms `hook`: its first transfer makes `sandwich` sell `shareBps` of `step`'s pair's input reserve
 * into it, in the step's direction (funded here), and its transfer number `backrunAt` sells back
 * what that bought. Returns the token sold and how much the searcher started with.
 */
export async function armSandwich(
  stage: AttackDevnet,
  parameters: { hook: Address; sandwich: Address; step: OrderPath['steps'][number]; shareBps: bigint; backrunAt: bigint },
): Promise<{ sold: Address; amount: bigint }> {
  const { hook, sandwich, step, shareBps, backrunAt } = parameters
  const pair = getStepPair(stage, step)
  const [reserve0, reserve1] = await stage.anvil.publicClient.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' })
  const reserveIn = step.tokenIn.toLowerCase() < step.tokenOut.toLowerCase() ? reserve0 : reserve1
  const amount = (reserveIn * shareBps) / 10_000n
  await stage.fund(step.tokenIn, sandwich, amount)
  await stage.sendOk('configure the sandwich', {
    from: stage.attacker,
    to: sandwich,
    data: encodeFunctionData({ abi: sandwichAbi, functionName: 'configure', args: [pair, step.tokenIn, step.tokenOut, amount, backrunAt] }),
  })
  await stage.sendOk('arm the hook', {
    from: stage.attacker,
    to: hook,
    data: encodeFunctionData({ abi: attackTokenAbi, functionName: 'arm', args: [sandwich, toFunctionSelector('strike()'), ON_TRANSFER, true] }),
  })
  return { sold: step.tokenIn.toLowerCase() as Address, amount }
}
