/**
 * Runs a Postman collection with Newman, Postman's own command-line runner
 * (a test-only package), and prints its counts as one JSON line:
 * `{"requests": N, "failedRequests": N, "assertions": N, "failedAssertions": N}`.
 * Run in a process of its own, since Newman keeps timers and sockets of its own:
 * `deno run -A tests/support/newman_run.ts COLLECTION.json [--data=FILE] NAME=VALUE...`.
 *
 * @module
 */
import newman from "newman";

/** Newman's run summary, as far as the counts go. */
interface Stats {
  requests: { total: number; failed: number };
  assertions: { total: number; failed: number };
}

if (import.meta.main) {
  const [collection, ...args] = Deno.args;
  // `--data=FILE`: Newman's `-d`, a data file whose rows are its iterations.
  const iterationData = args.find((a) => a.startsWith("--data="))?.slice("--data=".length);
  const vars = args.filter((a) => !a.startsWith("--data="));
  const envVar = vars.map((pair) => {
    const at = pair.indexOf("=");
    return { key: pair.slice(0, at), value: pair.slice(at + 1) };
  });
  const stats = await new Promise<Stats>((resolve, reject) =>
    newman.run(
      {
        collection: JSON.parse(Deno.readTextFileSync(collection)),
        envVar,
        reporters: [],
        ...(iterationData ? { iterationData } : {}),
      },
      (error: unknown, summary: { run: { stats: Stats } }) =>
        error ? reject(error) : resolve(summary.run.stats),
    )
  );
  console.log(JSON.stringify({
    requests: stats.requests.total,
    failedRequests: stats.requests.failed,
    assertions: stats.assertions.total,
    failedAssertions: stats.assertions.failed,
  }));
  Deno.exit(0);
}
