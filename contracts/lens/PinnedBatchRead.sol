// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title PinnedBatchRead
/// @notice Every read of a cold quote in ONE eth_call, so they all see one block, and that block's
/// number and base fee come back with them: the RPC source needs no earlier round trip to learn
/// the block. Each read is a call, a deployless creation (a lens: its answer is the code it would
/// deploy) or a native balance.
/// How it runs: this contract's CREATION code is placed at a spare address with an eth_call state
/// override and called there. The constructor is then the call's code: it reads its input from
/// calldata (abi-encoded Read[], no selector) and returns through returndata — nothing is deployed,
/// so the answer has no code-size limit. Meant for eth_call only.
contract PinnedBatchRead {
    uint8 private constant CALL = 0;
    uint8 private constant CREATE = 1;
    uint8 private constant BALANCE = 2;

    /// @notice One read: `kind` CALL (target, data), CREATE (data: creation code and arguments)
    /// or BALANCE (target).
    struct Read {
        uint8 kind;
        address target;
        bytes data;
    }

    /// @notice A read's answer: return data, deployed code or the balance (32 bytes); on failure
    /// the revert data.
    struct Result {
        bool ok;
        bytes data;
    }

    constructor() {
        Read[] memory reads = abi.decode(msg.data, (Read[]));
        Result[] memory results = new Result[](reads.length);
        for (uint256 i; i < reads.length; ++i) {
            results[i] = _read(reads[i]);
        }
        bytes memory encoded = abi.encode(block.number, block.basefee, results);
        assembly {
            return(add(encoded, 32), mload(encoded))
        }
    }

    function _read(Read memory read) private returns (Result memory result) {
        if (read.kind == BALANCE) return Result(true, abi.encode(read.target.balance));
        if (read.kind == CALL) {
            (result.ok, result.data) = read.target.call(read.data);
            return result;
        }
        bytes memory code = read.data;
        address created;
        assembly {
            created := create(0, add(code, 32), mload(code))
        }
        if (created == address(0)) {
            // The constructor's revert data (empty when it ran out of gas or hit the size limit).
            bytes memory reason = new bytes(0);
            assembly {
                reason := mload(0x40)
                mstore(reason, returndatasize())
                returndatacopy(add(reason, 32), 0, returndatasize())
                mstore(0x40, add(add(reason, 32), and(add(returndatasize(), 31), not(31))))
            }
            return Result(false, reason);
        }
        return Result(true, created.code);
    }
}
