import { parseAbi } from 'viem'

// Typed ABIs of the contracts the devnet deploys and tests call. The npm JSON
// artifacts carry the bytecode but lose ABI types, so the parts tests use are
// written out here (devnet.test.ts checks those of the test contracts against
// what solc compiles).

/**
 * ERC-20 plus `mint` (test/contracts/TestToken.sol). The ERC-20 part also fits WETH9.
 *
 * @example
 * await publicClient.readContract({ address: usdc, abi: testTokenAbi, functionName: 'balanceOf', args: [who] })
 */
export const testTokenAbi = parseAbi([
  'constructor(string name_, string symbol_, uint8 decimals_)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'function mint(address to, uint256 amount)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'error InsufficientBalance(address from, uint256 balance, uint256 needed)',
  'error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)',
])

/**
 * WETH9 (`@uniswap/v2-periphery/build/WETH9.json`).
 *
 * @example
 * await walletClient.writeContract({ address: weth, abi: weth9Abi, functionName: 'deposit', value: 10n ** 18n, gas: 100_000n })
 */
export const weth9Abi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function approve(address guy, uint256 wad) returns (bool)',
  'function transfer(address dst, uint256 wad) returns (bool)',
  'function transferFrom(address src, address dst, uint256 wad) returns (bool)',
  'function deposit() payable',
  'function withdraw(uint256 wad)',
  'event Transfer(address indexed src, address indexed dst, uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
])

/**
 * UniswapV2Factory (`@uniswap/v2-core`).
 *
 * @example
 * await publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [a, b] })
 */
export const uniswapV2FactoryAbi = parseAbi([
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function getPair(address, address) view returns (address)',
  'function allPairs(uint256) view returns (address)',
  'function allPairsLength() view returns (uint256)',
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
])

/**
 * UniswapV2Pair (`@uniswap/v2-core`).
 *
 * @example
 * const [reserve0, reserve1] = await publicClient.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' })
 */
export const uniswapV2PairAbi = parseAbi([
  'function factory() view returns (address)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function mint(address to) returns (uint256 liquidity)',
  'function burn(address to) returns (uint256 amount0, uint256 amount1)',
  'function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)',
  'function skim(address to)',
  'function sync()',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
])

/**
 * UniswapV3Factory (`@uniswap/v3-core`).
 *
 * @example
 * await publicClient.readContract({ address: factory, abi: uniswapV3FactoryAbi, functionName: 'getPool', args: [a, b, 500] })
 */
export const uniswapV3FactoryAbi = parseAbi([
  'function owner() view returns (address)',
  'function createPool(address tokenA, address tokenB, uint24 fee) returns (address pool)',
  'function getPool(address, address, uint24) view returns (address)',
  'function enableFeeAmount(uint24 fee, int24 tickSpacing)',
  'function feeAmountTickSpacing(uint24) view returns (int24)',
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
])

/**
 * UniswapV3Pool (`@uniswap/v3-core`).
 *
 * @example
 * const [sqrtPriceX96, tick] = await publicClient.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'slot0' })
 */
export const uniswapV3PoolAbi = parseAbi([
  'function factory() view returns (address)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function maxLiquidityPerTick() view returns (uint128)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function positions(bytes32 key) view returns (uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
  'function initialize(uint160 sqrtPriceX96)',
  'function burn(int24 tickLower, int24 tickUpper, uint128 amount) returns (uint256 amount0, uint256 amount1)',
  'function collect(address recipient, int24 tickLower, int24 tickUpper, uint128 amount0Requested, uint128 amount1Requested) returns (uint128 amount0, uint128 amount1)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])

/**
 * V3LiquidityProvider (test/contracts/V3LiquidityProvider.sol): mints positions and
 * runs raw swaps on UniswapV3Pools, paid by its caller through `transferFrom`.
 *
 * @example
 * await walletClient.writeContract({ address: provider, abi: v3LiquidityProviderAbi, functionName: 'swap', args: [pool, me, true, 10n ** 18n, 0n], gas: 3_000_000n })
 */
export const v3LiquidityProviderAbi = parseAbi([
  'function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity) returns (uint256 amount0, uint256 amount1)',
  'function swap(address pool, address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96) returns (int256 amount0, int256 amount1)',
  'function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes data)',
  'function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes data)',
  'error UnexpectedCallback(address caller)',
  'error TransferFromFailed(address token, address from, address to, uint256 amount)',
  'error Reentered()',
])
