// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {V4PoolKey, V4SwapParams} from "./V4TestRouter.sol";

interface IV4TestDynamicFeeManager {
    function updateDynamicLPFee(V4PoolKey memory key, uint24 newDynamicLPFee) external;
}

/// @title V4TestHook
/// @notice A Uniswap V4 hook for the devnet's pools that weft must skip. Its permissions are the low
///         14 bits of the address it is placed at (anvil_setCode). At an address with BEFORE_SWAP set
///         the PoolManager calls it before every swap; this one changes nothing, but a hook may, so
///         weft cannot price such a pool. At an address with no flags it serves a dynamic-fee pool,
///         whose LP fee it sets with `setFee`. Stateless: no constructor runs when code is placed.
contract V4TestHook {
    function beforeSwap(address, V4PoolKey calldata, V4SwapParams calldata, bytes calldata)
        external
        pure
        returns (bytes4, int256, uint24)
    {
        return (V4TestHook.beforeSwap.selector, 0, 0);
    }

    /// @notice Sets the LP fee of a dynamic-fee pool this hook serves.
    function setFee(address manager, V4PoolKey calldata key, uint24 fee) external {
        IV4TestDynamicFeeManager(manager).updateDynamicLPFee(key, fee);
    }
}
