import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/defaultSnapshot.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['viem', 'abitype', 'bignumber.js'],
})
