// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title TransferFeeProbe
/// @notice Measures the fee a token keeps on transfer, without holding any: it borrows the token
/// through a lender's own entry point, measures what arrived, sends half back to the lender and
/// measures what the lender received, then reverts with the four amounts, so nothing is ever
/// settled. Meant for `eth_call` only, run as deployless code.
/// @dev A lender is a pool or singleton that sends the token first and calls the probe back before
/// it checks anything:
///   kind 0  a Uniswap V2 pair (and forks): `swap` with callback data, `uniswapV2Call`;
///   kind 1  a Uniswap V3 or Slipstream pool: `flash`, `uniswapV3FlashCallback`;
///   kind 2  a PancakeSwap V3 pool: `flash`, `pancakeV3FlashCallback`;
///   kind 3  an Aerodrome V2 (Solidly) pool: `swap` with callback data, `hook`;
///   kind 4  the Uniswap V4 PoolManager: `unlock`, then `take` from `unlockCallback`;
///   kind 5  the Balancer V2 Vault: `flashLoan`, `receiveFlashLoan`.
/// `flash` needs liquidity active at the pool's price: when no lender measured, a second pass asks
/// the V3-style pools (kinds 1 and 2) for an exact-output `swap` of the token instead, which pays
/// out before it calls back (`uniswapV3SwapCallback`, `pancakeV3SwapCallback`) and crosses a range
/// gap, up to a price SWAP_SQRT_PRICE_REACH² away.
/// Each entry of `Probe.lenders` packs the kind in bits 160 and up above the lender's address.
/// The caller derives every address from its chain config (CREATE2 or the singleton itself), so
/// only genuine pools are asked.
contract TransferFeeProbe {
    uint256 private constant UNISWAP_V2_PAIR = 0;
    uint256 private constant UNISWAP_V3_FLASH = 1;
    uint256 private constant PANCAKE_V3_FLASH = 2;
    uint256 private constant AERODROME_POOL = 3;
    uint256 private constant UNISWAP_V4_MANAGER = 4;
    uint256 private constant BALANCER_VAULT = 5;
    /// @dev The passes over a probe's lenders: each lender's loan, then the V3-style pools' swaps.
    uint256 private constant LOAN_PASS = 0;
    uint256 private constant SWAP_PASS = 1;
    /// @dev How far a probing swap may move the square-root price (a factor 2: the price 4x), which
    /// bounds the empty bitmap words it walks (at tick spacing 1, about 54).
    uint256 private constant SWAP_SQRT_PRICE_REACH = 2;
    /// @dev TickMath's bounds of sqrtPriceX96: a swap's limit lies strictly between them.
    uint256 private constant MIN_SQRT_RATIO = 4295128739;
    uint256 private constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;
    /// @dev Where the kind starts in a lender entry: above the 160 address bits.
    uint256 private constant KIND_SHIFT = 160;
    /// @dev The V4 PoolManager books a `take` as an int128 delta.
    uint256 private constant MAX_LOAN = uint256(uint128(type(int128).max));

    /// @notice Where to borrow `token` from, in order: packed (kind, address) entries (without code: skipped).
    struct Probe {
        address token;
        uint256[] lenders;
    }

    /// @notice The measurement, carried out of the lender's call as revert data.
    error Measured(uint256 sent, uint256 received, uint256 sentBack, uint256 receivedBack);

    /// @notice For each probe: [sent, received, sentBack, receivedBack], all 0 when no lender lent.
    function probe(Probe[] calldata probes) external returns (uint256[4][] memory results) {
        results = new uint256[4][](probes.length);
        for (uint256 i; i < probes.length; ++i) {
            results[i] = _probe(probes[i]);
        }
    }

    function uniswapV2Call(address, uint256, uint256, bytes calldata data) external {
        _measure(data);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _measureSwap(amount0Delta, amount1Delta, data);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _measureSwap(amount0Delta, amount1Delta, data);
    }

    function uniswapV3FlashCallback(uint256, uint256, bytes calldata data) external {
        _measure(data);
    }

    function pancakeV3FlashCallback(uint256, uint256, bytes calldata data) external {
        _measure(data);
    }

    /// @dev Aerodrome's `IPoolCallee.hook`, called after the pool sent the amounts out.
    function hook(address, uint256, uint256, bytes calldata data) external {
        _measure(data);
    }

    function receiveFlashLoan(address[] calldata, uint256[] calldata, uint256[] calldata, bytes calldata data) external {
        _measure(data);
    }

    /// @dev The PoolManager lends nothing by itself: inside the unlock, `take` sends the token and
    /// books a debt that is never settled (the measurement reverts the whole unlock).
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        (address token, uint256 amount) = abi.decode(data, (address, uint256));
        IUniswapV4ManagerLike(msg.sender).take(token, address(this), amount);
        _measure(data);
    }

    function _probe(Probe calldata p) private returns (uint256[4] memory result) {
        address token = p.token;
        for (uint256 pass = LOAN_PASS; pass <= SWAP_PASS; ++pass) {
            for (uint256 k; k < p.lenders.length; ++k) {
                uint256 kind = p.lenders[k] >> KIND_SHIFT;
                if (pass == SWAP_PASS && kind != UNISWAP_V3_FLASH && kind != PANCAKE_V3_FLASH) continue;
                address lender = address(uint160(p.lenders[k]));
                uint256 amount = _lendable(token, lender);
                if (amount == 0) continue;
                // Any failure (a pool without active liquidity, a paused pool, a token that refuses
                // the transfer) only moves on to the next lender: the revert data is no measurement.
                bytes memory borrow =
                    pass == LOAN_PASS ? _borrowCall(kind, token, lender, amount) : _swapCall(token, lender, amount);
                if (borrow.length == 0) continue;
                (, bytes memory reason) = lender.call(borrow);
                // A swap that found no liquidity within its reach paid nothing out: not a measurement.
                if (_decode(reason, result) && result[0] != 0) return result;
            }
        }
        delete result;
    }

    /// @dev The lender's entry point that sends `amount` of `token` to the probe and calls it back.
    function _borrowCall(uint256 kind, address token, address lender, uint256 amount) private view returns (bytes memory) {
        bytes memory data = abi.encode(token, amount);
        if (kind == UNISWAP_V4_MANAGER) return abi.encodeCall(IUniswapV4ManagerLike.unlock, (data));
        if (kind == BALANCER_VAULT) {
            address[] memory tokens = new address[](1);
            uint256[] memory amounts = new uint256[](1);
            tokens[0] = token;
            amounts[0] = amount;
            return abi.encodeCall(IBalancerVaultLike.flashLoan, (address(this), tokens, amounts, data));
        }
        bool isToken0 = _token0(lender) == token;
        (uint256 amount0, uint256 amount1) = isToken0 ? (amount, uint256(0)) : (uint256(0), amount);
        if (kind == UNISWAP_V2_PAIR || kind == AERODROME_POOL) {
            return abi.encodeCall(IPairLike.swap, (amount0, amount1, address(this), data));
        }
        if (kind == UNISWAP_V3_FLASH || kind == PANCAKE_V3_FLASH) {
            return abi.encodeCall(IPairLike.flash, (address(this), amount0, amount1, data));
        }
        // An unknown kind: no call, the next lender.
        return "";
    }

    /// @dev A V3-style pool's exact-output swap that pays the probe at most `amount` of `token`.
    function _swapCall(address token, address pool, uint256 amount) private view returns (bytes memory) {
        uint256 sqrtPrice = _sqrtPrice(pool);
        if (sqrtPrice == 0) return "";
        bool isToken0 = _token0(pool) == token;
        // Buying token0 (paying token1) raises the price; buying token1 lowers it.
        uint256 limit = isToken0
            ? _min(sqrtPrice * SWAP_SQRT_PRICE_REACH, MAX_SQRT_RATIO - 1)
            : _max(sqrtPrice / SWAP_SQRT_PRICE_REACH, MIN_SQRT_RATIO + 1);
        return abi.encodeCall(IV3PoolLike.swap, (address(this), !isToken0, -int256(amount), uint160(limit), abi.encode(token, amount)));
    }

    /// @dev A V3-style pool's sqrtPriceX96 (the first word of `slot0` in every fork), or 0.
    function _sqrtPrice(address pool) private view returns (uint256) {
        (bool ok, bytes memory data) = pool.staticcall(abi.encodeCall(IV3PoolLike.slot0, ()));
        if (!ok || data.length < 32) return 0;
        return uint256(uint160(abi.decode(data, (uint256))));
    }

    function _min(uint256 a, uint256 b) private pure returns (uint256) {
        return a < b ? a : b;
    }

    function _max(uint256 a, uint256 b) private pure returns (uint256) {
        return a > b ? a : b;
    }

    /// @dev The pool's token0, or address(0) when it does not answer one.
    function _token0(address pool) private view returns (address) {
        (bool ok, bytes memory data) = pool.staticcall(abi.encodeCall(IPairLike.token0, ()));
        if (!ok || data.length < 32) return address(0);
        return abi.decode(data, (address));
    }

    /// @dev 1% of what the lender holds, or 0 for an address without code or a token it lacks.
    function _lendable(address token, address lender) private view returns (uint256) {
        if (lender.code.length == 0) return 0;
        (bool ok, bytes memory data) = token.staticcall(abi.encodeCall(IERC20Like.balanceOf, (lender)));
        if (!ok || data.length < 32) return 0;
        uint256 amount = abi.decode(data, (uint256)) / 100;
        return amount > MAX_LOAN ? MAX_LOAN : amount;
    }

    function _measure(bytes calldata data) private {
        (address token, uint256 sent) = abi.decode(data, (address, uint256));
        _measure(token, sent);
    }

    /// @dev What the pool paid out is its negative delta (a swap may pay less than asked).
    function _measureSwap(int256 amount0Delta, int256 amount1Delta, bytes calldata data) private {
        (address token,) = abi.decode(data, (address, uint256));
        int256 paid = amount0Delta < amount1Delta ? amount0Delta : amount1Delta;
        _measure(token, paid < 0 ? uint256(-paid) : 0);
    }

    function _measure(address token, uint256 sent) private {
        // A fresh deployless contract held none of the token before the loan.
        uint256 received = IERC20Like(token).balanceOf(address(this));
        uint256 sentBack = received / 2;
        uint256 before = IERC20Like(token).balanceOf(msg.sender);
        (bool ok,) = token.call(abi.encodeCall(IERC20Like.transfer, (msg.sender, sentBack)));
        uint256 receivedBack = ok ? IERC20Like(token).balanceOf(msg.sender) - before : 0;
        if (!ok) sentBack = 0;
        revert Measured(sent, received, sentBack, receivedBack);
    }

    function _decode(bytes memory reason, uint256[4] memory result) private pure returns (bool) {
        if (reason.length != 132 || bytes4(reason) != Measured.selector) return false;
        assembly ("memory-safe") {
            mstore(result, mload(add(reason, 36)))
            mstore(add(result, 32), mload(add(reason, 68)))
            mstore(add(result, 64), mload(add(reason, 100)))
            mstore(add(result, 96), mload(add(reason, 132)))
        }
        return true;
    }
}

interface IPairLike {
    function token0() external view returns (address);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
    function flash(address recipient, uint256 amount0, uint256 amount1, bytes calldata data) external;
}

interface IV3PoolLike {
    /// @dev Only the first word is read: every fork's slot0 starts with sqrtPriceX96.
    function slot0() external view returns (uint256 sqrtPriceX96);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

interface IUniswapV4ManagerLike {
    function unlock(bytes calldata data) external returns (bytes memory);
    /// @dev `currency` is an ERC-20 address here (never native: the probe measures tokens).
    function take(address currency, address to, uint256 amount) external;
}

interface IBalancerVaultLike {
    function flashLoan(address recipient, address[] calldata tokens, uint256[] calldata amounts, bytes calldata userData)
        external;
}

interface IERC20Like {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}
