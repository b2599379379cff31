// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice v4-core's PoolKey, ModifyLiquidityParams and SwapParams (same ABI).
struct V4PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct V4ModifyLiquidityParams {
    int24 tickLower;
    int24 tickUpper;
    int256 liquidityDelta;
    bytes32 salt;
}

struct V4SwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IV4TestPoolManager {
    function unlock(bytes calldata data) external returns (bytes memory);
    function modifyLiquidity(V4PoolKey memory key, V4ModifyLiquidityParams memory params, bytes calldata hookData)
        external
        returns (int256 callerDelta, int256 feesAccrued);
    function swap(V4PoolKey memory key, V4SwapParams memory params, bytes calldata hookData) external returns (int256);
    function sync(address currency) external;
    function settle() external payable returns (uint256);
    function take(address currency, address to, uint256 amount) external;
}

interface IV4TestERC20 {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title V4TestRouter
/// @notice Test helper: lets an EOA add liquidity to, and swap on, pools of the real Uniswap V4
///         PoolManager. Inside the unlock callback it performs the action, then settles what the
///         caller owes (transferFrom the caller, or the ether sent along) and takes what the
///         caller is owed to the recipient. Unused ether is refunded.
/// @dev The callback is accepted only from the PoolManager and only during this contract's own
///      unlock (the caller is held in transient storage meanwhile).
contract V4TestRouter {
    IV4TestPoolManager public immutable manager;

    address private transient _payer;
    address private transient _recipient;

    error UnexpectedCallback(address caller);
    error TransferFromFailed(address token);
    error RefundFailed();

    constructor(IV4TestPoolManager manager_) {
        manager = manager_;
    }

    receive() external payable {}

    /// @notice Adds (positive) or removes (negative) liquidity in [tickLower, tickUpper) for this
    ///         contract's position `salt`; the caller pays or receives the difference.
    function modifyLiquidity(V4PoolKey calldata key, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)
        external
        payable
        returns (int256 delta)
    {
        bytes memory data = abi.encode(uint8(0), key, abi.encode(V4ModifyLiquidityParams(tickLower, tickUpper, liquidityDelta, salt)));
        delta = _run(data, msg.sender);
    }

    /// @notice A raw PoolManager swap paid by the caller (V4 signs: negative amountSpecified is an
    ///         exact input); 0 as the price limit means none. Returns the BalanceDelta.
    function swap(V4PoolKey calldata key, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, address recipient)
        external
        payable
        returns (int256 delta)
    {
        if (sqrtPriceLimitX96 == 0) {
            sqrtPriceLimitX96 = zeroForOne ? 4295128740 : 1461446703485210103287273052203988822378723970341;
        }
        bytes memory data = abi.encode(uint8(1), key, abi.encode(V4SwapParams(zeroForOne, amountSpecified, sqrtPriceLimitX96)));
        delta = _run(data, recipient == address(0) ? msg.sender : recipient);
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(manager) || _payer == address(0)) revert UnexpectedCallback(msg.sender);
        (uint8 action, V4PoolKey memory key, bytes memory params) = abi.decode(data, (uint8, V4PoolKey, bytes));
        int256 delta;
        if (action == 0) {
            (delta,) = manager.modifyLiquidity(key, abi.decode(params, (V4ModifyLiquidityParams)), "");
        } else {
            delta = manager.swap(key, abi.decode(params, (V4SwapParams)), "");
        }
        _resolve(key.currency0, delta >> 128);
        _resolve(key.currency1, int256(int128(delta)));
        return abi.encode(delta);
    }

    function _run(bytes memory data, address recipient) private returns (int256 delta) {
        _payer = msg.sender;
        _recipient = recipient;
        delta = abi.decode(manager.unlock(data), (int256));
        _payer = address(0);
        _recipient = address(0);
        if (address(this).balance != 0) {
            (bool ok,) = msg.sender.call{value: address(this).balance}("");
            if (!ok) revert RefundFailed();
        }
    }

    function _resolve(address currency, int256 amount) private {
        if (amount < 0) {
            uint256 owed = uint256(-amount);
            if (currency == address(0)) {
                manager.settle{value: owed}();
            } else {
                manager.sync(currency);
                if (currency.code.length == 0 || !IV4TestERC20(currency).transferFrom(_payer, address(manager), owed)) {
                    revert TransferFromFailed(currency);
                }
                manager.settle();
            }
        } else if (amount > 0) {
            manager.take(currency, _recipient, uint256(amount));
        }
    }
}
