// `npx vite examples/web` serves the page; `npx vite build examples/web` writes it to .tmp/web-dist.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: the built page works from any path (or a file server's subfolder).
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../../.tmp/web-dist', import.meta.url)),
    emptyOutDir: true,
    // bigint literals (ES2020) are used throughout weft.
    target: 'es2022',
    rolldownOptions: {
      output: {
        // viem and its cryptography in a chunk of their own: neither chunk reaches Vite's 500 kB
        // warning, and the library chunk stays cached across page releases.
        codeSplitting: { groups: [{ name: 'viem', test: /node_modules[\\/](viem|ox|abitype|@noble|@scure)[\\/]/ }] },
      },
    },
  },
})
