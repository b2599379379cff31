// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TestTokenBody
/// @notice The ERC-20 body shared by test tokens that change how a transfer delivers (a tax, a
///         burn) or what it does first (AttackToken's hook): an open `mint`, approve, transfer,
///         transferFrom (an infinite allowance stays infinite) and the debit. Its state variables
///         come first and in TestToken's order (name, symbol, totalSupply, balanceOf, allowance),
///         so a token etched (anvil_setCode) over a devnet TestToken reads the balances TestToken
///         wrote; a token built on it declares its own settings after them, and one deployed fresh
///         sets its name and symbol in its constructor. Test only.
abstract contract TestTokenBody {
    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address from, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

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

    function transfer(address to, uint256 amount) public virtual returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) public virtual returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(from, msg.sender, allowed, amount);
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    /// Takes `amount` from `from`, then lets the token deliver it.
    function _move(address from, address to, uint256 amount) private {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        balanceOf[from] = balance - amount;
        _deliver(from, to, amount);
    }

    /// Credits what arrives of `amount` taken from `from` (and where the rest goes), with its events.
    function _deliver(address from, address to, uint256 amount) internal virtual;
}
