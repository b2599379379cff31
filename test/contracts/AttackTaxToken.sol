// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import { AttackTaxedTestToken } from "./AttackTaxedTestToken.sol";

/// @title AttackTaxToken
/// @notice A "buy tax" ERC-20 deployed fresh: a transfer sent by a taxed address (a pool: a
///         purchase) delivers `taxBps` less to the receiver; the tax goes to the token's collector.
///         Transfers from anyone else are plain. The tax is AttackTaxedTestToken's (the same token
///         etched over a devnet TestToken); this one only names itself. Test only: anyone may
///         mint, tax a sender or set the rate.
/// @dev Two Transfer events per taxed transfer (to the receiver, to the collector), so logs show
///      what arrived.
contract AttackTaxToken is AttackTaxedTestToken {
    constructor() {
        name = "Attack Tax Token";
        symbol = "TAX";
    }
}
