// The route of a Quote as an SVG picture: the sell token on the left, the buy
// token on the right, one curve per path whose stroke width is proportional to
// the path's share of the input, and a box per pool naming its protocol and fork.
import type { Address } from 'viem'
import type { Quote } from '../../src/index.js'

/** Stroke width of a path carrying the whole input, in px. */
export const FULL_STROKE_WIDTH = 32
/** Thinnest stroke drawn, so a sliver of the input stays visible. */
export const MIN_STROKE_WIDTH = 1.5

const WIDTH = 760
const ROW_HEIGHT = 84
const MARGIN_Y = 28
const TOKEN_X = 56
const POOL_WIDTH = 124
const POOL_HEIGHT = 50
const COLORS = ['#4f7cff', '#ff8a3d', '#27b37b', '#b95cf4', '#e5484d', '#0fa3b1']

/** Share of the route's input that a path carries, in [0, 1] (bigint math to 6 digits). */
export function getPathShare(quote: Pick<Quote, 'route'>, pathIndex: number): number {
  const total = BigInt(quote.route.amountIn)
  const first = quote.route.swaps[pathIndex]?.[0]
  if (!first || total === 0n) return 0
  return Number((BigInt(first.amountIn) * 1_000_000n) / total) / 1_000_000
}

/** The stroke width the picture gives a path with this share of the input. */
export function getStrokeWidth(share: number): number {
  return Math.max(MIN_STROKE_WIDTH, Math.round(share * FULL_STROKE_WIDTH * 100) / 100)
}

/**
 * Draws the route. `symbolOf` names tokens (falls back to a short address); `feeOf` gives a
 * pool's fee tier by its swap key (lowercase), shown beside its fork and in `data-fee`.
 * Every path is exactly one `<path data-path-index="i">`; every pool one
 * `<g data-pool="0x…">` inside `<g data-path="i">`.
 */
export function drawRoute(
  quote: Quote,
  symbolOf: (address: Address) => string | undefined,
  feeOf: (key: string) => string | undefined = () => undefined,
): SVGSVGElement {
  const paths = quote.route.swaps
  const height = MARGIN_Y * 2 + Math.max(1, paths.length) * ROW_HEIGHT
  const midY = height / 2
  const leftX = TOKEN_X + 22
  const rightX = WIDTH - TOKEN_X - 22
  const laneStart = leftX + 90
  const laneEnd = rightX - 90
  const name = (address: Address) => symbolOf(address) ?? shortAddress(address)
  const sellToken = paths[0]?.[0]?.tokenIn
  const buyToken = paths[0]?.at(-1)?.tokenOut

  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: WIDTH,
    height,
    role: 'img',
    'aria-label': `Route over ${paths.length} path(s)`,
  })

  const lanes = svg('g', { class: 'lanes' })
  const pools = svg('g', { class: 'pools' })
  paths.forEach((path, i) => {
    const y = MARGIN_Y + ROW_HEIGHT * (i + 0.5)
    const share = getPathShare(quote, i)
    const color = COLORS[i % COLORS.length]!
    lanes.append(
      svg('path', {
        'data-path-index': i,
        'data-share': share,
        d: `M ${leftX} ${midY} C ${leftX + 60} ${midY}, ${laneStart - 50} ${y}, ${laneStart} ${y} L ${laneEnd} ${y} C ${laneEnd + 50} ${y}, ${rightX - 60} ${midY}, ${rightX} ${midY}`,
        fill: 'none',
        stroke: color,
        'stroke-width': getStrokeWidth(share),
        'stroke-opacity': 0.55,
        'stroke-linecap': 'round',
      }),
      text(laneStart - 4, y - 8 - getStrokeWidth(share) / 2, `${(share * 100).toFixed(1)}%`, { 'text-anchor': 'end', class: 'share', fill: color }),
    )

    const row = svg('g', { 'data-path': i })
    const slot = (laneEnd - laneStart) / path.length
    path.forEach((swap, j) => {
      const cx = laneStart + slot * (j + 0.5)
      const fee = feeOf(swap.key.toLowerCase())
      const box = svg('g', { 'data-pool': swap.address, 'data-protocol': swap.protocol, 'data-fork': swap.fork, 'data-fee': fee ?? '' })
      box.append(
        svg('title', {}, `${swap.protocol} (${swap.fork}) ${swap.address}\n${name(swap.tokenIn)} ${swap.amountIn} → ${name(swap.tokenOut)} ${swap.amountOut}`),
        svg('rect', { x: cx - POOL_WIDTH / 2, y: y - POOL_HEIGHT / 2, width: POOL_WIDTH, height: POOL_HEIGHT, rx: 7, class: 'pool', stroke: color }),
        text(cx, y - 8, swap.protocol, { 'text-anchor': 'middle', class: 'protocol' }),
        text(cx, y + 5, fee ? `${swap.fork} · ${fee}` : swap.fork, { 'text-anchor': 'middle', class: 'fork' }),
        text(cx, y + 17, shortAddress(swap.address), { 'text-anchor': 'middle', class: 'address' }),
      )
      row.append(box)
      if (j > 0) row.append(text(cx - slot / 2, y + POOL_HEIGHT / 2 + 4, name(swap.tokenIn), { 'text-anchor': 'middle', class: 'hop' }))
    })
    pools.append(row)
  })

  root.append(lanes, pools)
  if (sellToken && buyToken) {
    root.append(tokenNode(TOKEN_X, midY, name(sellToken), 'sell'), tokenNode(WIDTH - TOKEN_X, midY, name(buyToken), 'buy'))
  }
  return root
}

function tokenNode(x: number, y: number, label: string, side: 'sell' | 'buy'): SVGGElement {
  const node = svg('g', { 'data-token': side })
  node.append(svg('circle', { cx: x, cy: y, r: 24, class: 'token' }), text(x, y + 4, label, { 'text-anchor': 'middle', class: 'token-label' }))
  return node
}

function text(x: number, y: number, content: string, attrs: Record<string, string | number>): SVGTextElement {
  return svg('text', { x, y, ...attrs }, content)
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, content?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag)
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value))
  if (content !== undefined) el.textContent = content
  return el
}

/** `0x4200…0006`. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`
}
