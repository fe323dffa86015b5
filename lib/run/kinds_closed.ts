/**
 * A run's end lets the step kinds close what they keep open between steps
 * (gRPC's channels, lib/kinds/grpc/channel.ts): a connection left idle after
 * the run is one a server's GOAWAY can reach, which aborts Deno 2.9.6
 * (denoland/deno#36788). Runs a library starts side by side share those
 * connections, so they close when the last run in progress ends.
 *
 * @module
 */
import { KINDS } from "../kinds/mod.ts";

/** Runs in progress in this process. */
let running = 0;

/**
 * Runs `run`, then, if no other run is in progress, closes what each kind
 * keeps open; gives what `run` gave (or throws what it threw).
 *
 * @example
 * ```ts
 * import { closingKinds } from "./kinds_closed.ts";
 * if (await closingKinds(() => Promise.resolve(7)) !== 7) throw new Error();
 * ```
 */
export async function closingKinds<T>(run: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await run();
  } finally {
    if (--running === 0) {
      for (const kind of KINDS) await kind.close?.().catch(() => {});
    }
  }
}
