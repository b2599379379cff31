// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title PinnedBatchRead
/// @notice Every read of a cold quote in ONE eth_call, so they all see one block, and that block's
/// number and base fee come back with them: the RPC source needs no earlier round trip to learn
/// the block. Each read is a call or a native balance. A deployless lens (creation code whose
/// constructor returns its answer) is a call too: the caller places its creation code, arguments
/// included, as the code of a spare address by state override, and it is called there with no
/// calldata (a constructor finds its arguments with CODECOPY, the same bytes either way).
/// Run as a call, not a CREATE, the answer pays no code deposit (200 gas a byte) and has no
/// 24,576-byte cap: a CREATE per lens spent about half of the call's gas on deposits, and the
/// reads queued last ran out of it.
/// How it runs: this contract's CREATION code is placed at a spare address with an eth_call state
/// override and called there. The constructor is then the call's code: it reads its input from
/// calldata (abi-encoded Read[], no selector) and returns through returndata — nothing is deployed,
/// so the answer has no code-size limit. Meant for eth_call only.
contract PinnedBatchRead {
    uint8 private constant CALL = 0;
    // Kind 1 was a CREATE, before lenses became calls; the numbers stay, so the encoding does.
    uint8 private constant BALANCE = 2;

    /// @notice One read: `kind` CALL (target, data) or BALANCE (target).
    struct Read {
        uint8 kind;
        address target;
        bytes data;
    }

    /// @notice A read's answer: return data or the balance (32 bytes); on failure the revert data.
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
        (result.ok, result.data) = read.target.call(read.data);
    }
}
