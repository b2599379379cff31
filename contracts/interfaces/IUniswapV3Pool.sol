// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The subset of a Uniswap V3 pool the executor calls.
interface IUniswapV3Pool {
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}
