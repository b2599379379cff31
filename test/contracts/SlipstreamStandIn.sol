// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SlipstreamStandInFactory
/// @notice Keys pools the way Aerodrome Slipstream's CLFactory does, for a devnet that has no
///         Slipstream bytecode (none is published on npm): CREATE2 salt
///         keccak256(abi.encode(token0, token1, int24 tickSpacing)), each pool's fee chosen apart
///         from its spacing. The pools are the real UniswapV3Pool of the uniswap v3-core package (whose swap
///         Slipstream's CLPool keeps, and which calls back `uniswapV3SwapCallback` as CLPool does),
///         deployed with their creation code unchanged, so a pool's address is
///         CREATE2(this, salt, keccak256(UniswapV3Pool creation code)). What this cannot stand in
///         for is the clone init code of the real factory, which the Base config names.
/// @dev UniswapV3Pool's constructor reads `parameters()` from msg.sender. Its creation code lives
///      as the runtime code of a holder contract and is copied from there.
contract SlipstreamStandInFactory {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    Parameters public parameters;
    address public immutable poolCodeHolder;
    mapping(address => mapping(address => mapping(int24 => address))) public getPool;

    error InvalidPool();
    error DeployFailed();

    constructor(address poolCodeHolder_) {
        poolCodeHolder = poolCodeHolder_;
    }

    function createPool(address tokenA, address tokenB, int24 tickSpacing, uint24 fee) external returns (address pool) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0) || token0 == token1 || tickSpacing <= 0 || tickSpacing >= 16384) revert InvalidPool();
        if (getPool[token0][token1][tickSpacing] != address(0)) revert InvalidPool();
        parameters = Parameters(address(this), token0, token1, fee, tickSpacing);
        bytes memory initCode = poolCodeHolder.code;
        bytes32 salt = keccak256(abi.encode(token0, token1, tickSpacing));
        assembly ("memory-safe") {
            pool := create2(0, add(initCode, 0x20), mload(initCode), salt)
        }
        if (pool == address(0)) revert DeployFailed();
        delete parameters;
        getPool[token0][token1][tickSpacing] = pool;
        getPool[token1][token0][tickSpacing] = pool;
    }
}
