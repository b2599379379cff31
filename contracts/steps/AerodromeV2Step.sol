// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ExecutorBase} from "./ExecutorBase.sol";

/// @dev The two Aerodrome V2 Pool functions this step calls.
interface IAerodromeV2Pool {
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @title AerodromeV2Step
/// @notice A swap on an Aerodrome V2 (Solidly) pool, stable or volatile.
/// @dev Pools are EIP-1167 clones the PoolFactory deploys with CREATE2 salt
/// keccak256(abi.encodePacked(token0, token1, stable)), so the dex table's `initCodeHash` of a
/// kind-7 entry is the hash of the clone's creation code. The pool is derived here from the table,
/// never taken from calldata: only a pool the configured factory created can be paid. The output is
/// the pool's own `getAmountOut` (its fee from the factory, its stable-curve Newton solve), which
/// the pool's `K` check always accepts; what arrived is measured by the caller.
/// Step.param: bit 0 set for a stable pool; every other bit refused.
abstract contract AerodromeV2Step is ExecutorBase {
    function _swapAerodromeV2(DexEntry memory dex, Step calldata step, uint256 amountIn)
        internal
        returns (uint256 amountOut)
    {
        if (step.param >> 1 != 0) revert InvalidStep();
        bool stable = step.param == 1;
        bool zeroForOne = step.tokenIn < step.tokenOut;
        (address token0, address token1) = zeroForOne ? (step.tokenIn, step.tokenOut) : (step.tokenOut, step.tokenIn);
        address pool =
            _create2Address(dex.factory, keccak256(abi.encodePacked(token0, token1, stable)), dex.initCodeHash);
        // Priced on the reserves before the payment (getAmountOut reads reserves, not balances).
        // A derived address without code has no answer to decode, so the step reverts here.
        amountOut = IAerodromeV2Pool(pool).getAmountOut(amountIn, step.tokenIn);
        _transfer(step.tokenIn, pool, amountIn);
        (uint256 amount0Out, uint256 amount1Out) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IAerodromeV2Pool(pool).swap(amount0Out, amount1Out, address(this), "");
    }
}
