// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The subset of a Uniswap V2 pair the executor calls.
interface IUniswapV2Pair {
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);

    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}
