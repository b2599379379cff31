// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title FillProbe
/// @notice simulateQuote's fallback where a node has no eth_simulateV1: this code is placed at the
/// SENDER's address with an eth_call state override and called there, so `msg.sender` of the
/// approval and of the fill is the sender, as in the real transactions. In one call it reads the
/// watched balances, approves exactly, fills, measures the fill's gas and reads the balances again.
/// Meant for eth_call only: nothing it does is ever settled. With eth_simulateV1 the same code sits
/// at a spare address and only `balances` is called, right before and after the real calls.
contract FillProbe {
    /// @notice One balance to watch; address(0) as token is the native token.
    struct Watch {
        address token;
        address account;
    }

    /// @notice The approval to make first (token address(0): none) and the fill to send.
    struct Fill {
        address approveToken;
        uint256 approveAmount;
        address target;
        uint256 value;
        bytes data;
    }

    /// @notice What happened: stage 0 the fill succeeded, 1 the approval failed, 2 the fill reverted;
    /// `result` is the failing call's revert data or the fill's return data.
    struct Outcome {
        uint8 stage;
        bytes result;
        uint256 fillGas;
        uint256[] before;
        uint256[] afterwards;
    }

    function run(Fill calldata fill, Watch[] calldata watches) external returns (Outcome memory outcome) {
        outcome.before = _balances(watches);
        if (fill.approveToken != address(0)) {
            (bool approved, bytes memory reason) =
                fill.approveToken.call(abi.encodeWithSelector(0x095ea7b3, fill.target, fill.approveAmount));
            if (!approved || (reason.length >= 32 && !abi.decode(reason, (bool)))) {
                outcome.stage = 1;
                outcome.result = reason;
                return outcome;
            }
        }
        // Warm the target first: a transaction's `to` is warm, so its cold-access cost must not count.
        address target = fill.target;
        uint256 size;
        assembly {
            size := extcodesize(target)
        }
        uint256 start = gasleft();
        (bool ok, bytes memory returned) = target.call{value: fill.value}(fill.data);
        outcome.fillGas = start - gasleft();
        outcome.stage = ok ? 0 : 2;
        outcome.result = returned;
        outcome.afterwards = _balances(watches);
    }

    /// @notice Each watched balance; a token that cannot answer reads as 0.
    function balances(Watch[] calldata watches) external view returns (uint256[] memory) {
        return _balances(watches);
    }

    function _balances(Watch[] calldata watches) private view returns (uint256[] memory result) {
        result = new uint256[](watches.length);
        for (uint256 i; i < watches.length; ++i) {
            address token = watches[i].token;
            if (token == address(0)) {
                result[i] = watches[i].account.balance;
                continue;
            }
            (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSelector(0x70a08231, watches[i].account));
            if (ok && data.length >= 32) result[i] = abi.decode(data, (uint256));
        }
    }

    /// @dev The sender's code may receive native output (an unwrap paid to the sender itself).
    receive() external payable {}
}
