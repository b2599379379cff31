// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title TransferFeeProbe
/// @notice Measures the fee a token keeps on transfer, without holding any: it flash-borrows the
/// token from a Uniswap V2 pair (a swap with callback data) or a V3 pool (`flash`), measures what
/// arrived, sends half back to the pool and measures what the pool received, then reverts with the
/// four amounts, so nothing is ever settled. Meant for `eth_call` only, run as deployless code.
contract TransferFeeProbe {
    /// @notice Where to borrow `token` from: candidate V2 pairs and V3 pools (without code: skipped).
    struct Probe {
        address token;
        address[] v2Pairs;
        address[] v3Pools;
    }

    /// @notice The measurement, carried out of the pool's call as revert data.
    error Measured(uint256 sent, uint256 received, uint256 sentBack, uint256 receivedBack);

    /// @notice For each probe: [sent, received, sentBack, receivedBack], all 0 when no pool lent.
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

    function _probe(Probe calldata p) private returns (uint256[4] memory result) {
        address token = p.token;
        for (uint256 k; k < p.v2Pairs.length; ++k) {
            address pair = p.v2Pairs[k];
            uint256 amount = _lendable(token, pair);
            if (amount == 0) continue;
            bool isToken0 = IPairLike(pair).token0() == token;
            try IPairLike(pair).swap(isToken0 ? amount : 0, isToken0 ? 0 : amount, address(this), abi.encode(token, amount)) {}
            catch (bytes memory reason) {
                if (_decode(reason, result)) return result;
            }
        }
        for (uint256 k; k < p.v3Pools.length; ++k) {
            address pool = p.v3Pools[k];
            uint256 amount = _lendable(token, pool);
            if (amount == 0) continue;
            bool isToken0 = IPairLike(pool).token0() == token;
            try IPairLike(pool).flash(address(this), isToken0 ? amount : 0, isToken0 ? 0 : amount, abi.encode(token, amount)) {}
            catch (bytes memory reason) {
                if (_decode(reason, result)) return result;
            }
        }
    }

    /// @dev 1% of what the pool holds, or 0 for an address without code or a token it lacks.
    function _lendable(address token, address pool) private view returns (uint256) {
        if (pool.code.length == 0) return 0;
        (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSelector(IERC20Like.balanceOf.selector, pool));
        if (!ok || data.length < 32) return 0;
        return abi.decode(data, (uint256)) / 100;
    }

    function _measure(bytes calldata data) private {
        (address token, uint256 sent) = abi.decode(data, (address, uint256));
        // A fresh deployless contract held none of the token before the loan.
        uint256 received = IERC20Like(token).balanceOf(address(this));
        uint256 sentBack = received / 2;
        uint256 before = IERC20Like(token).balanceOf(msg.sender);
        (bool ok,) = token.call(abi.encodeWithSelector(IERC20Like.transfer.selector, msg.sender, sentBack));
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

interface IERC20Like {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}
