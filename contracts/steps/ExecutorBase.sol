// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ExecutorBase
/// @notice What every step of WeftExecutor shares: the dex table fixed at deployment, the guard of
/// the callback in flight, and token calls that tolerate non-standard ERC-20s.
/// @dev Each protocol's step lives in its own abstract contract under contracts/steps/ and
/// inherits this one; WeftExecutor dispatches on the dex kind.
abstract contract ExecutorBase {
    /// @notice One swap. dex: index in the dex table; param: protocol-specific (see each step).
    struct Step {
        uint8 dex;
        address tokenIn;
        address tokenOut;
        uint256 param;
    }

    /// @dev The storage form of a dex table entry: kind, feeBps and factory share a slot.
    /// `factory` is the address pools are derived from (a factory or pool deployer), or the
    /// singleton that holds them (a pool manager or vault), depending on the kind.
    struct DexEntry {
        uint8 kind;
        uint16 feeBps;
        address factory;
        bytes32 initCodeHash;
    }

    uint8 internal constant KIND_UNISWAP_V2 = 1;
    uint8 internal constant KIND_UNISWAP_V3 = 2;
    uint8 internal constant KIND_PANCAKE_V3 = 3;
    uint8 internal constant KIND_UNISWAP_V4 = 4;
    uint8 internal constant KIND_BALANCER_V2 = 5;
    uint8 internal constant KIND_SLIPSTREAM = 6;
    uint8 internal constant KIND_AERODROME_V2 = 7;
    uint256 internal constant BPS = 10_000;

    mapping(uint256 => DexEntry) internal _dexTable;

    // Set only for the duration of this contract's own call into a pool (or pool manager): outside
    // it no address can pass a callback check, and inside it only the pool being swapped with.
    address internal transient _expectedPool;
    address internal transient _callbackToken;
    uint256 internal transient _callbackMaxIn;

    error InvalidDex(uint256 index);
    error InvalidStep();
    error PartialFill(address pool);
    error InvalidCallback(address caller);
    error TransferFailed(address token);
    error BalanceQueryFailed(address token);

    function _create2Address(address factory, bytes32 salt, bytes32 initCodeHash) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", factory, salt, initCodeHash)))));
    }

    /// @dev Pays the pool in flight from a swap callback, at most the input of the step in flight,
    /// and only in the step's input token. The caller has already authenticated msg.sender.
    function _payCallback(int256 amount0Delta, int256 amount1Delta) internal {
        // For an exact-input swap only the input side is positive; a negative amount cast to
        // uint256 is huge and fails the cap below.
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (owed > _callbackMaxIn) revert InvalidCallback(msg.sender);
        // One payment per swap: a pool calling back again within the same swap is owed nothing more.
        _callbackMaxIn = 0;
        if (owed != 0) _transfer(_callbackToken, msg.sender, owed);
    }

    function _transfer(address token, address to, uint256 amount) internal {
        bool ok;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, shl(224, 0xa9059cbb)) // transfer(address,uint256)
            mstore(add(p, 0x04), shr(96, shl(96, to))) // clean: high bits of an address are undefined in assembly
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

    function _balanceOf(address token, address account) internal view returns (uint256 amount) {
        bool ok;
        assembly ("memory-safe") {
            mstore(0x00, shl(224, 0x70a08231)) // balanceOf(address)
            mstore(0x04, shr(96, shl(96, account))) // clean: high bits of an address are undefined in assembly
            ok := staticcall(gas(), token, 0x00, 0x24, 0x00, 0x20)
            ok := and(ok, gt(returndatasize(), 0x1f))
            amount := mload(0x00)
        }
        if (!ok) revert BalanceQueryFailed(token);
    }
}
