// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title HostileSymbolToken
/// @notice An ERC-20 whose `symbol()` returns whatever bytes its deployer chose:
///         terminal escape sequences, a 10 kB string, invalid UTF-8 (Solidity
///         never checks a `string`'s encoding), or, with `asBytes32`, a bare
///         32-byte word as pre-ERC-20-finalisation tokens (MKR) return. Transfers
///         are ordinary, so the token can sit in a real pool. Test use only.
contract HostileSymbolToken {
    bytes private rawSymbol;
    bool private immutable asBytes32;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(bytes memory symbol_, bool asBytes32_) {
        rawSymbol = symbol_;
        asBytes32 = asBytes32_;
    }

    /// @notice The raw symbol: an ABI `string` of the stored bytes, or its first 32 bytes as one word.
    function symbol() external view returns (string memory) {
        if (asBytes32) {
            bytes32 word;
            bytes memory stored = rawSymbol;
            // Reads the first word of the bytes (zero-padded by the allocation when shorter).
            assembly {
                word := mload(add(stored, 32))
                mstore(0, word)
                return(0, 32)
            }
        }
        return string(rawSymbol);
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
        if (from != msg.sender && allowance[from][msg.sender] != type(uint256).max) allowance[from][msg.sender] -= amount;
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
