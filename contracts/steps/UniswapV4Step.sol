// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ExecutorBase} from "./ExecutorBase.sol";
import {IWETH9} from "../interfaces/IWETH9.sol";
import {IUniswapV4PoolManager, IWrappedNativeHolder} from "../interfaces/IUniswapV4PoolManager.sol";

/// @title UniswapV4Step
/// @notice An exact-input swap on a Uniswap V4 pool without hooks, through the singleton PoolManager:
/// unlock, then in the unlock callback swap, pay the input (sync + transfer + settle, or settle with
/// ether) and take the output (flash accounting leaves nothing owed either way).
/// Step.param: fee (bits 0-23), tick spacing (int24, bits 24-47), bit 48 set when the input is the
/// pool's native currency (the step's tokenIn is then WETH, unwrapped to pay), bit 49 likewise for
/// the output (wrapped as it arrives), and an optional sqrt price limit (bits 56-215, 0: none).
/// The dex table entry's `factory` is the PoolManager.
/// @dev The pool key is built here with hooks = address(0): the PoolManager calls no contract on
/// this contract's behalf. The step in flight is held in transient storage for the callback, which
/// consumes it: no data from the PoolManager (or anyone) decides what is paid or taken.
abstract contract UniswapV4Step is ExecutorBase {
    uint256 private constant PARAM_NATIVE_IN = 1 << 48;
    uint256 private constant PARAM_NATIVE_OUT = 1 << 49;
    // Bits 50-55 are unused and must stay clear, as must everything above the price limit.
    uint256 private constant PARAM_UNUSED = 0x3f << 50;
    // TickMath.MIN_SQRT_PRICE + 1 and MAX_SQRT_PRICE - 1: no price limit.
    uint160 private constant V4_MIN_PRICE_LIMIT = 4295128740;
    uint160 private constant V4_MAX_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    // The step in flight, besides _expectedPool (the PoolManager), _callbackToken (the input
    // currency) and _callbackMaxIn (the input): its param with the dex index in the top byte, the
    // output currency, and WETH when a side is native.
    uint256 private transient _v4Param;
    address private transient _v4CurrencyOut;
    address private transient _v4Weth;
    // Set only around the PoolManager's `take` of native output: the one moment ether may arrive.
    bool private transient _v4TakingEther;

    /// @notice Runs the swap of the step in flight, if and only if the caller is the PoolManager of
    /// the dex this contract unlocked right now. It settles exactly the step's input and takes
    /// exactly what the swap owes this contract; the step is consumed, so a second call finds
    /// nothing to spend. `data` is ignored.
    function unlockCallback(bytes calldata) external returns (bytes memory) {
        if (msg.sender != _expectedPool) revert InvalidCallback(msg.sender);
        uint256 param = _v4Param;
        DexEntry memory dex = _dexTable[param >> 248];
        uint256 amountIn = _callbackMaxIn;
        if (msg.sender != dex.factory || dex.kind != KIND_UNISWAP_V4 || amountIn == 0) revert InvalidCallback(msg.sender);
        _callbackMaxIn = 0;

        address currencyIn = _callbackToken;
        address currencyOut = _v4CurrencyOut;
        bool zeroForOne = currencyIn < currencyOut;
        int256 delta = _v4Swap(zeroForOne, currencyIn, currencyOut, param, amountIn);
        (int256 paid, int256 received) =
            zeroForOne ? (delta >> 128, int256(int128(delta))) : (int256(int128(delta)), delta >> 128);
        // A pool stopped by the price limit takes less, and the rest would be stranded.
        if (paid != -int256(amountIn) || received < 0) revert PartialFill(msg.sender);

        if (currencyIn == address(0)) {
            _v4Call(_v4Weth, 0, IWETH9.withdraw.selector, 1, amountIn, 0, 0);
            _v4Call(msg.sender, amountIn, IUniswapV4PoolManager.settle.selector, 0, 0, 0, 0);
        } else {
            _v4Call(msg.sender, 0, IUniswapV4PoolManager.sync.selector, 1, uint160(currencyIn), 0, 0);
            _transfer(currencyIn, msg.sender, amountIn);
            _v4Call(msg.sender, 0, IUniswapV4PoolManager.settle.selector, 0, 0, 0, 0);
        }
        if (received != 0) {
            bool native = currencyOut == address(0);
            if (native) _v4TakingEther = true;
            _v4Call(msg.sender, 0, IUniswapV4PoolManager.take.selector, 3, uint160(currencyOut), uint160(address(this)), uint256(received));
            if (native) {
                _v4TakingEther = false;
                _v4Call(_v4Weth, uint256(received), IWETH9.deposit.selector, 0, 0, 0, 0);
            }
        }
        return abi.encode(received);
    }

    /// @dev Whether ether arriving now is the native output of this contract's V4 step: sent by the
    /// PoolManager it unlocked, during its `take`. The executor's `receive` accepts it then only.
    function _isUniswapV4NativeTake() internal view returns (bool) {
        return _v4TakingEther && msg.sender == _expectedPool;
    }

    function _swapUniswapV4(DexEntry memory dex, Step calldata step, uint256 amountIn)
        internal
        returns (uint256 amountOut)
    {
        uint256 param = step.param;
        // Deltas are int128 in the PoolManager: a larger input could not be swapped anyway.
        if (param >> 216 != 0 || param & PARAM_UNUSED != 0 || amountIn > uint128(type(int128).max)) {
            revert InvalidStep();
        }
        address currencyIn = step.tokenIn;
        address currencyOut = step.tokenOut;
        // address(0) is the PoolManager's native currency: only the native flags may name it.
        if (currencyIn == address(0) || currencyOut == address(0)) revert InvalidStep();
        if (param & (PARAM_NATIVE_IN | PARAM_NATIVE_OUT) != 0) {
            // Only the wrapped native token stands for a pool's native currency.
            address weth = address(uint160(_v4Call(address(this), 0, IWrappedNativeHolder.weth.selector, 0, 0, 0, 0)));
            if (param & PARAM_NATIVE_IN != 0) {
                if (currencyIn != weth) revert InvalidStep();
                currencyIn = address(0);
            }
            if (param & PARAM_NATIVE_OUT != 0) {
                if (currencyOut != weth) revert InvalidStep();
                currencyOut = address(0);
            }
            _v4Weth = weth;
        }

        address manager = dex.factory;
        _expectedPool = manager;
        _callbackToken = currencyIn;
        _callbackMaxIn = amountIn;
        _v4Param = param | (uint256(step.dex) << 248);
        _v4CurrencyOut = currencyOut;
        bytes4 selector = IUniswapV4PoolManager.unlock.selector;
        assembly ("memory-safe") {
            // unlock(""): the selector, the offset of the bytes, their length 0.
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 0x04), 0x20)
            mstore(add(p, 0x24), 0)
            if iszero(call(gas(), manager, 0, p, 0x44, 0, 0)) {
                returndatacopy(p, 0, returndatasize())
                revert(p, returndatasize())
            }
            // The answer is the callback's bytes: offset, length 32, then the amount taken.
            if lt(returndatasize(), 0x60) { revert(0, 0) }
            returndatacopy(0, 0x40, 0x20)
            amountOut := mload(0)
        }
        _expectedPool = address(0);
        // The callback consumed the input: anything left means it never ran.
        if (_callbackMaxIn != 0) revert InvalidCallback(manager);
    }

    /// @dev PoolManager.swap on the key (currencies sorted, the param's fee and spacing, no hooks)
    /// for an exact input of `amountIn` (< 2^127, so its negation is exact), no hook data.
    /// Returns the BalanceDelta.
    function _v4Swap(bool zeroForOne, address currencyIn, address currencyOut, uint256 param, uint256 amountIn)
        private
        returns (int256 delta)
    {
        (uint256 currency0, uint256 currency1) = zeroForOne
            ? (uint256(uint160(currencyIn)), uint256(uint160(currencyOut)))
            : (uint256(uint160(currencyOut)), uint256(uint160(currencyIn)));
        uint256 fee = uint24(param);
        int256 tickSpacing = int24(uint24(param >> 24));
        uint256 limit = _v4PriceLimit(param, zeroForOne);
        bytes4 selector = IUniswapV4PoolManager.swap.selector;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 0x04), currency0)
            mstore(add(p, 0x24), currency1)
            mstore(add(p, 0x44), fee)
            mstore(add(p, 0x64), tickSpacing)
            mstore(add(p, 0x84), 0) // hooks
            mstore(add(p, 0xa4), iszero(iszero(zeroForOne)))
            mstore(add(p, 0xc4), sub(0, amountIn))
            mstore(add(p, 0xe4), limit)
            mstore(add(p, 0x104), 0x120) // hookData: offset, then length 0
            mstore(add(p, 0x124), 0)
            if iszero(call(gas(), caller(), 0, p, 0x144, 0, 0x20)) {
                returndatacopy(p, 0, returndatasize())
                revert(p, returndatasize())
            }
            if lt(returndatasize(), 0x20) { revert(0, 0) }
            delta := mload(0)
        }
    }

    /// @dev Calls `target` with `selector` and its first `words` of (a, b, c), sending `value` wei;
    /// bubbles up a revert; returns the first word of the answer (0 when there is none).
    function _v4Call(address target, uint256 value, bytes4 selector, uint256 words, uint256 a, uint256 b, uint256 c)
        private
        returns (uint256 result)
    {
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 0x04), a)
            mstore(add(p, 0x24), b)
            mstore(add(p, 0x44), c)
            mstore(0, 0)
            if iszero(call(gas(), target, value, p, add(4, shl(5, words)), 0, 0x20)) {
                returndatacopy(p, 0, returndatasize())
                revert(p, returndatasize())
            }
            result := mload(0)
        }
    }

    function _v4PriceLimit(uint256 param, bool zeroForOne) private pure returns (uint256 limit) {
        limit = uint160(param >> 56);
        if (limit == 0) limit = zeroForOne ? V4_MIN_PRICE_LIMIT : V4_MAX_PRICE_LIMIT;
    }
}
