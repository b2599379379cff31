// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IWETH9} from "./interfaces/IWETH9.sol";
import {ExecutorBase} from "./steps/ExecutorBase.sol";
import {UniswapV2Step} from "./steps/UniswapV2Step.sol";
import {UniswapV3Step} from "./steps/UniswapV3Step.sol";
import {BalancerV2Step} from "./steps/BalancerV2Step.sol";
import {UniswapV4Step} from "./steps/UniswapV4Step.sol";
import {PancakeV3Step} from "./steps/PancakeV3Step.sol";
import {SlipstreamStep} from "./steps/SlipstreamStep.sol";
import {AerodromeV2Step} from "./steps/AerodromeV2Step.sol";

/// @title WeftExecutor
/// @notice Fills a weft quote: pulls the input from the caller, swaps it along the pools of its dex
/// table (Uniswap V2 and V3, PancakeSwap V3, Aerodrome Slipstream, Uniswap V4, Balancer V2), takes
/// the integrator's fees and surplus share, and pays the receiver.
/// @dev Users approve this contract, so it is written against an attacker who controls the whole
/// order: the input is pulled once, from msg.sender, for exactly `amountIn`; every pool address is
/// derived by CREATE2 from the dex table fixed at deployment (singletons are the table's own
/// entries), never read from calldata; callbacks pay only the pool this contract is swapping with;
/// the only approval is the Balancer step's, for exactly its input and checked back to 0; every
/// step's output is measured as this contract's balance increase, never taken from the pool's
/// report, so tokens stranded here are never spent; every path has its own minimum output; orders
/// expire; and no token is left here after a fill.
contract WeftExecutor is UniswapV2Step, UniswapV3Step, UniswapV4Step, PancakeV3Step, SlipstreamStep, BalancerV2Step, AerodromeV2Step {
    /// @notice One pool deployment. kind 1 = Uniswap V2 pair, 2 = Uniswap V3 pool.
    /// feeBps: the V2 swap fee in basis points (30 = 0.3%), unused for V3.
    struct Dex {
        uint8 kind;
        address factory;
        bytes32 initCodeHash;
        uint16 feeBps;
    }

    /// @notice A chain of swaps. It starts at a token this fill holds (the order's wrapped input, or
    /// an intermediate an earlier path produced) and spends `amountIn` of it, or all that is held of
    /// it when `amountIn` is 0. Paths run in order; a later path may spend what an earlier one
    /// produced, which lets a route trade each pool once (a flow) instead of once per path.
    /// `minAmountOut`: the least its last step may deliver (measured), so no single path can be
    /// drained beyond the slippage the user accepted, whatever the other paths make.
    struct Path {
        uint256 amountIn;
        uint256 minAmountOut;
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
        uint256 deadline;
        bool feeOnOutput;
        FeeShare[] fees;
        address surplusRecipient;
        uint16 surplusBps;
        address treasury;
        Path[] paths;
    }

    uint256 private constant FEE_RATE_DENOMINATOR = 1e7;

    /// @notice The wrapped native token (WETH9).
    address public immutable weth;

    bool private transient _locked;

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
    error InvalidValue(uint256 value);
    error InvalidReceiver();
    error InvalidPayee(uint8 role);
    error Expired(uint256 deadline, uint256 timestamp);
    error ZeroAmountIn();
    error SameToken();
    error NoPaths();
    error PathOutput(uint256 path, uint256 received, uint256 minimum);
    error InvalidFees();
    error InvalidPath(uint256 path);
    error AmountMismatch(uint256 routed, uint256 expected);
    error Overdraw(address token, uint256 requested, uint256 held);
    error Stranded(address token, uint256 amount);
    error InsufficientOutput(uint256 received, uint256 minimum);
    error EtherTransferFailed(address to);
    error UnexpectedEther();

    constructor(address weth_, Dex[] memory dexes_) {
        // Step.dex is a uint8: a longer table would hold unreachable entries.
        if (weth_ == address(0) || dexes_.length > 256) revert InvalidConfig();
        weth = weth_;
        for (uint256 i; i < dexes_.length; ++i) {
            Dex memory dex = dexes_[i];
            if (
                !_isKnownKind(dex.kind) || dex.factory == address(0)
                    || dex.feeBps >= BPS
            ) revert InvalidDex(i);
            _dexTable[i] = DexEntry(dex.kind, dex.feeBps, dex.factory, dex.initCodeHash);
        }
    }

    /// @notice Only WETH sends ether here (when unwrapping), and the Uniswap V4 PoolManager while
    /// this contract's own V4 step takes native output (wrapped at once); anything else would be
    /// stranded.
    receive() external payable {
        if (msg.sender != weth && !_isUniswapV4NativeTake()) revert UnexpectedEther();
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

        // A signed order can be held back and sent much later, on prices it was never meant for.
        if (block.timestamp > order.deadline) revert Expired(order.deadline, block.timestamp);
        // An empty fill moves nothing yet emits Fill: a fake volume or fee record.
        if (order.amountIn == 0) revert ZeroAmountIn();
        if (order.tokenIn == order.tokenOut) revert SameToken();
        address tokenIn = order.tokenIn == address(0) ? weth : order.tokenIn;
        address tokenOut = order.tokenOut == address(0) ? weth : order.tokenOut;
        address receiver = order.receiver == address(0) ? msg.sender : order.receiver;
        // Tokens sent to the executor itself would be stranded (and later spendable by nobody).
        if (receiver == address(this)) revert InvalidReceiver();
        _checkPayees(order);
        // Two different tokens need paths; a wrap or unwrap (native on one side, WETH on the
        // other) has none.
        if (tokenIn != tokenOut && order.paths.length == 0) revert NoPaths();

        // Measured before anything moves, so tokens stranded here earlier never count as output.
        uint256 baseline = _balanceOf(tokenOut, address(this));
        uint256 swapIn = _takeInput(order, tokenIn);

        if (tokenIn == tokenOut) {
            // Wrap or unwrap (one side native, the other WETH): the (wrapped) input is the output.
            if (order.paths.length != 0) revert InvalidPath(0);
        } else {
            _runPaths(order.paths, tokenIn, tokenOut, swapIn);
        }

        uint256 gross = _balanceOf(tokenOut, address(this)) - baseline;
        uint256 surplus;
        (received, surplus) = _payOutput(order, receiver, gross);

        emit Fill(order.id, msg.sender, receiver, order.tokenIn, order.tokenOut, order.amountIn, received, surplus);
        _locked = false;
    }

    /// @dev No payee may be this contract: what it is paid would be stranded here. Roles in the
    /// error: 1 a fee recipient, 2 the surplus recipient, 3 the treasury.
    function _checkPayees(Order calldata order) private view {
        FeeShare[] calldata fees = order.fees;
        for (uint256 i; i < fees.length; ++i) {
            if (fees[i].recipient == address(this)) revert InvalidPayee(1);
        }
        if (order.surplusRecipient == address(this)) revert InvalidPayee(2);
        if (order.treasury == address(this)) revert InvalidPayee(3);
    }

    /// @dev Checks msg.value, pulls the input, takes input-side fees and wraps native input.
    /// Returns the amount left to route. Input-side fees are taken on what arrived, which for a
    /// fee-on-transfer token is less than amountIn.
    function _takeInput(Order calldata order, address tokenIn) private returns (uint256 swapIn) {
        uint256 amountIn = order.amountIn;
        bool native = order.tokenIn == address(0);
        if (msg.value != (native ? amountIn : 0)) revert InvalidValue(msg.value);
        uint256 arrived = native ? amountIn : _pullInput(tokenIn, amountIn);
        swapIn = arrived;
        if (!order.feeOnOutput) {
            // _payFees never returns more than its base.
            unchecked {
                swapIn = arrived - _payFees(order.tokenIn, arrived, order.fees);
            }
        }
        if (native) IWETH9(weth).deposit{value: swapIn}();
    }

    /// @dev Runs the paths on a ledger of what this fill holds by token: the input to start with,
    /// plus each path's output unless it is the order's output token (measured by balance later).
    /// Every credit is measured: a step's output is this contract's balance increase of its output
    /// token, never what the pool reports, so a token that keeps a fee on transfer (or a buy tax)
    /// credits only what arrived and tokens stranded here are never spent. Each path's output must
    /// reach its minimum. Every token but the output must be spent exactly by the end.
    function _runPaths(Path[] calldata paths, address tokenIn, address tokenOut, uint256 swapIn) private {
        // A path adds at most one token, so paths.length + 1 entries always suffice.
        address[] memory tokens = new address[](paths.length + 1);
        uint256[] memory held = new uint256[](paths.length + 1);
        tokens[0] = tokenIn;
        held[0] = swapIn;
        uint256 count = 1;
        uint256 routed;
        for (uint256 p; p < paths.length; ++p) {
            Path calldata path = paths[p];
            Step[] calldata steps = path.steps;
            if (steps.length == 0) revert InvalidPath(p);
            address start = steps[0].tokenIn;
            uint256 from;
            while (from < count && tokens[from] != start) ++from;
            // Only a token this fill holds can be spent: never one stranded here, never the output.
            if (from == count) revert InvalidPath(p);
            uint256 amount = path.amountIn == 0 ? held[from] : path.amountIn;
            if (amount == 0) revert InvalidPath(p);
            if (from == 0) {
                routed += amount;
                if (amount > held[0]) revert AmountMismatch(routed, swapIn);
            } else if (amount > held[from]) {
                revert Overdraw(start, amount, held[from]);
            }
            unchecked {
                held[from] -= amount;
            }
            address expected = start;
            for (uint256 s; s < steps.length; ++s) {
                Step calldata step = steps[s];
                if (step.tokenIn != expected) revert InvalidPath(p);
                expected = step.tokenOut;
                // Steps trade tokens (WETH for native): address(0) has no balance to measure.
                if (expected == address(0)) revert InvalidStep();
                // Each hop spends exactly what the previous one delivered here, measured.
                uint256 before = _balanceOf(expected, address(this));
                _swap(step, amount);
                amount = _balanceOf(expected, address(this)) - before;
            }
            if (amount < path.minAmountOut) revert PathOutput(p, amount, path.minAmountOut);
            if (expected == tokenOut) continue;
            uint256 to;
            while (to < count && tokens[to] != expected) ++to;
            if (to == count) {
                tokens[count++] = expected;
            }
            held[to] += amount;
        }
        // Anything not routed would stay here.
        if (held[0] != 0) revert AmountMismatch(routed, swapIn);
        for (uint256 i = 1; i < count; ++i) {
            if (held[i] != 0) revert Stranded(tokens[i], held[i]);
        }
    }

    /// @dev The dex kinds this build can swap on (see ExecutorBase for the numbering).
    function _isKnownKind(uint8 kind) private pure returns (bool) {
        return kind == KIND_UNISWAP_V2 || kind == KIND_UNISWAP_V3 || kind == KIND_UNISWAP_V4 || kind == KIND_PANCAKE_V3 || kind == KIND_SLIPSTREAM || kind == KIND_BALANCER_V2
            || kind == KIND_AERODROME_V2;
    }

    function _swap(Step calldata step, uint256 amountIn) private returns (uint256) {
        DexEntry memory dex = _dexTable[step.dex];
        uint8 kind = dex.kind;
        if (kind == KIND_UNISWAP_V2) return _swapUniswapV2(dex, step, amountIn);
        if (kind == KIND_UNISWAP_V3) return _swapUniswapV3(dex, step, amountIn);
        if (kind == KIND_UNISWAP_V4) return _swapUniswapV4(dex, step, amountIn);
        if (kind == KIND_PANCAKE_V3) return _swapPancakeV3(dex, step, amountIn);
        if (kind == KIND_SLIPSTREAM) return _swapSlipstream(dex, step, amountIn);
        if (kind == KIND_AERODROME_V2) return _swapAerodromeV2(dex, step, amountIn);
        if (kind == KIND_BALANCER_V2) return _swapBalancerV2(dex, step, amountIn);
        revert InvalidDex(step.dex);
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

    /// @dev The only transferFrom in this contract: from msg.sender, of the order's input token, for
    /// the order's amountIn, called once per fill. Returns what arrived, measured: a fee-on-transfer
    /// token delivers less than it was asked for, and more would be a broken token.
    function _pullInput(address token, uint256 amount) private returns (uint256 arrived) {
        uint256 before = _balanceOf(token, address(this));
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
        arrived = _balanceOf(token, address(this)) - before;
        if (arrived > amount) revert TransferFailed(token);
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
