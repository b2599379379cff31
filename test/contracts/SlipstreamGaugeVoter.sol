// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface ISlipstreamGaugeTarget {
    function setGaugeAndPositionManager(address gauge, address nft) external;
}

/// @notice SlipstreamFactoryDeps with gauges, as Base's Voter and FactoryRegistry have them: the
///         Voter answers `gauges(pool)` and `isAlive(gauge)` from storage (the CLFactory then
///         charges the unstaked fee), and the FactoryRegistry names this contract as the gauge
///         factory, so `attachGauge` may call the pool's `setGaugeAndPositionManager` (onlyGaugeFactory).
///         The gauge is whatever account the test names: the pool's `stake` and `syncReward`
///         (onlyGauge) are then called from it, as Aerodrome's CLGauge would on a deposit and a
///         reward notification. No answer enters the amounts a swap pays or receives.
contract SlipstreamGaugeVoter {
    mapping(address => address) public gauges;
    mapping(address => bool) public isAlive;

    function factoryRegistry() external view returns (address) {
        return address(this);
    }

    function factoriesToPoolFactory(address) external view returns (address votingRewardsFactory, address gaugeFactory) {
        return (address(0), address(this));
    }

    function getPool(address, address, int24) external pure returns (address) {
        return address(0);
    }

    /// @notice Gives `pool` the gauge `gauge` (alive) and the position manager `nft`.
    function attachGauge(address pool, address gauge, address nft) external {
        gauges[pool] = gauge;
        isAlive[gauge] = true;
        ISlipstreamGaugeTarget(pool).setGaugeAndPositionManager(gauge, nft);
    }
}
