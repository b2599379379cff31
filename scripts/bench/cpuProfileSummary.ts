// Reads a V8 CPU profile (`node --cpu-prof`) and prints where the time went: per function, its
// self time and its inclusive time (a function counted once per sample however deep it recurses),
// the top entries by each. Filters by a file name fragment when given (e.g. `src/`).
//   npx tsx scripts/bench/cpuProfileSummary.ts <file.cpuprofile> [top=40] [fileFilter]
import { readFileSync } from 'node:fs'

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const [file, topText, filter] = process.argv.slice(2)
const profile = JSON.parse(readFileSync(file!, 'utf8')) as Profile
const top = Number(topText ?? 40)
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const nameOf = (node: ProfileNode) => {
  const url = node.callFrame.url.replace(/^.*\/(src|scripts|node_modules)\//, '$1/')
  return `${node.callFrame.functionName || '(anonymous)'} ${url}:${node.callFrame.lineNumber + 1}`
}
const self = new Map<string, number>()
const inclusive = new Map<string, number>()
let total = 0
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0
  total += delta
  const node = byId.get(id)!
  self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + delta)
  const seen = new Set<string>()
  for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
    const name = nameOf(byId.get(current)!)
    if (seen.has(name)) continue
    seen.add(name)
    inclusive.set(name, (inclusive.get(name) ?? 0) + delta)
  }
})
const print = (title: string, table: Map<string, number>) => {
  console.log(`${title} (of ${(total / 1000).toFixed(0)} ms):`)
  const rows = [...table].filter(([name]) => !filter || name.includes(filter)).sort((a, b) => b[1] - a[1])
  for (const [name, micros] of rows.slice(0, top)) console.log(`  ${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
}
print('self', self)
print('inclusive', inclusive)

// With a fourth argument, the callers of the functions whose name holds it, by time.
const calleeName = process.argv[5]
if (calleeName) {
  const callers = new Map<string, number>()
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      if (!nameOf(byId.get(current)!).startsWith(`${calleeName} `)) continue
      const caller = parent.get(current)
      const name = caller === undefined ? '(none)' : nameOf(byId.get(caller)!)
      callers.set(name, (callers.get(name) ?? 0) + delta)
      break
    }
  })
  print(`callers of ${calleeName}`, callers)
}
