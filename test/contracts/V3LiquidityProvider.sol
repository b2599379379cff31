// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Minimal {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IUniswapV3PoolMinimal {
    function token0() external view returns (address);
    function token1() external view returns (address);

    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);

    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

/// @title V3LiquidityProvider
/// @notice Test helper that lets an EOA add liquidity to, and swap on, a raw
///         UniswapV3Pool. The caller pays through `transferFrom`, so it must
///         approve this contract for both tokens first.
/// @dev Only the pool this contract is calling right now may call back, and it
///      can only pull from the caller that started the call: both are held in
///      transient storage for the length of the call. Without that check anyone
///      could call a callback and drain whoever approved this contract.
contract V3LiquidityProvider {
    // From TickMath: the price limits a swap may run to, exclusive.
    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    // keccak256("weft.test.V3LiquidityProvider.pool") and keccak256("weft.test.V3LiquidityProvider.payer").
    bytes32 private constant POOL_SLOT = 0xccd5766a4718a53883ccd84d0032520a1e4031ebcc48b68067c1ea8d5486a13d;
    bytes32 private constant PAYER_SLOT = 0x99c86f5fd8599fb1be99f7b13c31c82ac3bd59b442868f53e353d5ec0d0fb628;

    error UnexpectedCallback(address caller);
    error TransferFromFailed(address token, address from, address to, uint256 amount);
    error Reentered();

    /// @notice Adds `liquidity` in [tickLower, tickUpper) to `pool`, owned by `recipient`.
    function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        _enter(pool);
        (amount0, amount1) = IUniswapV3PoolMinimal(pool).mint(recipient, tickLower, tickUpper, liquidity, "");
        _exit();
    }

    /// @notice A raw pool swap paid by the caller. `amountSpecified` > 0: exact input; < 0: exact output.
    ///         `sqrtPriceLimitX96` = 0 means no limit.
    function swap(address pool, address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96)
        external
        returns (int256 amount0, int256 amount1)
    {
        if (sqrtPriceLimitX96 == 0) sqrtPriceLimitX96 = zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1;
        _enter(pool);
        (amount0, amount1) =
            IUniswapV3PoolMinimal(pool).swap(recipient, zeroForOne, amountSpecified, sqrtPriceLimitX96, "");
        _exit();
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        address payer = _payer();
        if (amount0Owed > 0) _pull(IUniswapV3PoolMinimal(msg.sender).token0(), payer, amount0Owed);
        if (amount1Owed > 0) _pull(IUniswapV3PoolMinimal(msg.sender).token1(), payer, amount1Owed);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        address payer = _payer();
        // Exactly one delta is positive: what the pool is owed.
        if (amount0Delta > 0) _pull(IUniswapV3PoolMinimal(msg.sender).token0(), payer, uint256(amount0Delta));
        if (amount1Delta > 0) _pull(IUniswapV3PoolMinimal(msg.sender).token1(), payer, uint256(amount1Delta));
    }

    function _enter(address pool) private {
        address current;
        assembly ("memory-safe") {
            current := tload(POOL_SLOT)
        }
        if (current != address(0)) revert Reentered();
        assembly ("memory-safe") {
            tstore(POOL_SLOT, pool)
            tstore(PAYER_SLOT, caller())
        }
    }

    function _exit() private {
        assembly ("memory-safe") {
            tstore(POOL_SLOT, 0)
            tstore(PAYER_SLOT, 0)
        }
    }

    /// @dev The payer of the call in progress, if and only if `msg.sender` is its pool.
    function _payer() private view returns (address payer) {
        address pool;
        assembly ("memory-safe") {
            pool := tload(POOL_SLOT)
            payer := tload(PAYER_SLOT)
        }
        if (pool == address(0) || msg.sender != pool) revert UnexpectedCallback(msg.sender);
    }

    /// @dev transferFrom to the pool (`msg.sender`), accepting tokens that return nothing (USDT-style).
    function _pull(address token, address from, uint256 amount) private {
        // A call to an address without code succeeds: it must not count as a payment.
        if (token.code.length == 0) revert TransferFromFailed(token, from, msg.sender, amount);
        (bool ok, bytes memory data) =
            token.call(abi.encodeCall(IERC20Minimal.transferFrom, (from, msg.sender, amount)));
        if (!ok || (data.length != 0 && !abi.decode(data, (bool)))) {
            revert TransferFromFailed(token, from, msg.sender, amount);
        }
    }
}
