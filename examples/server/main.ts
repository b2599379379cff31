// The weft quote server: `npx tsx examples/server/main.ts [--config server.json]`.
// Configuration: a JSON file (--config or WEFT_CONFIG) and/or WEFT_* environment
// variables; see README.md beside this file. SIGHUP re-reads the apps file;
// SIGINT/SIGTERM close the server (in-flight requests finish first).
import { parseArgs } from 'node:util'
import { QuoteError } from '../../src/index.js'
import { loadAppsFile, loadServerConfig } from './loadServerConfig.js'
import { startServer } from './createServer.js'

const fail = (error: unknown): never => {
  const message = error instanceof QuoteError || error instanceof Error ? error.message : String(error)
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'startup failed', error: message })}\n`)
  process.exit(1)
}

const { values } = parseArgs({ options: { config: { type: 'string' } }, strict: true })
const { config, appsFile } = await loadServerConfig({ ...(values.config ? { configFile: values.config } : {}), env: process.env }).catch(fail)
const server = await startServer(config).catch(fail)

if (appsFile !== null) {
  process.on('SIGHUP', () => {
    loadAppsFile(appsFile)
      .then((apps) => server.setApps(apps))
      .catch((error: Error) => {
        // A bad edit keeps the previous apps in force.
        process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'apps file not reloaded', error: error.message })}\n`)
      })
  })
}

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return
    closing = true
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  })
}
