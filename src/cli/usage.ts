/** `weft --help`. */
export const mainUsage = `usage: weft <command> [options]

commands:
  quote    quote a swap (weft quote --help)
  replay   quote again from a replay bundle (weft replay --help)
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
  --record <file>         also write a replay bundle of the quote to <file>: the pools,
                          tokens, block, gas price, intent, chain and clock it was made
                          on; weft replay <file> prints the same quote, with no node
  --watch                 with --rpc: follow the chain in memory (a live source tracking
                          the pair's and the major tokens' pools) and quote again at every
                          new block, one line per block (--json: one Quote per line),
                          until Ctrl-C or the end of the input (blocks mined between two
                          polls are quoted once, at the newest; run in the background, it
                          needs an open input, e.g. tail -f /dev/null | weft quote …)
  --from-block <n>        with --watch: first block to discover pools from (default 0;
                          on a long chain, a recent block or the factories' deployment)
  --interval <ms>         with --watch: how often to ask the node for a block (default 1000)
  --blocks <n>            with --watch: stop after quoting n blocks
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
  weft quote --chain base --rpc http://127.0.0.1:8545 --sell WETH --buy USDC --amount 1.5 --simulate --from 0x…
  weft quote --chain base --rpc http://127.0.0.1:8545 --sell WETH --buy USDC --amount 1.5 --watch`

/** `weft replay --help`. */
export const replayUsage = `usage: weft replay <bundle.json> [--json]

Computes a recorded quote again from its replay bundle (weft quote --record, or the
SDK's recordQuote), with no node and no clock, and prints it with whether it is
byte for byte the recorded quote. A bundle that is not valid is an error 400
naming the field.

  --json       print the replayed Quote JSON
  -h, --help   show this help

Exit codes: 0 replayed (the same quote as recorded), 1 the replay failed or gave
another quote, 2 bad usage.`

/** `weft chains --help`. */
export const chainsUsage = `usage: weft chains [--json]

Lists the chains weft quotes on (listChains): id, name, and the --chain value.
  --json   print the listChains() body as JSON`
