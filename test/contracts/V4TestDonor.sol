// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice v4-core's PoolKey (same ABI).
struct V4DonorPoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

interface IV4DonorPoolManager {
    function unlock(bytes calldata data) external returns (bytes memory);
    function donate(V4DonorPoolKey memory key, uint256 amount0, uint256 amount1, bytes calldata hookData) external returns (int256);
    function sync(address currency) external;
    function settle() external payable returns (uint256);
}

interface IV4DonorERC20 {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title V4TestDonor
/// @notice Test helper: lets an EOA donate to a pool of the real Uniswap V4 PoolManager
///         (PoolManager.donate, which grows the fees of the liquidity in range). Inside the unlock
///         callback it donates, then pays what the caller owes (transferFrom the caller, or the ether
///         sent along). Unused ether is refunded.
/// @dev The callback is accepted only from the PoolManager and only during this contract's own
///      unlock (the caller is held in transient storage meanwhile).
contract V4TestDonor {
    IV4DonorPoolManager public immutable manager;

    address private transient _payer;

    error UnexpectedCallback(address caller);
    error TransferFromFailed(address token);
    error RefundFailed();

    constructor(IV4DonorPoolManager manager_) {
        manager = manager_;
    }

    receive() external payable {}

    /// @notice Donates `amount0` and `amount1` of the pool's currencies, paid by the caller.
    function donate(V4DonorPoolKey calldata key, uint256 amount0, uint256 amount1) external payable {
        _payer = msg.sender;
        manager.unlock(abi.encode(key, amount0, amount1));
        _payer = address(0);
        if (address(this).balance != 0) {
            (bool ok,) = msg.sender.call{value: address(this).balance}("");
            if (!ok) revert RefundFailed();
        }
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(manager) || _payer == address(0)) revert UnexpectedCallback(msg.sender);
        (V4DonorPoolKey memory key, uint256 amount0, uint256 amount1) = abi.decode(data, (V4DonorPoolKey, uint256, uint256));
        manager.donate(key, amount0, amount1, "");
        _pay(key.currency0, amount0);
        _pay(key.currency1, amount1);
        return "";
    }

    function _pay(address currency, uint256 amount) private {
        if (amount == 0) return;
        if (currency == address(0)) {
            manager.settle{value: amount}();
            return;
        }
        manager.sync(currency);
        if (currency.code.length == 0 || !IV4DonorERC20(currency).transferFrom(_payer, address(manager), amount)) {
            revert TransferFromFailed(currency);
        }
        manager.settle();
    }
}
