// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The PoolManager's raw storage readers (v4-core Extsload).
interface IUniswapV4Extsload {
    function extsload(bytes32 startSlot, uint256 nSlots) external view returns (bytes32[] memory);
    function extsload(bytes32[] calldata slots) external view returns (bytes32[] memory);
}

/// @title UniswapV4Lens
/// @notice Reads many Uniswap V4 pools of one PoolManager at one block in a single `eth_call`,
/// without being deployed (the constructor returns the result in place of runtime code), through
/// the PoolManager's `extsload` and v4-core's storage layout (StateLibrary): `_pools` is mapping slot
/// 6, a pool's state starts at keccak256(poolId, 6) with slot0 at +0, liquidity at +3, the ticks
/// mapping at +4 and the tick bitmap mapping at +5. It never writes state.
/// @dev Input: the PoolManager, per candidate its pool id and one query word, and its two currencies
/// (`currencies[2i]`, `currencies[2i + 1]`). The query word:
///   bits  0..23  tick spacing (1..32767)
///   bits 24..31  word radius r: the bitmap words [w - r, w + r] around the current tick's word w
///                are read, clamped to the words that can hold a tick in [MIN_TICK, MAX_TICK]
///   bit  32      header only: read slot0 and liquidity, no ticks (pools that will be skipped)
/// Result: ABI-encoded `bytes`, one record per candidate in order, tightly packed, big-endian:
///   uint8 status   0 no code at the PoolManager, 1 unreadable (bad query or out-of-range data),
///                  2 not initialized (sqrtPriceX96 = 0), 3 read, 4 read (header only);
///   status 3 and 4 are followed by uint8 fresh (storage the next swap writes from zero, for its
///   gas: bit 0 feeGrowthGlobal0X128 is 0, bit 1 feeGrowthGlobal1X128 is 0, bits 2 and 3 the
///   protocol fees accrued in currency0 / currency1 are 0), uint160 sqrtPriceX96, int24 tick, uint24 protocolFee,
///   uint24 lpFee, uint128 liquidity; status 3 then by int16 wordLower, int16 wordUpper, uint16 n
///   and n x (int24 tick, int128 liquidityNet, uint8 freshOutside): every initialized tick of those
///   words, ascending; freshOutside bit 0 / bit 1: the tick's feeGrowthOutside0X128 /
///   feeGrowthOutside1X128 is 0 (its next crossing may write it from zero).
/// Packed because the returned bytes are the code of a creation (capped at 24,576 bytes).
contract UniswapV4Lens {
    /// @notice The call ran too low on gas to read every pool: failing whole beats dropping pools.
    error GasBudgetExhausted();
    /// @notice The result does not fit in one creation's returned code: query fewer pools.
    error ResultTooLarge(uint256 size);
    /// @notice Pool ids and queries differ in length.
    error LengthMismatch();

    uint256 private constant ABSENT = 0;
    uint256 private constant UNREADABLE = 1;
    uint256 private constant UNINITIALIZED = 2;
    uint256 private constant READ = 3;
    uint256 private constant READ_HEADER = 4;

    uint256 private constant POOLS_SLOT = 6;
    uint256 private constant LIQUIDITY_OFFSET = 3;
    uint256 private constant TICKS_OFFSET = 4;
    uint256 private constant TICK_BITMAP_OFFSET = 5;

    int256 private constant MIN_TICK = -887272;
    int256 private constant MAX_TICK = 887272;
    // PoolManager refuses spacings above type(int16).max.
    int256 private constant MAX_TICK_SPACING = 32767;

    // Each extsload reads at most a few hundred cold slots; the reserve left before each call
    // guarantees a failed call is the PoolManager's answer, never our own lack of gas.
    uint256 private constant GAS_RESERVE = 200_000;

    uint256 private constant HEADER_SIZE = 47; // status 1, fresh 1, sqrtPrice 20, tick 3, protocolFee 3, lpFee 3, liquidity 16
    // The pool state's fee growth words follow slot0 (StateLibrary).
    uint256 private constant FEE_GROWTH_0_OFFSET = 1;
    uint256 private constant FEE_GROWTH_1_OFFSET = 2;
    uint256 private constant FRESH_FEE_GROWTH_0 = 1;
    uint256 private constant FRESH_FEE_GROWTH_1 = 2;
    uint256 private constant FRESH_ACCRUED_0 = 4;
    uint256 private constant FRESH_ACCRUED_1 = 8;
    // ProtocolFees.protocolFeesAccrued: mapping slot 1 of the PoolManager (after Owned's owner).
    uint256 private constant PROTOCOL_FEES_ACCRUED_SLOT = 1;
    uint256 private constant WORDS_SIZE = 6; // wordLower 2, wordUpper 2, n 2
    uint256 private constant TICK_SIZE = 20; // tick 3, liquidityNet 16, freshOutside 1
    // TickInfo: liquidityGross and liquidityNet, then feeGrowthOutside0X128 and feeGrowthOutside1X128.
    uint256 private constant TICK_INFO_WORDS = 3;
    uint256 private constant MAX_RESULT_SIZE = 24_576;

    struct PoolRead {
        uint256 status;
        uint256 fresh;
        uint256 slot0;
        uint256 liquidity;
        int256 wordLower;
        int256 wordUpper;
        int256[] ticks;
        int256[] liquidityNets;
        uint256[] freshOutside;
    }

    constructor(address manager, bytes32[] memory ids, uint256[] memory queries, address[] memory currencies) {
        if (ids.length != queries.length || currencies.length != 2 * ids.length) revert LengthMismatch();
        PoolRead[] memory reads = new PoolRead[](ids.length);
        bool present = manager.code.length != 0;
        uint256 size;
        for (uint256 i; i < ids.length; ++i) {
            if (present) {
                reads[i] = _readPool(IUniswapV4Extsload(manager), ids[i], queries[i]);
                if (reads[i].status == READ || reads[i].status == READ_HEADER) {
                    reads[i].fresh |= _freshAccruals(IUniswapV4Extsload(manager), currencies[2 * i], currencies[2 * i + 1]);
                }
            }
            uint256 status = reads[i].status;
            size += status == READ
                ? HEADER_SIZE + WORDS_SIZE + TICK_SIZE * reads[i].ticks.length
                : status == READ_HEADER ? HEADER_SIZE : 1;
        }
        bytes memory result = abi.encode(_pack(reads, size));
        if (result.length > MAX_RESULT_SIZE) revert ResultTooLarge(result.length);
        assembly ("memory-safe") {
            return(add(result, 32), mload(result))
        }
    }

    function _readPool(IUniswapV4Extsload manager, bytes32 id, uint256 query) private view returns (PoolRead memory r) {
        int256 spacing = int256(query & 0xffffff);
        int256 radius = int256((query >> 24) & 0xff);
        bool headerOnly = (query >> 32) & 1 == 1;
        r.status = UNREADABLE;
        if (spacing == 0 || spacing > MAX_TICK_SPACING) return r;

        uint256 stateSlot = uint256(keccak256(abi.encode(id, POOLS_SLOT)));
        (bool ok, bytes32[] memory words) = _load(manager, stateSlot, LIQUIDITY_OFFSET + 1);
        if (!ok) return r;
        uint256 slot0 = uint256(words[0]);
        if (uint160(slot0) == 0) {
            r.status = UNINITIALIZED;
            return r;
        }
        int256 tick = int256(int24(uint24(slot0 >> 160)));
        if (tick < MIN_TICK || tick > MAX_TICK) return r;
        r.slot0 = slot0;
        if (words[FEE_GROWTH_0_OFFSET] == 0) r.fresh |= FRESH_FEE_GROWTH_0;
        if (words[FEE_GROWTH_1_OFFSET] == 0) r.fresh |= FRESH_FEE_GROWTH_1;
        r.liquidity = uint256(words[LIQUIDITY_OFFSET]);
        if (r.liquidity > type(uint128).max) return r;
        if (headerOnly) {
            r.status = READ_HEADER;
            return r;
        }

        int256 word = _compress(tick, spacing) >> 8;
        r.wordLower = _max(word - radius, _compress(MIN_TICK, spacing) >> 8);
        r.wordUpper = _min(word + radius, _compress(MAX_TICK, spacing) >> 8);
        if (_readTicks(manager, stateSlot, spacing, r)) r.status = READ;
    }

    /// @dev Fills `r.ticks` and `r.liquidityNets` from the bitmap words [r.wordLower, r.wordUpper].
    function _readTicks(IUniswapV4Extsload manager, uint256 stateSlot, int256 spacing, PoolRead memory r)
        private
        view
        returns (bool)
    {
        uint256 bitmapMapping = stateSlot + TICK_BITMAP_OFFSET;
        bytes32[] memory slots = new bytes32[](uint256(r.wordUpper - r.wordLower + 1));
        for (uint256 k; k < slots.length; ++k) {
            slots[k] = keccak256(abi.encode(r.wordLower + int256(k), bitmapMapping));
        }
        (bool ok, bytes32[] memory bitmaps) = _loadMany(manager, slots);
        if (!ok) return false;

        uint256 count;
        for (uint256 k; k < bitmaps.length; ++k) {
            for (uint256 bitmap = uint256(bitmaps[k]); bitmap != 0; ++count) bitmap &= bitmap - 1;
        }
        if (count > type(uint16).max) return false;
        r.ticks = new int256[](count);
        r.liquidityNets = new int256[](count);
        r.freshOutside = new uint256[](count);
        if (count == 0) return true;

        uint256 ticksMapping = stateSlot + TICKS_OFFSET;
        bytes32[] memory tickSlots = new bytes32[](count * TICK_INFO_WORDS);
        uint256 n;
        for (uint256 k; k < bitmaps.length; ++k) {
            uint256 bitmap = uint256(bitmaps[k]);
            int256 firstCompressed = (r.wordLower + int256(k)) * 256;
            while (bitmap != 0) {
                uint256 lowest = bitmap & (~bitmap + 1);
                bitmap ^= lowest;
                int256 t = (firstCompressed + int256(_log2(lowest))) * spacing;
                // A bit past the tick bounds is a broken bitmap.
                if (t < MIN_TICK || t > MAX_TICK) return false;
                r.ticks[n] = t;
                uint256 info = uint256(keccak256(abi.encode(t, ticksMapping)));
                for (uint256 w; w < TICK_INFO_WORDS; ++w) tickSlots[n * TICK_INFO_WORDS + w] = bytes32(info + w);
                ++n;
            }
        }
        bytes32[] memory infos;
        (ok, infos) = _loadMany(manager, tickSlots);
        if (!ok) return false;
        for (uint256 j; j < count; ++j) {
            // TickInfo's first word: liquidityGross (low 128 bits), liquidityNet (high 128 bits).
            r.liquidityNets[j] = int256(uint256(infos[j * TICK_INFO_WORDS])) >> 128;
            if (infos[j * TICK_INFO_WORDS + 1] == 0) r.freshOutside[j] |= 1;
            if (infos[j * TICK_INFO_WORDS + 2] == 0) r.freshOutside[j] |= 2;
        }
        return true;
    }

    /// @dev The FRESH_ACCRUED bits: protocol fees accrued in the pool's currencies still zero (the
    /// next accrual writes the slot from zero). An unreadable answer leaves the bits set (fresh is
    /// the costlier case).
    function _freshAccruals(IUniswapV4Extsload manager, address currency0, address currency1) private view returns (uint256 fresh) {
        bytes32[] memory slots = new bytes32[](2);
        slots[0] = keccak256(abi.encode(currency0, PROTOCOL_FEES_ACCRUED_SLOT));
        slots[1] = keccak256(abi.encode(currency1, PROTOCOL_FEES_ACCRUED_SLOT));
        (bool ok, bytes32[] memory accrued) = _loadMany(manager, slots);
        if (!ok || accrued[0] == 0) fresh |= FRESH_ACCRUED_0;
        if (!ok || accrued[1] == 0) fresh |= FRESH_ACCRUED_1;
    }

    function _load(IUniswapV4Extsload manager, uint256 startSlot, uint256 count)
        private
        view
        returns (bool ok, bytes32[] memory words)
    {
        if (gasleft() < GAS_RESERVE) revert GasBudgetExhausted();
        try manager.extsload(bytes32(startSlot), count) returns (bytes32[] memory answer) {
            return (answer.length == count, answer);
        } catch {
            return (false, words);
        }
    }

    function _loadMany(IUniswapV4Extsload manager, bytes32[] memory slots)
        private
        view
        returns (bool ok, bytes32[] memory words)
    {
        if (gasleft() < GAS_RESERVE) revert GasBudgetExhausted();
        try manager.extsload(slots) returns (bytes32[] memory answer) {
            return (answer.length == slots.length, answer);
        } catch {
            return (false, words);
        }
    }

    /// @dev Writes the records described in the contract's notes; `size` is their total length.
    function _pack(PoolRead[] memory reads, uint256 size) private pure returns (bytes memory out) {
        // 32 spare bytes: each field is stored with a full-word mstore whose tail the next overwrites.
        out = new bytes(size + 32);
        uint256 p;
        assembly ("memory-safe") {
            mstore(out, size)
            p := add(out, 32)
        }
        for (uint256 i; i < reads.length; ++i) {
            PoolRead memory r = reads[i];
            p = _put(p, r.status, 1);
            if (r.status != READ && r.status != READ_HEADER) continue;
            p = _put(p, r.fresh, 1);
            // slot0 from the top: lpFee, protocolFee, tick, sqrtPriceX96 (24, 24, 24, 160 bits).
            p = _put(p, uint160(r.slot0), 20);
            p = _put(p, r.slot0 >> 160, 3);
            p = _put(p, r.slot0 >> 184, 3);
            p = _put(p, r.slot0 >> 208, 3);
            p = _put(p, r.liquidity, 16);
            if (r.status != READ) continue;
            p = _put(p, uint256(r.wordLower), 2);
            p = _put(p, uint256(r.wordUpper), 2);
            p = _put(p, r.ticks.length, 2);
            for (uint256 j; j < r.ticks.length; ++j) {
                p = _put(p, uint256(r.ticks[j]), 3);
                p = _put(p, uint256(r.liquidityNets[j]), 16);
                p = _put(p, r.freshOutside[j], 1);
            }
        }
    }

    /// @dev Stores the low `size` bytes of `value` (two's complement for signed fields) at `p`.
    function _put(uint256 p, uint256 value, uint256 size) private pure returns (uint256) {
        assembly ("memory-safe") {
            mstore(p, shl(sub(256, shl(3, size)), value))
        }
        return p + size;
    }

    /// @dev `tick / spacing` rounded toward negative infinity (TickBitmap's compressed tick).
    function _compress(int256 tick, int256 spacing) private pure returns (int256 compressed) {
        compressed = tick / spacing;
        if (tick < 0 && tick % spacing != 0) --compressed;
    }

    /// @dev Index of the only set bit of a power of two.
    function _log2(uint256 x) private pure returns (uint256 r) {
        if (x >= 1 << 128) { x >>= 128; r += 128; }
        if (x >= 1 << 64) { x >>= 64; r += 64; }
        if (x >= 1 << 32) { x >>= 32; r += 32; }
        if (x >= 1 << 16) { x >>= 16; r += 16; }
        if (x >= 1 << 8) { x >>= 8; r += 8; }
        if (x >= 1 << 4) { x >>= 4; r += 4; }
        if (x >= 1 << 2) { x >>= 2; r += 2; }
        if (x >= 1 << 1) r += 1;
    }

    function _max(int256 a, int256 b) private pure returns (int256) {
        return a > b ? a : b;
    }

    function _min(int256 a, int256 b) private pure returns (int256) {
        return a < b ? a : b;
    }
}
