import type { Path } from './types.js'

/**
 * A path's pools and directions as one string: two paths are the same route when their keys match
 * (the router's steps use it to skip a path they already hold or already tried).
 *
 * @example
 * const seen = new Set(plan.paths.map((executed) => pathKey(executed.path)))
 */
export const pathKey = (path: Path): string => path.map((hop) => `${hop.pool.key}:${hop.tokenIn}`).join()
