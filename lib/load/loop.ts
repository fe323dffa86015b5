/**
 * A step's `loop`: bounded polling, `max_attempts`, `sleep_ms` and `until`.
 *
 * @module
 */
import { MAX_ATTEMPTS, MAX_SLEEP_MS } from "../model/limits.ts";
import type { Node } from "yaml";
import type { Checks, Loop } from "../model/flow.ts";
import { loadChecks } from "./checks.ts";
import type { Loading } from "./context.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import type { StatusRange } from "../kinds/mod.ts";

/** The pause between polling attempts when `sleep_ms` is not given. */
export const DEFAULT_SLEEP_MS = 1000;

/**
 * A step's `loop`: `max_attempts` (required, bounded), `sleep_ms` and `until`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    loop: {max_attempts: 5, until: {status: 200}}\n",
 *   "f.yaml",
 * );
 * const loop = flow?.steps[0].loop;
 * if (loop?.maxAttempts !== 5 || loop.sleepMs !== 1000) throw new Error();
 * ```
 */
export function loadLoop(
  ctx: Loading,
  entry: Entry,
  label: string,
  owner: TemplateUse["owner"],
  statuses?: StatusRange,
): Loop | undefined {
  const what = `"loop" of ${label}`;
  const map = ctx.map(entry.value, what, "loop", ["max_attempts", "sleep_ms", "until"], {
    required: ["max_attempts", "until"],
    anchor: entry.keyNode,
  });
  if (!map) return undefined;
  const maxEntry = map.get("max_attempts");
  const maxAttempts = maxEntry &&
    ctx.integer(maxEntry, `"max_attempts" of ${label}`, 1, MAX_ATTEMPTS);
  const sleepEntry = map.get("sleep_ms");
  const sleepMs = sleepEntry
    ? ctx.duration(sleepEntry, `"sleep_ms" of ${label}`, 0, MAX_SLEEP_MS)
    : DEFAULT_SLEEP_MS;
  const untilEntry = map.get("until");
  const until = untilEntry &&
    loadChecks(ctx, untilEntry.value, `"loop.until" of ${label}`, owner, statuses);
  // A condition that failed to load is reported already; an empty one is the mistake here.
  if (until && untilEntry?.value && namesNoCheck(until, untilEntry.value)) {
    ctx.problem(
      "missing-key",
      `${what} has no condition in "until".`,
      untilEntry.value,
      "For example: until: {json: [{path: $.json.state, equals: ready}]}",
    );
  }
  if (maxAttempts === undefined || sleepMs === undefined || !until) return undefined;
  return { maxAttempts, sleepMs, until };
}

/** Whether a loaded `until` holds no check and its block names none either. */
function namesNoCheck(until: Checks, node: Node): boolean {
  return !until.status && until.paths.length === 0 && !until.schemas?.length &&
    !until.xpaths?.length && !hasChecks(node);
}

/** Whether an `until` block names any check at all (loaded or not). */
function hasChecks(node: unknown): boolean {
  const items = (node as { items?: { key?: { value?: unknown }; value?: { items?: unknown[] } }[] })
    ?.items ?? [];
  return items.some((p) =>
    p.key?.value === "status" ||
    ((p.key?.value === "json" || p.key?.value === "jsonpath") && (p.value?.items?.length ?? 0) > 0)
  );
}
