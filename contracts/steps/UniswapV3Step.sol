// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ExecutorBase} from "./ExecutorBase.sol";
import {IUniswapV3Pool} from "../interfaces/IUniswapV3Pool.sol";

/// @title UniswapV3Step
/// @notice A swap on a Uniswap V3 pool, and the callback that pays it.
/// Step.param: the fee tier (bits 0-23) and an optional sqrt price limit (bits 24-183, 0: none).
abstract contract UniswapV3Step is ExecutorBase {
    // TickMath.MIN_SQRT_RATIO + 1 and MAX_SQRT_RATIO - 1: no price limit. Exactness is enforced
    // after the swap instead, by requiring the pool to take the whole input.
    uint160 internal constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// @notice Pays a V3 pool the input it asks for, if and only if it is the pool this contract is
    /// swapping with right now.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        (uint8 dexIndex, address tokenIn, address tokenOut, uint24 fee) =
            abi.decode(data, (uint8, address, address, uint24));
        // Both checks, as defence in depth: the transient slot ties the call to the swap in flight;
        // the CREATE2 recomputation (as Universal Router's V3SwapRouter does) ties it to a genuine pool.
        if (
            msg.sender != _expectedPool
                || msg.sender != _uniswapV3PoolAddress(_dexTable[dexIndex], tokenIn, tokenOut, fee)
        ) revert InvalidCallback(msg.sender);
        _payCallback(amount0Delta, amount1Delta);
    }

    function _swapUniswapV3(DexEntry memory dex, Step calldata step, uint256 amountIn) internal returns (uint256) {
        // int256(amountIn) must stay positive: a negative amountSpecified is an exact-output swap.
        if (step.param >> 184 != 0 || amountIn > uint256(type(int256).max)) revert InvalidStep();
        address tokenIn = step.tokenIn;
        address tokenOut = step.tokenOut;
        uint24 fee = uint24(step.param);
        bool zeroForOne = tokenIn < tokenOut;
        address pool = _uniswapV3PoolAddress(dex, tokenIn, tokenOut, fee);

        _expectedPool = pool;
        _callbackToken = tokenIn;
        _callbackMaxIn = amountIn;
        (int256 amount0, int256 amount1) = IUniswapV3Pool(pool).swap(
            address(this),
            zeroForOne,
            int256(amountIn),
            _v3PriceLimit(step.param, zeroForOne),
            abi.encode(step.dex, tokenIn, tokenOut, fee)
        );
        _expectedPool = address(0);
        return _v3Received(pool, zeroForOne, amount0, amount1, amountIn);
    }

    /// @dev The output of an exact-input V3-style swap, after checking the pool took all the input:
    /// a pool that runs out of liquidity stops early and takes less, and the rest would be stranded.
    function _v3Received(address pool, bool zeroForOne, int256 amount0, int256 amount1, uint256 amountIn)
        internal
        pure
        returns (uint256)
    {
        (int256 paid, int256 received) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (paid != int256(amountIn)) revert PartialFill(pool);
        return uint256(-received);
    }

    /// @dev The SDK passes the edge of the ticks it priced with: a pool drained or pushed past it
    /// stops there (and the fill reverts as partial) instead of burning gas through empty ticks.
    function _v3PriceLimit(uint256 param, bool zeroForOne) internal pure returns (uint160 limit) {
        limit = uint160(param >> 24);
        if (limit == 0) limit = zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT;
    }

    function _uniswapV3PoolAddress(DexEntry memory dex, address tokenA, address tokenB, uint24 fee)
        internal
        pure
        returns (address)
    {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        return _create2Address(dex.factory, keccak256(abi.encode(token0, token1, fee)), dex.initCodeHash);
    }
}
