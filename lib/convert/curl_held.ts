/**
 * A command whose query asks the server to take its time: Go's profiles
 * (`/debug/pprof/profile?seconds=30`, `/debug/pprof/all?cpu=30s`), a
 * database's request tracker (`/debug/requests?seconds=60`), long polls and
 * blocking reads (`?wait=5m`, `?timeout=60`). curl has no time limit unless
 * told (`--max-time`), so the docs' command waits for the answer; the flow's
 * request gave up at the runner's 30 s and the step failed. Such a step's
 * timeout is the asked duration plus the runner's default, so the answer
 * has as long as any other step's once the server's work is done.
 *
 * @module
 */
import { DEFAULT_TIMEOUT_MS } from "../run/options.ts";

/** A query name that holds a time in seconds when it is a bare number. */
const SECONDS_NAME = /^(?:.*[_-])?(?:seconds?|secs?|timeout|wait|duration|sleep|delay)$/i;

/** A duration written with its unit (`30s`, `500ms`, `5m`, `1h`). */
const WITH_UNIT = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/** A held answer takes seconds or minutes; a longer value (`since=24h`) is a range, not a wait. */
const LONGEST_MS = 10 * 60_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The longest time `url`'s query asks the server to hold its answer, in
 * milliseconds: a value with a unit under any name, a bare number under a
 * name of seconds; `undefined` when none, or longer than ten minutes.
 *
 * @example
 * ```ts
 * import { heldMs } from "./curl_held.ts";
 * if (heldMs(new URL("http://a.test/debug/requests?seconds=60")) !== 60_000) throw new Error();
 * if (heldMs(new URL("http://a.test/debug/pprof/all?cpu=30s")) !== 30_000) throw new Error();
 * if (heldMs(new URL("http://a.test/query?db=mydb&epoch=s")) !== undefined) throw new Error();
 * if (heldMs(new URL("http://a.test/logs?since=24h")) !== undefined) throw new Error();
 * ```
 */
export function heldMs(url: URL): number | undefined {
  let held: number | undefined;
  for (const [name, value] of url.searchParams) {
    const unit = WITH_UNIT.exec(value);
    const ms = unit
      ? Number(unit[1]) * UNIT_MS[unit[2]]
      : SECONDS_NAME.test(name) && /^\d+(?:\.\d+)?$/.test(value)
      ? Number(value) * 1000
      : undefined;
    if (ms !== undefined && ms > 0 && ms <= LONGEST_MS) held = Math.max(held ?? 0, ms);
  }
  return held;
}

/**
 * The step's `timeout` for `url`: the held duration plus the runner's
 * default, unless the command set one (`--max-time`) or asks for no wait.
 *
 * @example
 * ```ts
 * import { heldTimeout } from "./curl_held.ts";
 * const url = new URL("http://a.test/debug/requests?seconds=60");
 * if (heldTimeout(url, undefined) !== "90s") throw new Error();
 * if (heldTimeout(url, "5000ms") !== "5000ms") throw new Error();
 * if (heldTimeout(new URL("http://a.test/ping"), undefined) !== undefined) throw new Error();
 * ```
 */
export function heldTimeout(url: URL, given: string | undefined): string | undefined {
  if (given !== undefined) return given;
  const ms = heldMs(url);
  return ms === undefined ? undefined : `${Math.ceil((ms + DEFAULT_TIMEOUT_MS) / 1000)}s`;
}
