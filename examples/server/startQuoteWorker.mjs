// Entry of a quote worker thread (see createQuotePool.ts). Worker threads do not
// inherit the parent's TypeScript loader (tsx, vitest), so the worker registers
// tsx itself before importing quoteWorker.ts; a build that ships .js skips it.
import { workerData } from 'node:worker_threads'

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api')
  register()
}
await import(workerData.entry)
