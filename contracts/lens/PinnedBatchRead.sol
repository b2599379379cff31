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

    /// @dev Gas kept back from every read for the answer's encoding: reads past the call's gas are
    /// left for the caller's next batch rather than failing for want of gas.
    uint256 private constant TAIL_GAS = 1_000_000;

    /// @notice Answers (block number, base fee, ran, results): the first `ran` results are the reads'
    /// answers; the reads after them did not run, as the call's gas ran out (the read at `ran` did
    /// run out of it, unless it was the first), and `results` holds only the first `ran`.
    constructor() {
        Read[] memory reads = abi.decode(msg.data, (Read[]));
        Result[] memory results = new Result[](reads.length);
        uint256 ran;
        while (ran < reads.length) {
            if (gasleft() < 2 * TAIL_GAS) break;
            bool outOfGas;
            (results[ran], outOfGas) = _read(reads[ran], gasleft() - TAIL_GAS);
            // The first read had the whole call's gas: its failure is its answer (a lens's own
            // GasBudgetExhausted tells the caller to ask it for fewer pools).
            if (outOfGas && ran > 0) break;
            ++ran;
        }
        assembly {
            mstore(results, ran)
        }
        bytes memory encoded = abi.encode(block.number, block.basefee, ran, results);
        assembly {
            return(add(encoded, 32), mload(encoded))
        }
    }

    /// @dev A call that failed with (almost) all the gas it was given gone ran out of it.
    function _read(Read memory read, uint256 gas) private returns (Result memory result, bool outOfGas) {
        if (read.kind == BALANCE) return (Result(true, abi.encode(read.target.balance)), false);
        (result.ok, result.data) = read.target.call{gas: gas}(read.data);
        outOfGas = !result.ok && gasleft() <= TAIL_GAS + gas / 32;
    }
}
