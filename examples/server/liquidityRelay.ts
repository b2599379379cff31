// How a liquidity answer crosses from the main thread to a quote worker without copying what the
// worker already holds. A live source hands out the same state objects for every pool a block
// left unchanged; copied whole on every quote (structured clone), a worker would receive new
// objects each time and rebuild every pool per quote. Instead each state object gets a number in
// the main thread; a worker is sent the numbers of the answer's pools and only the states it has
// not seen, and keeps them, so its objects stay the same across quotes and blocks and getQuote's
// per-object build cache (buildPoolCached) holds.
import type { Liquidity, PoolStateBase, TokenMetadata } from '../../src/index.js'

/** A list of objects as sent: `same` (as in the last message for this chain), or ids plus the objects new to the worker. */
export type RelayedList<T> = { same: true } | { ids: number[]; added: [id: number, item: T][] }

/** A Liquidity as it crosses to a worker. */
export type RelayedLiquidity = Omit<Liquidity, 'pools' | 'tokens'> & { pools: RelayedList<PoolStateBase>; tokens: RelayedList<TokenMetadata> }

type ListMemory = { last: readonly object[] | undefined; known: Set<number> }

/** Numbers of state objects, shared by all senders (one main thread). */
const objectIds = new WeakMap<object, number>()
let nextObjectId = 0
const idOf = (item: object): number => {
  let id = objectIds.get(item)
  if (id === undefined) {
    id = nextObjectId++
    objectIds.set(item, id)
  }
  return id
}

/**
 * The main thread's half, one per worker: what that worker holds, per chain.
 *
 * @example
 * const sender = createLiquiditySender()
 * const relayed = sender.encode(await source.getLiquidity(request)) // undefined: send the answer as it is
 */
export function createLiquiditySender() {
  const memory = new Map<string, ListMemory>()
  function encodeList<T extends object>(key: string, items: readonly T[]): RelayedList<T> {
    let entry = memory.get(key)
    if (!entry) memory.set(key, (entry = { last: undefined, known: new Set() }))
    const { last } = entry
    // Pointer comparison: a live source's answers within one block hold the very same objects.
    if (last && last.length === items.length && items.every((item, index) => item === last[index])) return { same: true }
    const ids = items.map(idOf)
    const added: [number, T][] = []
    const next = new Set<number>()
    for (const [index, id] of ids.entries()) {
      next.add(id)
      if (!entry.known.has(id)) added.push([id, items[index]!])
    }
    // The worker drops what this list no longer holds, and so does this memory of it.
    entry.known = next
    entry.last = items
    return { ids, added }
  }
  return {
    /** The answer to send, or undefined when it is not a list of objects (a broken source's answer is copied as is: getQuote judges it). */
    encode(liquidity: Liquidity): RelayedLiquidity | undefined {
      const isObjectList = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'object' && item !== null)
      if (typeof liquidity !== 'object' || liquidity === null || !isObjectList(liquidity.pools) || !isObjectList(liquidity.tokens)) return undefined
      return {
        ...liquidity,
        pools: encodeList(`${liquidity.chainId}:pools`, liquidity.pools),
        tokens: encodeList(`${liquidity.chainId}:tokens`, liquidity.tokens),
      }
    },
  }
}

/**
 * The worker's half: rebuilds each answer from the ids, keeping the objects it was sent.
 *
 * @example
 * const receiver = createLiquidityReceiver()
 * const liquidity = receiver.decode(message.liquidity)
 */
export function createLiquidityReceiver() {
  const held = new Map<string, { byId: Map<number, object>; last: object[] }>()
  function decodeList<T extends object>(key: string, list: RelayedList<T>): T[] {
    let entry = held.get(key)
    if (!entry) held.set(key, (entry = { byId: new Map(), last: [] }))
    if ('same' in list) return [...(entry.last as T[])]
    const byId = new Map<number, object>()
    for (const [id, item] of list.added) entry.byId.set(id, item)
    const items = list.ids.map((id) => {
      const item = entry.byId.get(id)
      if (item === undefined) throw new Error(`liquidity relay: state ${id} was never sent`)
      byId.set(id, item)
      return item as T
    })
    entry.byId = byId
    entry.last = items
    return [...items]
  }
  return {
    decode(relayed: RelayedLiquidity): Liquidity {
      return {
        ...relayed,
        pools: decodeList(`${relayed.chainId}:pools`, relayed.pools),
        tokens: decodeList(`${relayed.chainId}:tokens`, relayed.tokens),
        report: { ...relayed.report, skipped: [...relayed.report.skipped] },
      }
    },
  }
}
