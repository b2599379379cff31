// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ExecutorBase} from "./ExecutorBase.sol";
import {IUniswapV2Pair} from "../interfaces/IUniswapV2Pair.sol";

/// @title UniswapV2Step
/// @notice A swap on a Uniswap V2 pair (or a fork with the same pair contract and another fee).
/// Step.param: bit 0 set when tokenOut charges a fee on transfer. The executor measures every step's
/// output as its own balance increase, so the bit no longer changes what is credited; it is still
/// accepted (and every other bit refused) so calldata built for either meaning stays valid.
abstract contract UniswapV2Step is ExecutorBase {
    function _swapUniswapV2(DexEntry memory dex, Step calldata step, uint256 amountIn)
        internal
        returns (uint256 amountOut)
    {
        if (step.param >> 1 != 0) revert InvalidStep();
        (address pair, uint256 amount0Out, uint256 amount1Out) =
            _prepareUniswapV2(dex, step.tokenIn, step.tokenOut, amountIn);
        IUniswapV2Pair(pair).swap(amount0Out, amount1Out, address(this), "");
        // What the pair sent; what arrived is measured by the caller.
        return amount0Out | amount1Out;
    }

    /// @dev Sends the input to the pair and prices the swap the way the pair will check it.
    function _prepareUniswapV2(DexEntry memory dex, address tokenIn, address tokenOut, uint256 amountIn)
        private
        returns (address pair, uint256 amount0Out, uint256 amount1Out)
    {
        bool zeroForOne = tokenIn < tokenOut;
        (address token0, address token1) = zeroForOne ? (tokenIn, tokenOut) : (tokenOut, tokenIn);
        pair = _create2Address(dex.factory, keccak256(abi.encodePacked(token0, token1)), dex.initCodeHash);

        _transfer(tokenIn, pair, amountIn);
        uint256 amountOut = _uniswapV2AmountOut(pair, tokenIn, zeroForOne, dex.feeBps);
        (amount0Out, amount1Out) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
    }

    function _uniswapV2AmountOut(address pair, address tokenIn, bool zeroForOne, uint256 feeBps)
        private
        view
        returns (uint256)
    {
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        // The pair credits the swap with what it holds above its reserve, which for a fee-on-transfer
        // token is less than what was sent.
        uint256 amountInWithFee = (_balanceOf(tokenIn, pair) - reserveIn) * (BPS - feeBps);
        // UniswapV2Library.getAmountOut scaled to basis points: for 30 bps numerator and denominator
        // are both 10x Uniswap's 997/1000 form, so the floor is identical.
        return amountInWithFee * reserveOut / (reserveIn * BPS + amountInWithFee);
    }
}
