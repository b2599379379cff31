/** `weft --help`. */
export const mainUsage = `usage: weft <command> [options]

commands:
  quote    quote a swap (weft quote --help)
  chains   list the chains weft quotes on

options:
  -h, --help   show this help`

/** `weft quote --help`. */
export const quoteUsage = `usage: weft quote --chain <name|id> --sell <token> --buy <token> (--amount <n> | --buy-amount <n>) [options]

Quotes a swap on the embedded default snapshot (synthetic liquidity, no network),
or on a node with --rpc, and prints a summary with the route tree.

  --chain <name|id>       base, ethereum, ... or a chain id (weft chains lists them)
  --sell <token>          token to sell: a symbol of the chain's token list, the native
                          symbol (ETH) for the native token, or an address
  --buy <token>           token to buy (same forms)
  --amount <n>            amount to sell, in human units of the sell token (1.5)
  --buy-amount <n>        amount to buy (exact output), in human units of the buy token
  --rpc <url>             read pools from this JSON-RPC node instead of the snapshot
  --from <address>        the account that will send the fill (sharpens the gas estimate)
  --simulate              with --rpc and --from: simulate the approval and the fill on the
                          node (simulateQuote) and print what the receiver gets, each fee,
                          the gas used and a gas limit (+25%) beside the quote; a revert is
                          printed decoded (exit code 1)
  --json                  print the Quote JSON (the wire body of GET /v1/quote)
  --app-id <id>           the x-app-id of the request
  -h, --help              show this help

Every quote parameter of the API is also an option under its own name, in its
own form: --chainId, --sellToken, --buyToken, --sellAmount and --buyAmount (raw
base-10 units), --slippageBps (default 100), --priceImpactLimitBps (default 1000),
--receiver, --feeBps, --feeRecipient, --surplusFeeBps, --surplusFeeRecipient,
--referralFeeBps, --referralFeeRecipient, --x-app-id.

Exit codes: 0 quoted, 1 the quote failed (error <status> <code>: <message>),
2 bad usage.

examples:
  weft quote --chain base --sell WETH --buy USDC --amount 1.5
  weft quote --chain base --rpc http://127.0.0.1:8545 --sell WETH --buy USDC --amount 1.5 --simulate --from 0x…`

/** `weft chains --help`. */
export const chainsUsage = `usage: weft chains [--json]

Lists the chains weft quotes on (listChains): id, name, and the --chain value.
  --json   print the listChains() body as JSON`
