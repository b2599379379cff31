import { defineConfig } from 'vitest/config'

// Gas-model calibration (not part of `npm test`): `npx vitest run --config vitest.calibration.config.ts`
// writes .tmp/gasdata.json; `python3 scripts/fitGasModel.py` fits the constants of src/quote/estimateGas.ts.
export default defineConfig({
  test: { include: ['test/calibration/**/*.calibrate.ts'], testTimeout: 900_000, hookTimeout: 120_000 },
})
