// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title PancakeDevnetPoolDeployer
/// @notice Stands in for PancakeSwap's PancakeV3PoolDeployer on the devnet: the pancakeswap v3-core package
///         ships the factory and pool artifacts but not the deployer's. It behaves as the real one
///         does for PancakeV3Factory and PancakeV3Pool: only the factory may call `deploy`, which
///         publishes the pool parameters in `parameters()` (the pool's constructor reads them from
///         msg.sender), CREATE2-deploys the pool's creation code with salt
///         keccak256(abi.encode(token0, token1, fee)) and clears them again. The pool's creation
///         code is the npm artifact's, unchanged, so pools land at the addresses the init-code hash
///         predicts.
/// @dev Solidity cannot `new` a contract it has no source for, so the creation code lives as the
///      runtime code of a separate holder contract (23.5 kB, under the 24,576-byte limit) and is
///      copied from there on each deploy.
contract PancakeDevnetPoolDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    /// @notice Read by PancakeV3Pool's constructor; set only for the duration of `deploy`.
    Parameters public parameters;
    address public factoryAddress;
    /// @notice The contract whose code is PancakeV3Pool's creation code.
    address public immutable poolCodeHolder;
    address private immutable _owner;

    error NotOwner();
    error AlreadyInitialized();
    error OnlyFactory();
    error DeployFailed();

    constructor(address poolCodeHolder_) {
        poolCodeHolder = poolCodeHolder_;
        _owner = msg.sender;
    }

    function setFactoryAddress(address factory) external {
        if (msg.sender != _owner) revert NotOwner();
        if (factoryAddress != address(0)) revert AlreadyInitialized();
        factoryAddress = factory;
    }

    function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing)
        external
        returns (address pool)
    {
        if (msg.sender != factoryAddress) revert OnlyFactory();
        parameters = Parameters(factory, token0, token1, fee, tickSpacing);
        bytes memory initCode = poolCodeHolder.code;
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        assembly ("memory-safe") {
            pool := create2(0, add(initCode, 0x20), mload(initCode), salt)
        }
        if (pool == address(0)) revert DeployFailed();
        delete parameters;
    }
}

interface IPancakeV3PoolMinimal {
    function token0() external view returns (address);
    function token1() external view returns (address);

    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);

    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title PancakeV3LiquidityProvider
/// @notice Test helper that lets an EOA add liquidity to, and swap on, a raw PancakeV3Pool (whose
///         callbacks are `pancakeV3MintCallback` / `pancakeV3SwapCallback`). The caller pays through
///         `transferFrom`, so it approves this contract for both tokens first.
/// @dev Only the pool this contract is calling right now may call back, and it can only pull from
///      the account that started the call (both held in transient storage for the call).
contract PancakeV3LiquidityProvider {
    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    address private transient _pool;
    address private transient _payer;

    error UnexpectedCallback(address caller);
    error TransferFromFailed(address token, address from, address to, uint256 amount);
    error Reentered();

    /// @notice Adds `liquidity` in [tickLower, tickUpper) to `pool`, owned by `recipient`.
    function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        _enter(pool);
        (amount0, amount1) = IPancakeV3PoolMinimal(pool).mint(recipient, tickLower, tickUpper, liquidity, "");
        _pool = address(0);
    }

    /// @notice A raw pool swap paid by the caller. `amountSpecified` > 0: exact input; < 0: exact
    ///         output. `sqrtPriceLimitX96` = 0 means no limit.
    function swap(address pool, address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96)
        external
        returns (int256 amount0, int256 amount1)
    {
        if (sqrtPriceLimitX96 == 0) sqrtPriceLimitX96 = zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1;
        _enter(pool);
        (amount0, amount1) =
            IPancakeV3PoolMinimal(pool).swap(recipient, zeroForOne, amountSpecified, sqrtPriceLimitX96, "");
        _pool = address(0);
    }

    function pancakeV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        address payer = _checkedPayer();
        if (amount0Owed > 0) _pull(IPancakeV3PoolMinimal(msg.sender).token0(), payer, amount0Owed);
        if (amount1Owed > 0) _pull(IPancakeV3PoolMinimal(msg.sender).token1(), payer, amount1Owed);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        address payer = _checkedPayer();
        if (amount0Delta > 0) _pull(IPancakeV3PoolMinimal(msg.sender).token0(), payer, uint256(amount0Delta));
        if (amount1Delta > 0) _pull(IPancakeV3PoolMinimal(msg.sender).token1(), payer, uint256(amount1Delta));
    }

    function _enter(address pool) private {
        if (_pool != address(0)) revert Reentered();
        _pool = pool;
        _payer = msg.sender;
    }

    function _checkedPayer() private view returns (address) {
        if (_pool == address(0) || msg.sender != _pool) revert UnexpectedCallback(msg.sender);
        return _payer;
    }

    function _pull(address token, address from, uint256 amount) private {
        if (token.code.length == 0) revert TransferFromFailed(token, from, msg.sender, amount);
        (bool ok, bytes memory data) =
            token.call(abi.encodeCall(IERC20TransferFrom.transferFrom, (from, msg.sender, amount)));
        if (!ok || (data.length != 0 && !abi.decode(data, (bool)))) {
            revert TransferFromFailed(token, from, msg.sender, amount);
        }
    }
}
