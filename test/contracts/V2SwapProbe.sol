// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IUniswapV2PairSwap {
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @title V2SwapProbe
/// @notice Pays a UniswapV2Pair and calls its `swap` in one call, so a test can
///         ask the pair itself whether it takes a given input for a given
///         output: the pair checks its K invariant against what it holds above
///         its reserves, so the payment and the swap must be atomic. As an
///         `eth_call` it is a question; as a transaction, the trade.
/// @dev The caller pays through `transferFrom` and must have approved this
///      contract. The pair's own revert (`UniswapV2: K`, ...) bubbles up unchanged.
contract V2SwapProbe {
    error TransferFromFailed(address token, address from, address to, uint256 amount);

    function swap(address pair, address tokenIn, uint256 amountIn, uint256 amount0Out, uint256 amount1Out, address to)
        external
    {
        // A call to an address without code succeeds: it must not count as a payment.
        if (tokenIn.code.length == 0) revert TransferFromFailed(tokenIn, msg.sender, pair, amountIn);
        (bool ok, bytes memory data) =
            tokenIn.call(abi.encodeCall(IERC20TransferFrom.transferFrom, (msg.sender, pair, amountIn)));
        if (!ok || (data.length != 0 && !abi.decode(data, (bool)))) {
            revert TransferFromFailed(tokenIn, msg.sender, pair, amountIn);
        }
        IUniswapV2PairSwap(pair).swap(amount0Out, amount1Out, to, "");
    }
}
