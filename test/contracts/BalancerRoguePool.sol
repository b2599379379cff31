// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBalancerRogueVault {
    struct SingleSwap {
        bytes32 poolId;
        uint8 kind;
        address assetIn;
        address assetOut;
        uint256 amount;
        bytes userData;
    }

    struct FundManagement {
        address sender;
        bool fromInternalBalance;
        address recipient;
        bool toInternalBalance;
    }

    function registerPool(uint8 specialization) external returns (bytes32);
    function registerTokens(bytes32 poolId, address[] calldata tokens, address[] calldata assetManagers) external;
    function swap(SingleSwap memory singleSwap, FundManagement memory funds, uint256 limit, uint256 deadline)
        external
        payable
        returns (uint256);
}

interface IBalancerRogueToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
}

/// @title BalancerRoguePool
/// @notice A pool the attacker registers in the real Balancer V2 Vault (two-token specialization).
///         It poses as a weighted pool (the weighted-pool getters answer like one) but no
///         WeightedPoolFactory created it, and its `onSwap` is hostile, by `mode`:
///         1 OVERCLAIM: claims to pay more than it holds;
///         2 PULL: tries to transferFrom the swapper (the executor) and the victim into itself;
///         3 REENTER_VAULT: swaps again through the Vault with the executor named as the payer;
///         4 REENTER_EXECUTOR: calls the executor (`payload`: a fill, or a swap callback);
///         5 NOTHING: pays nothing for the input.
///         Modes 2–4 record whether each attempt succeeded; every mode but 1 and 5 then pays a
///         thousandth of what the pool holds of the output token.
/// @dev Test only. Joins return the amounts in `userData` (abi-encoded uint256[]), so anyone can seed it.
contract BalancerRoguePool {
    struct SwapRequest {
        uint8 kind;
        address tokenIn;
        address tokenOut;
        uint256 amount;
        bytes32 poolId;
        uint256 lastChangeBlock;
        address from;
        address to;
        bytes userData;
    }

    uint8 public constant OVERCLAIM = 1;
    uint8 public constant PULL = 2;
    uint8 public constant REENTER_VAULT = 3;
    uint8 public constant REENTER_EXECUTOR = 4;
    uint8 public constant NOTHING = 5;

    IBalancerRogueVault public immutable vault;
    bytes32 public immutable poolId;
    address public immutable token0;
    address public immutable token1;

    uint8 public mode;
    address public victim;
    address public executor;
    bytes public payload;

    /// @notice How many hostile attempts were made, and how many of them succeeded.
    uint256 public attempts;
    uint256 public successes;
    bytes public lastReturn;

    constructor(IBalancerRogueVault vault_, address tokenA, address tokenB) {
        vault = vault_;
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 id = vault_.registerPool(2); // TWO_TOKEN
        address[] memory tokens = new address[](2);
        tokens[0] = token0;
        tokens[1] = token1;
        vault_.registerTokens(id, tokens, new address[](2));
        poolId = id;
    }

    function arm(uint8 mode_, address executor_, address victim_, bytes calldata payload_) external {
        mode = mode_;
        executor = executor_;
        victim = victim_;
        payload = payload_;
    }

    function onJoinPool(bytes32, address, address, uint256[] memory balances, uint256, uint256, bytes memory userData)
        external
        pure
        returns (uint256[] memory amountsIn, uint256[] memory dueProtocolFees)
    {
        amountsIn = abi.decode(userData, (uint256[]));
        dueProtocolFees = new uint256[](balances.length);
    }

    function onExitPool(bytes32, address, address, uint256[] memory, uint256, uint256, bytes memory)
        external
        pure
        returns (uint256[] memory, uint256[] memory)
    {
        revert("no exits");
    }

    function onSwap(SwapRequest memory request, uint256, uint256 balanceTokenOut) external returns (uint256) {
        uint8 m = mode;
        if (m == OVERCLAIM) return balanceTokenOut + 1;
        if (m == NOTHING) return 0;
        if (m == PULL) {
            IBalancerRogueToken token = IBalancerRogueToken(request.tokenIn);
            _attempt(address(token), abi.encodeCall(token.transferFrom, (request.from, address(this), 1)));
            _attempt(address(token), abi.encodeCall(token.transferFrom, (request.from, address(this), token.balanceOf(request.from))));
            _attempt(address(token), abi.encodeCall(token.transferFrom, (victim, address(this), 1)));
        } else if (m == REENTER_VAULT) {
            _attempt(
                address(vault),
                abi.encodeCall(
                    vault.swap,
                    (
                        IBalancerRogueVault.SingleSwap(poolId, 0, request.tokenIn, request.tokenOut, request.amount, ""),
                        IBalancerRogueVault.FundManagement(request.from, false, address(this), false),
                        0,
                        block.timestamp
                    )
                )
            );
        } else if (m == REENTER_EXECUTOR) {
            _attempt(executor, payload);
        }
        return balanceTokenOut / 1000;
    }

    function _attempt(address target, bytes memory data) private {
        attempts++;
        (bool ok, bytes memory answer) = target.call(data);
        if (ok) successes++;
        lastReturn = answer;
    }

    // The weighted-pool getters a reader asks for: this pool answers like a 50/50 weighted pool.

    function getPoolId() external view returns (bytes32) {
        return poolId;
    }

    function getNormalizedWeights() external pure returns (uint256[] memory weights) {
        weights = new uint256[](2);
        weights[0] = 5e17;
        weights[1] = 5e17;
    }

    function getScalingFactors() external pure returns (uint256[] memory factors) {
        factors = new uint256[](2);
        factors[0] = 1e18;
        factors[1] = 1e18;
    }

    function getSwapFeePercentage() external pure returns (uint256) {
        return 1e12;
    }

    function getPausedState() external pure returns (bool, uint256, uint256) {
        return (false, 0, 0);
    }
}
