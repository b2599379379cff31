// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice What the real Slipstream CLFactory asks of Aerodrome's Voter and of the legacy CL factory
///         on a devnet that has neither: the constructor reads `voter.factoryRegistry()`,
///         `createPool` asks the legacy factory whether the pool exists there (it never does here),
///         and every swap asks `voter.gauges(pool)` and `voter.isAlive(gauge)` for the unstaked fee
///         (no gauge here: unstaked fee 0, which only splits the fee between LPs and the gauge).
///         One contract stands in for both; no answer enters the amounts a swap pays or receives.
contract SlipstreamFactoryDeps {
    function factoryRegistry() external view returns (address) {
        return address(this);
    }

    function gauges(address) external pure returns (address) {
        return address(0);
    }

    function isAlive(address) external pure returns (bool) {
        return false;
    }

    function getPool(address, address, int24) external pure returns (address) {
        return address(0);
    }
}
