// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {UniswapV3Step} from "./UniswapV3Step.sol";

/// @title PancakeV3Step
/// @notice A swap on a PancakeSwap V3 pool, and the callback that pays it.
/// @dev A PancakeSwap V3 pool swaps exactly as a Uniswap V3 pool (same `swap` signature, same signed
/// deltas, same price-limit rules), so the swap itself is UniswapV3Step's. Two things differ:
/// - pools are CREATE2-deployed by the PancakeV3PoolDeployer, not by the factory, with Pancake's
///   own init-code hash: the dex table's `factory` of a kind-3 entry is the pool deployer, and the
///   salt is the same keccak256(abi.encode(token0, token1, fee));
/// - the pool calls back `pancakeV3SwapCallback`, authenticated here as the Uniswap V3 callback is.
/// Step.param: the fee tier (bits 0-23) and an optional sqrt price limit (bits 24-183, 0: none).
abstract contract PancakeV3Step is UniswapV3Step {
    /// @notice Pays a PancakeSwap V3 pool the input it asks for, if and only if it is the pool this
    /// contract is swapping with right now and it derives from a PancakeSwap V3 entry of the dex table.
    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        (uint8 dexIndex, address tokenIn, address tokenOut, uint24 fee) =
            abi.decode(data, (uint8, address, address, uint24));
        DexEntry memory dex = _dexTable[dexIndex];
        // The transient slot ties the call to the swap in flight; the CREATE2 recomputation from the
        // deployer ties it to a genuine pool; the kind keeps a Uniswap V3 entry from vouching for it.
        if (
            msg.sender != _expectedPool || dex.kind != KIND_PANCAKE_V3
                || msg.sender != _uniswapV3PoolAddress(dex, tokenIn, tokenOut, fee)
        ) revert InvalidCallback(msg.sender);
        _payCallback(amount0Delta, amount1Delta);
    }

    function _swapPancakeV3(DexEntry memory dex, Step calldata step, uint256 amountIn) internal returns (uint256) {
        return _swapUniswapV3(dex, step, amountIn);
    }
}
