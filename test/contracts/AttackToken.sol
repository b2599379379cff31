// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AttackToken
/// @notice An ERC-20 whose issuer is the attacker: once armed, `transfer` and/or `transferFrom`
///         first call `target` with `payload`, so a fill that routes through it is re-entered
///         while it is in flight. Test only: anyone may mint and arm it.
/// @dev `bubble` chooses what a failed call does. true: revert with its data, so the fill reverts
///      with the executor's own error. false: record the answer and let the transfer go on, so the
///      fill finishes and the test can read what the executor said to the attempt.
contract AttackToken {
    string public constant name = "Attack Token";
    string public constant symbol = "ATK";
    uint8 public constant decimals = 18;

    uint8 public constant ON_TRANSFER = 1;
    uint8 public constant ON_TRANSFER_FROM = 2;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    address public target;
    bytes public payload;
    uint8 public hooks;
    bool public bubble;

    /// @notice How many armed calls were made and not bubbled, and the last one's outcome.
    uint256 public attempts;
    bool public lastOk;
    bytes public lastReturn;

    // The armed call may itself move this token (the executor paying a pool): fire once per hook.
    bool private _inHook;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address from, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    /// @notice From now on, each `hooks` transfer kind first calls `target_` with `payload_`.
    function arm(address target_, bytes calldata payload_, uint8 hooks_, bool bubble_) external {
        target = target_;
        payload = payload_;
        hooks = hooks_;
        bubble = bubble_;
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
        _hook(ON_TRANSFER);
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        _hook(ON_TRANSFER_FROM);
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(from, msg.sender, allowed, amount);
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    function _hook(uint8 kind) private {
        if (hooks & kind == 0 || _inHook) return;
        _inHook = true;
        (bool ok, bytes memory answer) = target.call(payload);
        _inHook = false;
        if (!ok && bubble) {
            assembly ("memory-safe") {
                revert(add(answer, 0x20), mload(answer))
            }
        }
        attempts += 1;
        lastOk = ok;
        lastReturn = answer;
    }

    function _move(address from, address to, uint256 amount) private {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
