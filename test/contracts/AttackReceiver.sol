// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AttackReceiver
/// @notice A fill receiver that, when paid ether, calls `target` with `payload` (re-entering the
///         executor while it pays out) and passes a revert on unchanged.
contract AttackReceiver {
    address public target;
    bytes public payload;

    function arm(address target_, bytes calldata payload_) external {
        target = target_;
        payload = payload_;
    }

    receive() external payable {
        if (target == address(0)) return;
        (bool ok, bytes memory answer) = target.call(payload);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(answer, 0x20), mload(answer))
            }
        }
    }
}
