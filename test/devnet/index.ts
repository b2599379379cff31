// The devnet fixture for weft's end-to-end tests: a real anvil with the real
// Uniswap V2/V3 bytecode from npm. Import from here.
export * from './abis.js'
export * from './anvil.js'
export * from './compile.js'
export * from './deployDevnet.js'
export * from './priceMath.js'
export * from './rpc.js'
export * from './universe.js'
