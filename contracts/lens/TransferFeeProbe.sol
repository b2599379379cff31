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
        for (uint256 k; k < p.lenders.length; ++k) {
            address lender = address(uint160(p.lenders[k]));
            uint256 amount = _lendable(token, lender);
            if (amount == 0) continue;
            // Any failure (a pool without active liquidity, a paused pool, a token that refuses the
            // transfer) only moves on to the next lender: the revert data is not a measurement.
            bytes memory borrow = _borrowCall(p.lenders[k] >> KIND_SHIFT, token, lender, amount);
            if (borrow.length == 0) continue;
            (, bytes memory reason) = lender.call(borrow);
            if (_decode(reason, result)) return result;
        }
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
