// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import { TestTokenBody } from "./TestTokenBody.sol";

/// @title DeflatingTestToken
/// @notice Runtime code to etch (anvil_setCode) over a devnet TestToken, turning it into a
///         fee-on-transfer token without moving its pools: TestToken's storage layout (name,
///         symbol, totalSupply, balanceOf, allowance) is kept (TestTokenBody), and the fee follows it (TestToken's
///         decimals are immutable, in its code: `setFee` stores them again). Every
///         transfer, whoever sends it, burns `feeBps` of the amount (rounded down), as v2-periphery's
///         DeflatingERC20 burns 1%. Test only.
contract DeflatingTestToken is TestTokenBody {
    uint256 public feeBps;
    uint8 public decimals;

    function setFee(uint256 bps, uint8 decimals_) external {
        feeBps = bps;
        decimals = decimals_;
    }

    function _deliver(address from, address to, uint256 amount) internal override {
        uint256 fee = amount * feeBps / 10_000;
        balanceOf[to] += amount - fee;
        totalSupply -= fee;
        emit Transfer(from, to, amount - fee);
        if (fee != 0) emit Transfer(from, address(0), fee);
    }
}
