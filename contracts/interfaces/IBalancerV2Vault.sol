// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The part of Balancer V2's Vault (20210418-vault) that a single GIVEN_IN swap uses.
interface IBalancerV2Vault {
    enum SwapKind {
        GIVEN_IN,
        GIVEN_OUT
    }

    /// @dev assetIn/assetOut are IAsset in the Vault: address(0) there means ether, never used here.
    struct SingleSwap {
        bytes32 poolId;
        SwapKind kind;
        address assetIn;
        address assetOut;
        uint256 amount;
        bytes userData;
    }

    struct FundManagement {
        address sender;
        bool fromInternalBalance;
        address payable recipient;
        bool toInternalBalance;
    }

    /// @return amountCalculated For GIVEN_IN, the amount of assetOut sent to the recipient.
    function swap(SingleSwap memory singleSwap, FundManagement memory funds, uint256 limit, uint256 deadline)
        external
        payable
        returns (uint256 amountCalculated);
}
