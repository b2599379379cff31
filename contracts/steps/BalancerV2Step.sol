// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ExecutorBase} from "./ExecutorBase.sol";
import {IBalancerV2Vault} from "../interfaces/IBalancerV2Vault.sol";

/// @title BalancerV2Step
/// @notice A GIVEN_IN swap through Balancer V2's Vault (the dex table's `factory`), on the pool
/// Step.param names (its 32-byte pool id), from this contract to this contract.
/// @dev The Vault pulls its input with transferFrom, so this is the one place the executor
/// approves: exactly the step's input, to the dex table's Vault only, right before the swap; the
/// Vault's GIVEN_IN pull spends all of it, and the allowance must be back at 0 afterwards or the
/// step reverts. Nothing in the order names the spender. The Vault calls no hook on this contract.
abstract contract BalancerV2Step is ExecutorBase {
    error AllowanceLeft(address token, uint256 allowance);

    function _swapBalancerV2(DexEntry memory dex, Step calldata step, uint256 amountIn)
        internal
        returns (uint256 amountOut)
    {
        address vault = dex.factory;
        address tokenIn = step.tokenIn;
        _approveExact(tokenIn, vault, amountIn);
        // No limit (0) and this block as deadline: the order's minimum output protects the fill.
        amountOut = IBalancerV2Vault(vault).swap(
            IBalancerV2Vault.SingleSwap(
                bytes32(step.param), IBalancerV2Vault.SwapKind.GIVEN_IN, tokenIn, step.tokenOut, amountIn, ""
            ),
            IBalancerV2Vault.FundManagement(address(this), false, payable(address(this)), false),
            0,
            block.timestamp
        );
        uint256 left = _allowanceOf(tokenIn, vault);
        if (left != 0) revert AllowanceLeft(tokenIn, left);
    }

    function _approveExact(address token, address spender, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, shl(224, 0x095ea7b3)) // approve(address,uint256)
            mstore(add(p, 0x04), shr(96, shl(96, spender)))
            mstore(add(p, 0x24), amount)
            ok := call(gas(), token, 0, p, 0x44, 0x00, 0x20)
            // Accept `true`, or no return data from an account with code (USDT-style tokens).
            ok := and(
                ok,
                or(
                    and(eq(mload(0x00), 1), gt(returndatasize(), 0x1f)),
                    and(iszero(returndatasize()), gt(extcodesize(token), 0))
                )
            )
        }
        if (!ok) revert TransferFailed(token);
    }

    function _allowanceOf(address token, address spender) private view returns (uint256 amount) {
        bool ok;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, shl(224, 0xdd62ed3e)) // allowance(address,address)
            mstore(add(p, 0x04), address())
            mstore(add(p, 0x24), shr(96, shl(96, spender)))
            ok := staticcall(gas(), token, p, 0x44, 0x00, 0x20)
            ok := and(ok, gt(returndatasize(), 0x1f))
            amount := mload(0x00)
        }
        if (!ok) revert BalanceQueryFailed(token);
    }
}
