// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title DeflatingTestToken
/// @notice Runtime code to etch (anvil_setCode) over a devnet TestToken, turning it into a
///         fee-on-transfer token without moving its pools: TestToken's storage layout (name,
///         symbol, totalSupply, balanceOf, allowance) is kept, and the fee follows it (TestToken's
///         decimals are immutable, in its code: `setFee` stores them again). Every
///         transfer, whoever sends it, burns `feeBps` of the amount (rounded down), as v2-periphery's
///         DeflatingERC20 burns 1%. Test only.
contract DeflatingTestToken {
    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public feeBps;
    uint8 public decimals;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address from, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    function setFee(uint256 bps, uint8 decimals_) external {
        feeBps = bps;
        decimals = decimals_;
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
        uint256 fee = amount * feeBps / 10_000;
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount - fee;
        totalSupply -= fee;
        emit Transfer(from, to, amount - fee);
        if (fee != 0) emit Transfer(from, address(0), fee);
    }
}
