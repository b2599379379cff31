// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import { TestTokenBody } from "./TestTokenBody.sol";

/// @title AttackTaxedTestToken
/// @notice Runtime code to etch (anvil_setCode) over a devnet TestToken of 18 decimals, turning it
///         into a "buy tax" token without moving its pools: the storage layout of TestToken (name,
///         symbol, totalSupply, balanceOf, allowance) is kept (TestTokenBody), and the tax settings follow it. A
///         transfer sent by a taxed address (a pool, the V4 PoolManager, the Balancer Vault: a
///         purchase) delivers `taxBps` less, the tax going to COLLECTOR. Test only.
contract AttackTaxedTestToken is TestTokenBody {
    uint256 public taxBps;
    mapping(address => bool) public taxed;

    uint8 public constant decimals = 18;
    address public constant COLLECTOR = address(0x7A7);

    function setTax(address seller, uint256 bps) external {
        taxed[seller] = true;
        taxBps = bps;
    }

    function _deliver(address from, address to, uint256 amount) internal override {
        uint256 tax = taxed[from] ? amount * taxBps / 10_000 : 0;
        balanceOf[to] += amount - tax;
        emit Transfer(from, to, amount - tax);
        if (tax != 0) {
            balanceOf[COLLECTOR] += tax;
            emit Transfer(from, COLLECTOR, tax);
        }
    }
}
