// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IV4AttackPoolManager {
    function unlock(bytes calldata data) external returns (bytes memory);
    function take(address currency, address to, uint256 amount) external;
}

/// @title V4AttackUnlocker
/// @notice The attacker's contract against weft's Uniswap V4 step. `poke` calls a target (the
///         executor's unlockCallback) from a contract; `unlockAndCall` first unlocks the real
///         PoolManager, so the target is called while the PoolManager is unlocked, by the holder of
///         its lock (the executor's own swap then finds it locked by someone else); `takeDuring`
///         is what a token's transfer hook can do in the middle of the executor's unlock: ask the
///         PoolManager for more than the step's output.
/// @dev Reverts of the target are passed on unchanged.
contract V4AttackUnlocker {
    address public immutable manager;
    address private transient _target;
    bytes private _payload;

    error NotManager(address caller);

    constructor(address manager_) {
        manager = manager_;
    }

    receive() external payable {}

    /// @notice Calls `target` with `payload` (and this contract's ether), as a contract.
    function poke(address target, bytes calldata payload) external payable returns (bytes memory answer) {
        answer = _call(target, payload);
    }

    /// @notice Unlocks the PoolManager and, from its unlock callback, calls `target` with `payload`.
    function unlockAndCall(address target, bytes calldata payload) external payable {
        _target = target;
        _payload = payload;
        IV4AttackPoolManager(manager).unlock("");
        _target = address(0);
    }

    /// @notice Takes `amount` of `currency` from the PoolManager to `to`: whoever calls this inside an
    ///         unlock owes it back before the unlock ends.
    function takeDuring(address currency, address to, uint256 amount) external {
        IV4AttackPoolManager(manager).take(currency, to, amount);
    }

    function unlockCallback(bytes calldata) external returns (bytes memory) {
        if (msg.sender != manager || _target == address(0)) revert NotManager(msg.sender);
        return _call(_target, _payload);
    }

    function _call(address target, bytes memory payload) private returns (bytes memory answer) {
        bool ok;
        (ok, answer) = target.call{value: address(this).balance}(payload);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(answer, 0x20), mload(answer))
            }
        }
    }
}
