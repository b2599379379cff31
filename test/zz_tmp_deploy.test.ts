import { it } from 'vitest'
import { startAnvil } from './devnet/anvil.js'
import { deployDevnet } from './devnet/deployDevnet.js'
it('deploys', async () => {
  for (let i = 0; i < 5; i++) {
    const anvil = await startAnvil({ chainId: 31_337, pruneHistory: 64 })
    try {
      const t = performance.now()
      const d = await deployDevnet(anvil)
      console.log('ok', i, performance.now() - t)
    } catch (e) { console.log('fail', i, (e as Error).message, anvil.output().slice(-3000)) }
    await anvil.stop()
  }
}, 600_000)
