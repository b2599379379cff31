// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title BalancerRateProvider
/// @notice A Balancer IRateProvider whose rate the test sets (18 decimals), standing in for a
///         yield-bearing token's exchange rate (wstETH, sDAI). Test only: anyone may set it.
contract BalancerRateProvider {
    uint256 public getRate = 1e18;

    function setRate(uint256 rate) external {
        getRate = rate;
    }
}
