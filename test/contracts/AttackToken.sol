// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import { TestTokenBody } from "./TestTokenBody.sol";

/// @title AttackToken
/// @notice An ERC-20 whose issuer is the attacker: once armed, `transfer` and/or `transferFrom`
///         first call `target` with `payload`, so a fill that routes through it is re-entered
///         while it is in flight. Test only: anyone may mint and arm it.
/// @dev `bubble` chooses what a failed call does. true: revert with its data, so the fill reverts
///      with the executor's own error. false: record the answer and let the transfer go on, so the
///      fill finishes and the test can read what the executor said to the attempt.
contract AttackToken is TestTokenBody {
    uint8 public constant decimals = 18;

    uint8 public constant ON_TRANSFER = 1;
    uint8 public constant ON_TRANSFER_FROM = 2;

    address public target;
    bytes public payload;
    uint8 public hooks;
    bool public bubble;

    /// @notice How many armed calls were made and not bubbled, and the last one's outcome.
    uint256 public attempts;
    bool public lastOk;
    bytes public lastReturn;

    // The armed call may itself move this token (the executor paying a pool): fire once per hook.
    bool private _inHook;

    constructor() {
        name = "Attack Token";
        symbol = "ATK";
    }

    /// @notice From now on, each `hooks` transfer kind first calls `target_` with `payload_`.
    function arm(address target_, bytes calldata payload_, uint8 hooks_, bool bubble_) external {
        target = target_;
        payload = payload_;
        hooks = hooks_;
        bubble = bubble_;
    }

    function transfer(address to, uint256 amount) public override returns (bool) {
        _hook(ON_TRANSFER);
        return super.transfer(to, amount);
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        _hook(ON_TRANSFER_FROM);
        return super.transferFrom(from, to, amount);
    }

    function _hook(uint8 kind) private {
        if (hooks & kind == 0 || _inHook) return;
        _inHook = true;
        (bool ok, bytes memory answer) = target.call(payload);
        _inHook = false;
        if (!ok && bubble) {
            assembly ("memory-safe") {
                revert(add(answer, 0x20), mload(answer))
            }
        }
        attempts += 1;
        lastOk = ok;
        lastReturn = answer;
    }

    function _deliver(address from, address to, uint256 amount) internal override {
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
