// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IWETH9} from "./interfaces/IWETH9.sol";
import {IUniswapV2Pair} from "./interfaces/IUniswapV2Pair.sol";
import {IUniswapV3Pool} from "./interfaces/IUniswapV3Pool.sol";

/// @title WeftExecutor
/// @notice Fills a weft quote: pulls the input from the caller, swaps it along Uniswap V2 pairs and
/// V3 pools, takes the integrator's fees and surplus share, and pays the receiver.
/// @dev Users approve this contract, so it is written against an attacker who controls the whole
/// order: the input is pulled once, from msg.sender, for exactly `amountIn`; every pool address is
/// derived by CREATE2 from the dex table fixed at deployment, never read from calldata; the V3
/// callback pays only the pool this contract is swapping with; nothing is approved, and no token
/// is left here after a fill.
contract WeftExecutor {
    /// @notice One pool deployment. kind 1 = Uniswap V2 pair, 2 = Uniswap V3 pool.
    /// feeBps: the V2 swap fee in basis points (30 = 0.3%), unused for V3.
    struct Dex {
        uint8 kind;
        address factory;
        bytes32 initCodeHash;
        uint16 feeBps;
    }

    /// @notice One swap. dex: index in the dex table; param: V3: the fee tier (bits 0-23) and an
    /// optional sqrt price limit (bits 24-183); V2: 0.
    struct Step {
        uint8 dex;
        address tokenIn;
        address tokenOut;
        uint256 param;
    }

    /// @notice A chain of swaps fed `amountIn` of the order's (wrapped) input token.
    struct Path {
        uint256 amountIn;
        Step[] steps;
    }

    /// @notice A fee: `rate` in units of 1e-7 of the base (1 bps = 1000).
    struct FeeShare {
        address recipient;
        uint32 rate;
    }

    /// @notice A quote to fill. address(0) as a token is the native token; as receiver, msg.sender.
    struct Order {
        bytes16 id;
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint256 amountOut;
        uint256 minAmountOut;
        address receiver;
        bool feeOnOutput;
        FeeShare[] fees;
        address surplusRecipient;
        uint16 surplusBps;
        address treasury;
        Path[] paths;
    }

    /// @dev The storage form of a Dex: kind, feeBps and factory share a slot, so a step reads two.
    struct DexEntry {
        uint8 kind;
        uint16 feeBps;
        address factory;
        bytes32 initCodeHash;
    }

    uint8 private constant KIND_UNISWAP_V2 = 1;
    uint8 private constant KIND_UNISWAP_V3 = 2;
    uint256 private constant FEE_RATE_DENOMINATOR = 1e7;
    uint256 private constant BPS = 10_000;
    // TickMath.MIN_SQRT_RATIO + 1 and MAX_SQRT_RATIO - 1: no price limit. Exactness is enforced
    // after the swap instead, by requiring the pool to take the whole input.
    uint160 private constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 private constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// @notice The wrapped native token (WETH9).
    address public immutable weth;

    mapping(uint256 => DexEntry) private _dexTable;

    bool private transient _locked;
    // Set only for the duration of this contract's own pool.swap call: outside it no address can
    // pass the callback check, and inside it only the pool being swapped with.
    address private transient _expectedPool;
    address private transient _callbackToken;
    uint256 private transient _callbackMaxIn;

    /// @notice An order was filled. amountOut is what the receiver's balance grew by.
    event Fill(
        bytes16 indexed id,
        address indexed sender,
        address indexed receiver,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 surplus
    );

    error Reentrancy();
    error InvalidConfig();
    error InvalidDex(uint256 index);
    error InvalidValue(uint256 value);
    error InvalidReceiver();
    error InvalidFees();
    error InvalidPath(uint256 path);
    error InvalidStep();
    error AmountMismatch(uint256 routed, uint256 expected);
    error PartialFill(address pool);
    error InvalidCallback(address caller);
    error InsufficientOutput(uint256 received, uint256 minimum);
    error TransferFailed(address token);
    error BalanceQueryFailed(address token);
    error EtherTransferFailed(address to);
    error UnexpectedEther();

    constructor(address weth_, Dex[] memory dexes_) {
        // Step.dex is a uint8: a longer table would hold unreachable entries.
        if (weth_ == address(0) || dexes_.length > 256) revert InvalidConfig();
        weth = weth_;
        for (uint256 i; i < dexes_.length; ++i) {
            Dex memory dex = dexes_[i];
            if (
                (dex.kind != KIND_UNISWAP_V2 && dex.kind != KIND_UNISWAP_V3) || dex.factory == address(0)
                    || dex.feeBps >= BPS
            ) revert InvalidDex(i);
            _dexTable[i] = DexEntry(dex.kind, dex.feeBps, dex.factory, dex.initCodeHash);
        }
    }

    /// @notice Only WETH sends ether here (when unwrapping); anything else would be stranded.
    receive() external payable {
        if (msg.sender != weth) revert UnexpectedEther();
    }

    /// @notice The dex table entry at `index`; reverts past the end of the table.
    function dexes(uint256 index)
        external
        view
        returns (uint8 kind, address factory, bytes32 initCodeHash, uint16 feeBps)
    {
        DexEntry memory dex = _dexTable[index];
        if (dex.kind == 0) revert InvalidDex(index);
        return (dex.kind, dex.factory, dex.initCodeHash, dex.feeBps);
    }

    /// @notice Fills `order` and returns what the receiver's balance grew by.
    function fill(Order calldata order) external payable returns (uint256 received) {
        if (_locked) revert Reentrancy();
        _locked = true;

        address tokenIn = order.tokenIn == address(0) ? weth : order.tokenIn;
        address tokenOut = order.tokenOut == address(0) ? weth : order.tokenOut;
        address receiver = order.receiver == address(0) ? msg.sender : order.receiver;
        // Tokens sent to the executor itself would be stranded.
        if (receiver == address(this)) revert InvalidReceiver();

        // Measured before anything moves, so tokens stranded here earlier never count as output.
        uint256 baseline = _balanceOf(tokenOut, address(this));
        uint256 swapIn = _takeInput(order, tokenIn);

        if (tokenIn == tokenOut) {
            // Wrap or unwrap: the (wrapped) input is the output.
            if (order.paths.length != 0) revert InvalidPath(0);
        } else {
            uint256 routed = _runPaths(order.paths, tokenIn, tokenOut);
            // Anything not routed would stay here.
            if (routed != swapIn) revert AmountMismatch(routed, swapIn);
        }

        uint256 gross = _balanceOf(tokenOut, address(this)) - baseline;
        uint256 surplus;
        (received, surplus) = _payOutput(order, receiver, gross);

        emit Fill(order.id, msg.sender, receiver, order.tokenIn, order.tokenOut, order.amountIn, received, surplus);
        _locked = false;
    }

    /// @notice Pays a V3 pool the input it asks for, if and only if it is the pool this contract is
    /// swapping with right now.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        (uint8 dexIndex, address tokenIn, address tokenOut, uint24 fee) =
            abi.decode(data, (uint8, address, address, uint24));
        // Both checks, as defence in depth: the transient slot ties the call to the swap in flight;
        // the CREATE2 recomputation (as Universal Router's V3SwapRouter does) ties it to a genuine pool.
        if (
            msg.sender != _expectedPool
                || msg.sender != _v3PoolAddress(_dexTable[dexIndex], tokenIn, tokenOut, fee)
        ) revert InvalidCallback(msg.sender);
        // For an exact-input swap only the input side is positive; a negative amount cast to
        // uint256 is huge and fails the cap below.
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (owed > _callbackMaxIn) revert InvalidCallback(msg.sender);
        if (owed != 0) _transfer(_callbackToken, msg.sender, owed);
    }

    /// @dev Checks msg.value, pulls the input, takes input-side fees and wraps native input.
    /// Returns the amount left to route.
    function _takeInput(Order calldata order, address tokenIn) private returns (uint256 swapIn) {
        uint256 amountIn = order.amountIn;
        bool native = order.tokenIn == address(0);
        if (msg.value != (native ? amountIn : 0)) revert InvalidValue(msg.value);
        if (!native) _pullInput(tokenIn, amountIn);
        swapIn = amountIn;
        if (!order.feeOnOutput) {
            // _payFees never returns more than its base.
            unchecked {
                swapIn = amountIn - _payFees(order.tokenIn, amountIn, order.fees);
            }
        }
        if (native) IWETH9(weth).deposit{value: swapIn}();
    }

    /// @dev Runs every path and returns the total input they consumed.
    function _runPaths(Path[] calldata paths, address tokenIn, address tokenOut) private returns (uint256 routed) {
        for (uint256 p; p < paths.length; ++p) {
            Path calldata path = paths[p];
            Step[] calldata steps = path.steps;
            if (steps.length == 0) revert InvalidPath(p);
            uint256 amount = path.amountIn;
            routed += amount;
            address expected = tokenIn;
            for (uint256 s; s < steps.length; ++s) {
                Step calldata step = steps[s];
                if (step.tokenIn != expected) revert InvalidPath(p);
                expected = step.tokenOut;
                // Each hop spends exactly what the previous one produced.
                amount = _swap(step, amount);
            }
            if (expected != tokenOut) revert InvalidPath(p);
        }
    }

    function _swap(Step calldata step, uint256 amountIn) private returns (uint256) {
        DexEntry memory dex = _dexTable[step.dex];
        if (dex.kind == KIND_UNISWAP_V2) return _swapV2(dex, step.tokenIn, step.tokenOut, amountIn);
        if (dex.kind == KIND_UNISWAP_V3) return _swapV3(dex, step, amountIn);
        revert InvalidDex(step.dex);
    }

    function _swapV2(DexEntry memory dex, address tokenIn, address tokenOut, uint256 amountIn)
        private
        returns (uint256 amountOut)
    {
        bool zeroForOne = tokenIn < tokenOut;
        (address token0, address token1) = zeroForOne ? (tokenIn, tokenOut) : (tokenOut, tokenIn);
        address pair = _create2Address(dex.factory, keccak256(abi.encodePacked(token0, token1)), dex.initCodeHash);

        _transfer(tokenIn, pair, amountIn);
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        // The pair credits the swap with what it holds above its reserve, which for a fee-on-transfer
        // token is less than what was sent.
        uint256 amountInWithFee = (_balanceOf(tokenIn, pair) - reserveIn) * (BPS - dex.feeBps);
        // UniswapV2Library.getAmountOut scaled to basis points: for 30 bps numerator and denominator
        // are both 10x Uniswap's 997/1000 form, so the floor is identical.
        amountOut = amountInWithFee * reserveOut / (reserveIn * BPS + amountInWithFee);

        (uint256 amount0Out, uint256 amount1Out) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IUniswapV2Pair(pair).swap(amount0Out, amount1Out, address(this), "");
    }

    function _swapV3(DexEntry memory dex, Step calldata step, uint256 amountIn) private returns (uint256) {
        // int256(amountIn) must stay positive: a negative amountSpecified is an exact-output swap.
        // param: the fee tier in bits 0-23 and an optional sqrt price limit in bits 24-183 (0: none).
        if (step.param >> 184 != 0 || amountIn > uint256(type(int256).max)) revert InvalidStep();
        address tokenIn = step.tokenIn;
        address tokenOut = step.tokenOut;
        uint24 fee = uint24(step.param);
        bool zeroForOne = tokenIn < tokenOut;
        address pool = _v3PoolAddress(dex, tokenIn, tokenOut, fee);

        _expectedPool = pool;
        _callbackToken = tokenIn;
        _callbackMaxIn = amountIn;
        (int256 amount0, int256 amount1) = IUniswapV3Pool(pool).swap(
            address(this),
            zeroForOne,
            int256(amountIn),
            _v3PriceLimit(step.param, zeroForOne),
            abi.encode(step.dex, tokenIn, tokenOut, fee)
        );
        _expectedPool = address(0);

        (int256 paid, int256 received) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        // A pool that runs out of liquidity stops early and takes less: the rest would be stranded.
        if (paid != int256(amountIn)) revert PartialFill(pool);
        return uint256(-received);
    }

    /// @dev The SDK passes the edge of the ticks it priced with: a pool drained or pushed past it
    /// stops there (and the fill reverts as partial) instead of burning gas through empty ticks.
    function _v3PriceLimit(uint256 param, bool zeroForOne) private pure returns (uint160 limit) {
        limit = uint160(param >> 24);
        if (limit == 0) limit = zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT;
    }

    /// @dev Output-side fees, surplus split, receiver last. Returns the receiver's balance increase
    /// and the surplus.
    function _payOutput(Order calldata order, address receiver, uint256 gross)
        private
        returns (uint256 received, uint256 surplus)
    {
        address token = order.tokenOut; // address(0): ether
        if (token == address(0)) IWETH9(weth).withdraw(gross);

        uint256 net = gross;
        if (order.feeOnOutput) {
            // _payFees never returns more than its base.
            unchecked {
                net = gross - _payFees(token, gross, order.fees);
            }
        }

        uint256 toReceiver = net;
        uint256 amountOut = order.amountOut;
        if (net > amountOut) {
            uint256 share;
            unchecked {
                surplus = net - amountOut;
            }
            if (order.surplusRecipient != address(0)) {
                if (order.surplusBps > BPS) revert InvalidFees();
                share = surplus * order.surplusBps / BPS;
                if (share != 0) _pay(token, order.surplusRecipient, share);
            }
            toReceiver = amountOut;
            // share <= surplus, and surplus - share <= net - amountOut.
            unchecked {
                if (order.treasury == address(0)) toReceiver = net - share;
                else if (surplus != share) _pay(token, order.treasury, surplus - share);
            }
        }

        uint256 before = _balanceOfOrEther(token, receiver);
        if (toReceiver != 0) _pay(token, receiver, toReceiver);
        uint256 afterwards = _balanceOfOrEther(token, receiver);
        unchecked {
            received = afterwards > before ? afterwards - before : 0;
        }
        if (received < order.minAmountOut) revert InsufficientOutput(received, order.minAmountOut);
    }

    /// @dev Pays each fee on `base` in `token` (address(0): ether) and returns their sum, which the
    /// rate check keeps at or below `base`.
    function _payFees(address token, uint256 base, FeeShare[] calldata fees) private returns (uint256 total) {
        uint256 rates;
        for (uint256 i; i < fees.length; ++i) {
            FeeShare calldata share = fees[i];
            uint256 fee = base * share.rate / FEE_RATE_DENOMINATOR;
            // Neither sum can overflow: each term is below 2^32 or below base * 2^32 / 1e7, and
            // calldata cannot hold enough entries.
            unchecked {
                rates += share.rate;
                total += fee;
            }
            if (fee != 0) {
                if (share.recipient == address(0)) revert InvalidFees();
                _pay(token, share.recipient, fee);
            }
        }
        if (rates > FEE_RATE_DENOMINATOR) revert InvalidFees();
    }

    function _pay(address token, address to, uint256 amount) private {
        if (token == address(0)) _sendEther(to, amount);
        else _transfer(token, to, amount);
    }

    function _balanceOfOrEther(address token, address account) private view returns (uint256) {
        return token == address(0) ? account.balance : _balanceOf(token, account);
    }

    function _v3PoolAddress(DexEntry memory dex, address tokenA, address tokenB, uint24 fee)
        private
        pure
        returns (address)
    {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        return _create2Address(dex.factory, keccak256(abi.encode(token0, token1, fee)), dex.initCodeHash);
    }

    function _create2Address(address factory, bytes32 salt, bytes32 initCodeHash) private pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", factory, salt, initCodeHash)))));
    }

    /// @dev The only transferFrom in this contract: from msg.sender, of the order's input token, for
    /// the order's amountIn, called once per fill.
    function _pullInput(address token, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, shl(224, 0x23b872dd)) // transferFrom(address,address,uint256)
            mstore(add(p, 0x04), caller())
            mstore(add(p, 0x24), address())
            mstore(add(p, 0x44), amount)
            ok := call(gas(), token, 0, p, 0x64, 0x00, 0x20)
            // Accept `true`, or no return data from an account with code (USDT-style tokens).
            ok := and(
                ok,
                or(
                    and(eq(mload(0x00), 1), gt(returndatasize(), 0x1f)),
                    and(iszero(returndatasize()), gt(extcodesize(token), 0))
                )
            )
        }
        if (!ok) revert TransferFailed(token);
    }

    function _transfer(address token, address to, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, shl(224, 0xa9059cbb)) // transfer(address,uint256)
            mstore(add(p, 0x04), shr(96, shl(96, to))) // clean: high bits of an address are undefined in assembly
            mstore(add(p, 0x24), amount)
            ok := call(gas(), token, 0, p, 0x44, 0x00, 0x20)
            // Accept `true`, or no return data from an account with code (USDT-style tokens).
            ok := and(
                ok,
                or(
                    and(eq(mload(0x00), 1), gt(returndatasize(), 0x1f)),
                    and(iszero(returndatasize()), gt(extcodesize(token), 0))
                )
            )
        }
        if (!ok) revert TransferFailed(token);
    }

    function _balanceOf(address token, address account) private view returns (uint256 amount) {
        bool ok;
        assembly ("memory-safe") {
            mstore(0x00, shl(224, 0x70a08231)) // balanceOf(address)
            mstore(0x04, shr(96, shl(96, account))) // clean: high bits of an address are undefined in assembly
            ok := staticcall(gas(), token, 0x00, 0x24, 0x00, 0x20)
            ok := and(ok, gt(returndatasize(), 0x1f))
            amount := mload(0x00)
        }
        if (!ok) revert BalanceQueryFailed(token);
    }

    function _sendEther(address to, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            // No return data is copied: a recipient cannot make this call expensive by returning a lot.
            ok := call(gas(), to, amount, 0, 0, 0, 0)
        }
        if (!ok) revert EtherTransferFailed(to);
    }
}
