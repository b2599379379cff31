// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice A Uniswap V4 pool's key, as the PoolManager takes it (v4-core's PoolKey). Currencies are
/// sorted, address(0) being the native token; its keccak256 (abi-encoded) is the pool id.
struct UniswapV4PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

/// @notice v4-core's SwapParams: a negative amountSpecified is an exact input.
struct UniswapV4SwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

/// @notice The subset of the Uniswap V4 PoolManager the executor calls (it encodes the calls itself;
/// this names their selectors). The PoolManager then calls `unlockCallback(bytes)` on the contract
/// that unlocked it. A swap's BalanceDelta is an int256 packing amount0 (upper 128 bits) and amount1
/// (lower 128 bits), from the caller's side: negative is owed to the pool, positive to the caller.
interface IUniswapV4PoolManager {
    function unlock(bytes calldata data) external returns (bytes memory);

    function swap(UniswapV4PoolKey memory key, UniswapV4SwapParams memory params, bytes calldata hookData)
        external
        returns (int256 swapDelta);

    function sync(address currency) external;

    function settle() external payable returns (uint256 paid);

    function take(address currency, address to, uint256 amount) external;
}

/// @notice The executor's wrapped native token getter, read by steps that live in base contracts.
interface IWrappedNativeHolder {
    function weth() external view returns (address);
}
