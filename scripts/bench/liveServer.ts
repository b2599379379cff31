// The example server on the live source under load (issue 13: server throughput and p99 with the
// live source on a devnet). UNFINISHED: it needs examples/server to take an RPC URL and serve
// quotes from createLiveSource (LIVE-OPS's part); until then this section says so and measures
// nothing. Runnable alone: `npm run bench:live -- server`.

/**
 * Runs the server section (not measured yet: see the file header).
 *
 * @example
 * await runLiveServerBench()
 */
export async function runLiveServerBench(): Promise<void> {
  console.log('  UNFINISHED: examples/server does not serve the live source yet (LIVE-OPS); nothing measured')
}
