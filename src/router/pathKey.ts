import type { Path } from './types.js'

/**
 * A path's pools and directions as one string: two paths are the same route when their keys match
 * (the router's steps use it to skip a path they already hold or already tried).
 *
 * @example
 * const seen = new Set(plan.paths.map((executed) => pathKey(executed.path)))
 */
export const pathKey = (path: Path): string => path.map((hop) => `${hop.pool.key}:${hop.tokenIn}`).join()

/**
 * A list of paths of at most `maxHops` hops, each route once (by pathKey), in the order offered;
 * `offer` says whether the path is within the limit (held now, or already).
 *
 * @example
 * const distinct = distinctPaths(4)
 * for (const path of singles) distinct.offer(path)
 * greedySplit(distinct.paths, amountIn, gasCost)
 */
export function distinctPaths(maxHops: number): { paths: Path[]; offer: (path: Path) => boolean } {
  const paths: Path[] = []
  const seen = new Set<string>()
  const offer = (path: Path): boolean => {
    if (path.length > maxHops) return false
    const key = pathKey(path)
    if (!seen.has(key)) {
      seen.add(key)
      paths.push(path)
    }
    return true
  }
  return { paths, offer }
}
