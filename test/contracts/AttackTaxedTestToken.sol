// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AttackTaxedTestToken
/// @notice Runtime code to etch (anvil_setCode) over a devnet TestToken of 18 decimals, turning it
///         into a "buy tax" token without moving its pools: the storage layout of TestToken (name,
///         symbol, totalSupply, balanceOf, allowance) is kept, and the tax settings follow it. A
///         transfer sent by a taxed address (a pool, the V4 PoolManager, the Balancer Vault: a
///         purchase) delivers `taxBps` less, the tax going to COLLECTOR. Test only.
contract AttackTaxedTestToken {
    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public taxBps;
    mapping(address => bool) public taxed;

    uint8 public constant decimals = 18;
    address public constant COLLECTOR = address(0x7A7);

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address from, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    function setTax(address seller, uint256 bps) external {
        taxed[seller] = true;
        taxBps = bps;
    }

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(from, msg.sender, allowed, amount);
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        uint256 tax = taxed[from] ? amount * taxBps / 10_000 : 0;
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount - tax;
        emit Transfer(from, to, amount - tax);
        if (tax != 0) {
            balanceOf[COLLECTOR] += tax;
            emit Transfer(from, COLLECTOR, tax);
        }
    }
}
