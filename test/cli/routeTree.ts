// Reads the route tree the CLI prints back into its parts, so tests check its
// structure against the quote instead of matching fixed text.

/** One path branch of the tree and the swap lines under it. */
export type TreeBranch = {
  /** The share as printed, in hundredths of a percent (`62.50%` → 6250). */
  shareUnits: number
  /** `WETH -> DAI -> USDC` as its symbols. */
  hops: string[]
  amountIn: string
  amountOut: string
  /** The branch line itself. */
  line: string
  swaps: string[]
}

export type ParsedTree = { header: string; branches: TreeBranch[] }

const branchLine = /^(?:├─|└─) +(\d+)\.(\d\d)%  (.+?)  \((.+) -> (.+)\)$/
const swapLine = /^(?:│  |   )(?:├─|└─) (.+)$/

/**
 * The tree that starts at the `route:` line of `text`. Throws on any line of
 * the tree that is neither a branch nor a swap, and when a branch's last swap
 * is not drawn with `└─` (or a non-last one with `├─`).
 */
export function parseRouteTree(text: string): ParsedTree {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line.startsWith('route: '))
  if (start < 0) throw new Error(`no route tree in:\n${text}`)
  const branches: TreeBranch[] = []
  for (const line of lines.slice(start + 1)) {
    if (line === '') break
    const branch = branchLine.exec(line)
    if (branch) {
      branches.push({
        shareUnits: Number(branch[1]) * 100 + Number(branch[2]),
        hops: branch[3]!.split(' -> '),
        amountIn: branch[4]!,
        amountOut: branch[5]!,
        line,
        swaps: [],
      })
      continue
    }
    const swap = swapLine.exec(line)
    if (!swap || branches.length === 0) throw new Error(`not a tree line: ${JSON.stringify(line)}`)
    branches.at(-1)!.swaps.push(line)
  }
  branches.forEach((branch, b) => {
    const lastBranch = b === branches.length - 1
    if (!branch.line.startsWith(lastBranch ? '└─' : '├─')) throw new Error(`wrong tree drawing: ${JSON.stringify(branch.line)}`)
    branch.swaps.forEach((line, s) => {
      const expectedPrefix = `${lastBranch ? '   ' : '│  '}${s === branch.swaps.length - 1 ? '└─' : '├─'} `
      if (!line.startsWith(expectedPrefix)) throw new Error(`wrong tree drawing: ${JSON.stringify(line)}`)
    })
  })
  return { header: lines[start]!, branches }
}
