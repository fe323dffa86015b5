/**
 * A JSON-RPC read of state the journey changes: Deluge's web UI asks
 * `web.connected` (answered `false`), connects, and a later `web.update_ui`
 * answers `"connected": true`. A JSON-RPC answer's `result` is what the
 * method's last word names; when a later answer of the recording holds a
 * field of that name with another value, the recording itself shows that
 * state changing, so the result is no constant to pin with `equals` (a
 * second run on the same instance finds it changed).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, walk } from "../json.ts";
import type { Correlator } from "./state.ts";

/** The last word of a JSON-RPC method (`web.connected` → `connected`), if `r` is a call. */
function stateName(r: HarRecord): string | undefined {
  if (!r.bodyText || !/^\s*\{/.test(r.bodyText)) return undefined;
  try {
    const body = parseBody(r.bodyText) as { method?: unknown; params?: unknown };
    if (typeof body?.method !== "string" || !("params" in body)) return undefined;
    return body.method.split(/[./:]/).pop() || undefined;
  } catch {
    return undefined;
  }
}

/** The scalar `result` of a JSON-RPC answer, if any. */
function scalarResult(r: HarRecord): unknown {
  if (!r.hasJson || typeof r.json !== "object" || r.json === null) return undefined;
  const result = (r.json as { result?: unknown }).result;
  return typeof result === "object" ? undefined : result;
}

/**
 * Remembers the JSON-RPC calls of `records` (in order) whose scalar result a later answer holds
 * otherwise under the method's last word.
 *
 * @example
 * ```ts
 * import { changesLater, noteRpcStates } from "./rpc_state.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const read = { bodyText: '{"method":"web.connected","params":[]}', hasJson: true, json: { result: false } };
 * const later = { bodyText: '{"method":"web.update_ui","params":[]}', hasJson: true, json: { result: { connected: true } } };
 * // deno-lint-ignore no-explicit-any
 * noteRpcStates(c, [read, later] as any);
 * // deno-lint-ignore no-explicit-any
 * if (!changesLater(c, "result", read as any)) throw new Error();
 * ```
 */
export function noteRpcStates(c: Correlator, records: readonly HarRecord[]): void {
  const reads = records.map((r) => ({ name: stateName(r), value: scalarResult(r) }));
  const names = new Set(reads.filter((x) => x.value !== undefined).map((x) => x.name));
  if (names.size === 0) return;
  // Each answer walked once: the values it holds under those names.
  const held = records.map((r) => {
    const values: [string, unknown][] = [];
    if (r.hasJson) walk(r.json, (_p, key, leaf) => names.has(key) && values.push([key, leaf]));
    return values;
  });
  reads.forEach(({ name, value }, i) => {
    if (name === undefined || value === undefined) return;
    const otherwise = held.slice(i + 1).some((values) =>
      values.some(([k, v]) => k === name && v !== value && typeof v === typeof value)
    );
    if (otherwise) c.changingResults.add(records[i]);
  });
}

/**
 * Whether the answer `r`'s field `key` is a JSON-RPC result the recording shows changing later
 * (see {@linkcode noteRpcStates}).
 *
 * @example
 * ```ts
 * import { changesLater } from "./rpc_state.ts";
 * import { emptyCorrelator } from "./state.ts";
 * // deno-lint-ignore no-explicit-any
 * if (changesLater(emptyCorrelator("a", true), "result", {} as any)) throw new Error();
 * ```
 */
export function changesLater(c: Correlator, key: string, r: HarRecord): boolean {
  return key === "result" && c.changingResults.has(r);
}
