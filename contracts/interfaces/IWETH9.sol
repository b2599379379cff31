// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The two WETH9 functions the executor uses to move between native and wrapped.
interface IWETH9 {
    function deposit() external payable;

    function withdraw(uint256 amount) external;
}
