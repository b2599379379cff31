// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The Uniswap V3 pool getters the lens calls. Forks such as PancakeSwap V3 share them; only
/// the leading words of each answer are decoded (PancakeSwap's slot0 differs after the tick).
interface IUniswapV3PoolState {
    function slot0() external view returns (uint160 sqrtPriceX96, int24 tick);
    function liquidity() external view returns (uint128);
    function tickBitmap(int16 wordPosition) external view returns (uint256);
    /// @dev Decoded by word (see `_readTick`): liquidityNet is the second word on every fork, and the
    /// fee-growth-outside words follow it, after stakedLiquidityNet on Slipstream's longer answer.
    function ticks(int24 tick) external view returns (uint128 liquidityGross, int128 liquidityNet);
    function feeGrowthGlobal0X128() external view returns (uint256);
    function feeGrowthGlobal1X128() external view returns (uint256);
    function protocolFees() external view returns (uint128 token0, uint128 token1);
    /// @dev Slipstream's CLPool only: the gauge Base's Voter gave it (zero: none) and its reward growth.
    function gauge() external view returns (address);
    function rewardGrowthGlobalX128() external view returns (uint256);
}

/// @title UniswapV3Lens
/// @notice Reads many Uniswap V3 pools at one block in a single `eth_call`, without being deployed:
/// the call's data is this creation code plus the query, and the constructor returns the result in
/// place of runtime code. It never writes state.
/// @dev Query: `uint256[] queries`, one word per candidate pool:
///   bits   0..159  pool address (CREATE2-derived, so it may have no code)
///   bits 160..183  tick spacing (1..16383)
///   bits 184..191  word radius r: the bitmap words [w - r, w + r] around the current tick's word w
///                  are read, clamped to the words that can hold a tick in [MIN_TICK, MAX_TICK]
/// Result: ABI-encoded `bytes`, one record per query in order, tightly packed and big-endian:
///   uint8 status   0 no code, 1 unreadable (a call failed or answered out of range),
///                  2 not initialized (sqrtPriceX96 = 0), 3 read; only status 3 is followed by
///   uint8 fresh    storage the next swap writes from zero, for its gas: bit 0 feeGrowthGlobal0X128
///                  is 0, bit 1 feeGrowthGlobal1X128 is 0, bit 2 a protocol fee is on (slot0's
///                  feeProtocol word) while the packed protocolFees slot is 0, bit 3 the pool has
///                  a gauge (Slipstream's `gauge()` is not zero), bit 4 it has one and its
///                  rewardGrowthGlobalX128 is 0; a getter the pool lacks (a fork without protocol
///                  fees or gauges) leaves its bit clear,
///   uint160 sqrtPriceX96, int24 tick, uint128 liquidity, int16 wordLower, int16 wordUpper,
///   uint16 n, then n x (int24 tick, int128 liquidityNet, uint8 freshOutside): every initialized
///   tick of the words [wordLower, wordUpper], ascending; freshOutside bit 0 / bit 1: the tick's
///   feeGrowthOutside0X128 / feeGrowthOutside1X128 is 0 (its next crossing may write it from zero),
///   bit 2 (Slipstream's 10-word answer only): its rewardGrowthOutsideX128 is 0.
/// Packed rather than an array of structs because the returned bytes count as the code of a
/// creation: they are capped at 24,576 bytes (EIP-170) and cost 200 gas a byte of code deposit, and
/// a struct would spend ~320 bytes on every candidate, most of which have no code.
contract UniswapV3Lens {
    /// @notice The call ran too low on gas to read every pool: failing whole beats dropping pools.
    error GasBudgetExhausted();
    /// @notice The result does not fit in one creation's returned code: query fewer pools.
    error ResultTooLarge(uint256 size);

    uint256 private constant ABSENT = 0;
    uint256 private constant UNREADABLE = 1;
    uint256 private constant UNINITIALIZED = 2;
    uint256 private constant READ = 3;

    int256 private constant MIN_TICK = -887272;
    int256 private constant MAX_TICK = 887272;
    // The V3 factory refuses spacings of 16384 and up (TickMath would overflow int24 per word).
    int256 private constant MAX_TICK_SPACING = 16383;

    // A getter costs under 16,000 gas cold (ticks() reads four slots, six on Slipstream). The cap stops one contract
    // from draining the call; the reserve left before each call guarantees a failed call is the
    // pool's fault, never ours.
    uint256 private constant CALL_GAS = 100_000;
    uint256 private constant GAS_RESERVE = 120_000;

    uint256 private constant HEADER_SIZE = 47; // status 1, fresh 1, sqrtPrice 20, tick 3, liquidity 16, words 2+2, n 2
    // slot0's sixth word: feeProtocol (uint8 on Uniswap V3, uint32 on PancakeSwap V3).
    uint256 private constant FEE_PROTOCOL_WORD = 5;
    uint256 private constant FRESH_FEE_GROWTH_0 = 1;
    uint256 private constant FRESH_FEE_GROWTH_1 = 2;
    uint256 private constant FRESH_PROTOCOL_FEES = 4;
    uint256 private constant GAUGED = 8;
    uint256 private constant FRESH_REWARD_GROWTH = 16;
    uint256 private constant TICK_SIZE = 20; // tick 3, liquidityNet 16, freshOutside 1
    // Words of a `ticks(int24)` answer: liquidityNet's, and feeGrowthOutside0X128's (feeGrowthOutside1X128
    // follows it) in Uniswap's and PancakeSwap's 8-word Tick.Info and in Slipstream's 10-word one.
    uint256 private constant LIQUIDITY_NET_WORD = 1;
    uint256 private constant FEE_GROWTH_WORD = 2;
    uint256 private constant SLIPSTREAM_TICK_WORDS = 10;
    uint256 private constant SLIPSTREAM_FEE_GROWTH_WORD = 3;
    uint256 private constant SLIPSTREAM_REWARD_GROWTH_WORD = 5;
    uint256 private constant FRESH_OUTSIDE_0 = 1;
    uint256 private constant FRESH_OUTSIDE_1 = 2;
    uint256 private constant FRESH_REWARD_OUTSIDE = 4;
    uint256 private constant MAX_RESULT_SIZE = 24_576;

    struct PoolRead {
        uint256 status;
        uint256 fresh;
        uint256 sqrtPriceX96;
        int256 tick;
        uint256 liquidity;
        int256 wordLower;
        int256 wordUpper;
        int256[] ticks;
        int256[] liquidityNets;
        uint256[] freshOutside;
    }

    constructor(uint256[] memory queries) {
        PoolRead[] memory reads = new PoolRead[](queries.length);
        uint256 size;
        for (uint256 i; i < queries.length; ++i) {
            PoolRead memory r = _readPool(queries[i]);
            reads[i] = r;
            size += r.status == READ ? HEADER_SIZE + TICK_SIZE * r.ticks.length : 1;
        }
        bytes memory result = abi.encode(_pack(reads, size));
        if (result.length > MAX_RESULT_SIZE) revert ResultTooLarge(result.length);
        assembly ("memory-safe") {
            return(add(result, 32), mload(result))
        }
    }

    function _readPool(uint256 query) private view returns (PoolRead memory r) {
        address pool = address(uint160(query));
        int256 spacing = int256((query >> 160) & 0xffffff);
        int256 radius = int256((query >> 184) & 0xff);
        if (pool.code.length == 0) return r;
        r.status = UNREADABLE;
        if (spacing == 0 || spacing > MAX_TICK_SPACING) return r;

        (bool ok, uint256 sqrtPriceX96, uint256 tickWord) = _call(pool, IUniswapV3PoolState.slot0.selector, 0, 64);
        r.tick = int256(tickWord);
        if (!ok || sqrtPriceX96 > type(uint160).max || r.tick < MIN_TICK || r.tick > MAX_TICK) return r;
        if (sqrtPriceX96 == 0) {
            r.status = UNINITIALIZED;
            return r;
        }
        r.sqrtPriceX96 = sqrtPriceX96;
        (ok, r.liquidity,) = _call(pool, IUniswapV3PoolState.liquidity.selector, 0, 32);
        if (!ok || r.liquidity > type(uint128).max) return r;

        int256 word = _compress(r.tick, spacing) >> 8;
        r.wordLower = _max(word - radius, _compress(MIN_TICK, spacing) >> 8);
        r.wordUpper = _min(word + radius, _compress(MAX_TICK, spacing) >> 8);
        if (_readTicks(pool, spacing, r)) {
            r.status = READ;
            r.fresh = _readFresh(pool);
        }
    }

    /// @dev The `fresh` bits of the record (see the contract's notes).
    function _readFresh(address pool) private view returns (uint256 fresh) {
        (bool ok, uint256 growth,) = _call(pool, IUniswapV3PoolState.feeGrowthGlobal0X128.selector, 0, 32);
        if (ok && growth == 0) fresh |= FRESH_FEE_GROWTH_0;
        (ok, growth,) = _call(pool, IUniswapV3PoolState.feeGrowthGlobal1X128.selector, 0, 32);
        if (ok && growth == 0) fresh |= FRESH_FEE_GROWTH_1;
        (bool feesOk, uint256 owed0, uint256 owed1) = _call(pool, IUniswapV3PoolState.protocolFees.selector, 0, 64);
        (bool protocolOk, uint256 feeProtocol) = _callWord(pool, IUniswapV3PoolState.slot0.selector, FEE_PROTOCOL_WORD);
        if (feesOk && protocolOk && owed0 == 0 && owed1 == 0 && feeProtocol != 0) fresh |= FRESH_PROTOCOL_FEES;
        (bool gaugeOk, uint256 gauge,) = _call(pool, IUniswapV3PoolState.gauge.selector, 0, 32);
        if (gaugeOk && gauge != 0) {
            fresh |= GAUGED;
            (ok, growth,) = _call(pool, IUniswapV3PoolState.rewardGrowthGlobalX128.selector, 0, 32);
            if (ok && growth == 0) fresh |= FRESH_REWARD_GROWTH;
        }
    }

    /// @dev Word `index` of the answer to `selector()`; ok only when the callee succeeded and answered it.
    function _callWord(address pool, bytes4 selector, uint256 index) private view returns (bool ok, uint256 word) {
        if (gasleft() < GAS_RESERVE) revert GasBudgetExhausted();
        assembly ("memory-safe") {
            mstore(0, selector)
            ok := staticcall(CALL_GAS, pool, 0, 4, 0, 0)
            let end := shl(5, add(index, 1))
            if lt(returndatasize(), end) { ok := 0 }
            if ok {
                returndatacopy(0, sub(end, 32), 32)
                word := mload(0)
            }
        }
    }

    /// @dev Fills `r.ticks`, `r.liquidityNets` and `r.freshOutside` from the bitmap words [r.wordLower, r.wordUpper].
    function _readTicks(address pool, int256 spacing, PoolRead memory r) private view returns (bool) {
        (bool ok, uint256[] memory bitmaps, uint256 count) = _readBitmaps(pool, r.wordLower, r.wordUpper);
        if (!ok || count > type(uint16).max) return false;
        r.ticks = new int256[](count);
        r.liquidityNets = new int256[](count);
        r.freshOutside = new uint256[](count);
        return _readTickInfos(pool, spacing, bitmaps, r);
    }

    /// @dev The bitmap words [wordLower, wordUpper] and how many bits they set.
    function _readBitmaps(address pool, int256 wordLower, int256 wordUpper)
        private
        view
        returns (bool ok, uint256[] memory bitmaps, uint256 count)
    {
        bitmaps = new uint256[](uint256(wordUpper - wordLower + 1));
        for (uint256 k; k < bitmaps.length; ++k) {
            uint256 bitmap;
            (ok, bitmap,) = _call(pool, IUniswapV3PoolState.tickBitmap.selector, uint256(wordLower + int256(k)), 32);
            if (!ok) return (false, bitmaps, 0);
            bitmaps[k] = bitmap;
            for (; bitmap != 0; ++count) bitmap &= bitmap - 1;
        }
    }

    /// @dev liquidityNet and the freshOutside bits of every tick the bitmap words starting at
    /// `r.wordLower` set, ascending, into the arrays `r` holds (sized to the bits set).
    function _readTickInfos(address pool, int256 spacing, uint256[] memory bitmaps, PoolRead memory r)
        private
        view
        returns (bool ok)
    {
        uint256 n;
        for (uint256 k; k < bitmaps.length; ++k) {
            (ok, n) = _readWordTicks(pool, spacing, bitmaps[k], (r.wordLower + int256(k)) * 256, r, n);
            if (!ok) return false;
        }
    }

    /// @dev The ticks one bitmap word sets (its first compressed tick given), ascending, stored in
    /// `r` from position `n`; returns the position after them.
    function _readWordTicks(
        address pool,
        int256 spacing,
        uint256 bitmap,
        int256 firstCompressed,
        PoolRead memory r,
        uint256 n
    ) private view returns (bool, uint256) {
        while (bitmap != 0) {
            uint256 lowest = bitmap & (~bitmap + 1);
            bitmap ^= lowest;
            int256 t = (firstCompressed + int256(_log2(lowest))) * spacing;
            // A bit past the tick bounds is a broken bitmap, and ticks() would take no such index.
            if (t < MIN_TICK || t > MAX_TICK) return (false, n);
            (bool ok, int256 net, uint256 fresh) = _readTick(pool, t);
            if (!ok) return (false, n);
            r.ticks[n] = t;
            r.liquidityNets[n] = net;
            r.freshOutside[n] = fresh;
            ++n;
        }
        return (true, n);
    }

    /// @dev `ticks(tick)`: its liquidityNet and the freshOutside bits of its two fee-growth-outside
    /// words (where the answer's length puts them) and, on Slipstream, of its reward-growth-outside word; ok only when the callee succeeded, answered
    /// all of them and the liquidityNet fits an int128.
    function _readTick(address pool, int256 tick)
        private
        view
        returns (bool ok, int256 net, uint256 fresh)
    {
        if (gasleft() < GAS_RESERVE) revert GasBudgetExhausted();
        bytes4 selector = IUniswapV3PoolState.ticks.selector;
        assembly ("memory-safe") {
            mstore(0, selector)
            mstore(4, tick)
            ok := staticcall(CALL_GAS, pool, 0, 36, 0, 0)
            let growthAt := shl(5, FEE_GROWTH_WORD)
            let slipstream := eq(returndatasize(), shl(5, SLIPSTREAM_TICK_WORDS))
            if slipstream { growthAt := shl(5, SLIPSTREAM_FEE_GROWTH_WORD) }
            if lt(returndatasize(), add(growthAt, 64)) { ok := 0 }
            if ok {
                // Scratch space holds two words: each is copied there and read at once.
                returndatacopy(0, shl(5, LIQUIDITY_NET_WORD), 32)
                net := mload(0)
                returndatacopy(0, growthAt, 64)
                if iszero(mload(0)) { fresh := FRESH_OUTSIDE_0 }
                if iszero(mload(32)) { fresh := or(fresh, FRESH_OUTSIDE_1) }
                if slipstream {
                    returndatacopy(0, shl(5, SLIPSTREAM_REWARD_GROWTH_WORD), 32)
                    if iszero(mload(0)) { fresh := or(fresh, FRESH_REWARD_OUTSIDE) }
                }
            }
        }
        if (net < type(int128).min || net > type(int128).max) ok = false;
    }

    /// @dev A staticcall of `selector(arg)`; ok only when the callee succeeded and answered at least
    /// `minSize` bytes. Getters without arguments get `arg` too: ABI decoders ignore trailing
    /// calldata. Only the first two words of the answer are copied.
    function _call(address pool, bytes4 selector, uint256 arg, uint256 minSize)
        private
        view
        returns (bool ok, uint256 word0, uint256 word1)
    {
        if (gasleft() < GAS_RESERVE) revert GasBudgetExhausted();
        assembly ("memory-safe") {
            mstore(0, selector)
            mstore(4, arg)
            ok := staticcall(CALL_GAS, pool, 0, 36, 0, 64)
            if lt(returndatasize(), minSize) { ok := 0 }
            word0 := mload(0)
            word1 := mload(32)
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
            if (r.status != READ) continue;
            p = _put(p, r.fresh, 1);
            p = _put(p, r.sqrtPriceX96, 20);
            p = _put(p, uint256(r.tick), 3);
            p = _put(p, r.liquidity, 16);
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
