// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISwapCallbacks {
    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// @title AttackCallbackCaller
/// @notice A contract of the attacker's that calls anything with any calldata (a fake "pool" calling
///         the executor's swap callbacks). The callee's revert is passed on unchanged.
contract AttackCallbackCaller {
    function relay(address target, bytes calldata data) external {
        (bool ok, bytes memory answer) = target.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(answer, 0x20), mload(answer))
            }
        }
    }
}

/// @dev What a planted pool does when the executor calls `swap`. These contracts are never deployed
///      as themselves: a test copies their runtime code (anvil_setCode) onto the address of a genuine
///      pool, the only address the executor calls and whose callback it accepts, to model a pool that
///      misbehaves. They use no storage (the slots there are the real pool's).
abstract contract PlantedPool {
    function _owed(bool zeroForOne, int256 amount) internal pure returns (int256 amount0, int256 amount1) {
        (amount0, amount1) = zeroForOne ? (amount, int256(-1)) : (int256(-1), amount);
    }
}

/// @notice Asks its payer for one wei more than the swap's input.
contract AttackGreedyPancakePool is PlantedPool {
    function swap(address, bool zeroForOne, int256 amountSpecified, uint160, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1)
    {
        (amount0, amount1) = _owed(zeroForOne, amountSpecified + 1);
        ISwapCallbacks(msg.sender).pancakeV3SwapCallback(amount0, amount1, data);
    }
}

/// @notice Asks for the whole input twice, in two callbacks.
contract AttackDoubleDipPancakePool is PlantedPool {
    function swap(address, bool zeroForOne, int256 amountSpecified, uint160, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1)
    {
        (amount0, amount1) = _owed(zeroForOne, amountSpecified);
        ISwapCallbacks(msg.sender).pancakeV3SwapCallback(amount0, amount1, data);
        ISwapCallbacks(msg.sender).pancakeV3SwapCallback(amount0, amount1, data);
    }
}

/// @notice Planted at a genuine Uniswap V3 pool: asks to be paid through the PancakeSwap callback,
///         with the data the executor gave it (which names the Uniswap V3 dex entry).
contract AttackCrossCallbackPool is PlantedPool {
    function swap(address, bool zeroForOne, int256 amountSpecified, uint160, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1)
    {
        (amount0, amount1) = _owed(zeroForOne, amountSpecified);
        ISwapCallbacks(msg.sender).pancakeV3SwapCallback(amount0, amount1, data);
    }
}
