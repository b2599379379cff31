// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title FixedFeeToken
/// @notice A fee-on-transfer token whose fee is not a fraction of the amount: every transfer of
/// more than 1 unit burns exactly 1. The transfer-fee probe cannot describe it in bps, so weft
/// must refuse to trade it (fail closed). Test-only; `mint` is open to anyone.
contract FixedFeeToken {
    string public constant name = "Fixed Fee Token";
    string public constant symbol = "FFT";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

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
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        allowance[from][msg.sender] -= amount;
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) private {
        balanceOf[from] -= amount;
        uint256 burnt = amount > 1 ? 1 : 0;
        totalSupply -= burnt;
        balanceOf[to] += amount - burnt;
        emit Transfer(from, to, amount - burnt);
    }
}
