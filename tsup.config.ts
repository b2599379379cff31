import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/defaultSnapshot.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    external: ['viem'],
  },
  // The `weft` executable (package.json "bin"): one ESM file with a shebang, no types.
  // It must not clean: both builds write to dist/ at the same time.
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: false,
    clean: false,
    target: 'es2022',
    platform: 'node',
    external: ['viem'],
    banner: { js: '#!/usr/bin/env node' },
  },
])
