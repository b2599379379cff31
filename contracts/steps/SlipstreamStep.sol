// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {UniswapV3Step} from "./UniswapV3Step.sol";

/// @title SlipstreamStep
/// @notice A swap on an Aerodrome Slipstream (CL) pool.
/// @dev A Slipstream pool swaps as a Uniswap V3 pool (same `swap` signature and deltas) and calls back
/// the same `uniswapV3SwapCallback`, so both the swap and its callback are UniswapV3Step's. What
/// differs is how pools are keyed: by tick spacing instead of fee, CREATE2 salt
/// keccak256(abi.encode(token0, token1, int24 tickSpacing)) from the CLFactory, and the init code is
/// an EIP-1167 clone of the pool implementation, so the dex table's `initCodeHash` of a kind-6 entry
/// is the hash of that clone's creation code. A positive int24 encodes like a uint24, so with the
/// tick spacing where a V3 step has its fee, UniswapV3Step derives (and its callback re-derives) the
/// Slipstream pool's address.
/// Step.param: the tick spacing (bits 0-23) and an optional sqrt price limit (bits 24-183, 0: none).
abstract contract SlipstreamStep is UniswapV3Step {
    function _swapSlipstream(DexEntry memory dex, Step calldata step, uint256 amountIn) internal returns (uint256) {
        return _swapUniswapV3(dex, step, amountIn);
    }
}
