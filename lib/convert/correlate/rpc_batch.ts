/**
 * A JSON-RPC 2.0 batch: a request body that is a list of calls (`{jsonrpc, method, params, id}`),
 * answered by a list of their answers, each with its call's `id`. The specification lets a server
 * answer the members in any order, so the recorded order is no evidence: a value a member's
 * answer produced is read by its `id` (`$.json[?@.id == 4].result.note_id`), never by its place
 * in the list, and each member's answer is checked for an `error` as a single call's is
 * (rpc_errors.ts), since a refused member comes with HTTP 200 like the rest.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Check, JsonPath } from "../model.ts";
import { parseBody } from "../json.ts";

type Member = Record<string, unknown>;

const isObject = (v: unknown): v is Member =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Each record's batch, parsed once: many stages ask. */
const parsed = new WeakMap<HarRecord, Member[] | null>();

/**
 * The calls of `r`'s request body when it is a JSON-RPC batch (a list of objects, each with a
 * `method` string); `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { batchCalls } from "./rpc_batch.ts";
 * const r = (bodyText: string) => ({ bodyText });
 * // deno-lint-ignore no-explicit-any
 * if (batchCalls(r('[{"jsonrpc":"2.0","method":"a","id":1}]') as any)?.length !== 1) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (batchCalls(r('[{"name":"a"}]') as any) || batchCalls(r('{"method":"a"}') as any)) throw new Error();
 * ```
 */
export function batchCalls(r: HarRecord): Member[] | undefined {
  if (!parsed.has(r)) parsed.set(r, readBatch(r.bodyText));
  return parsed.get(r) ?? undefined;
}

function readBatch(text: string | undefined): Member[] | null {
  if (!text || !/^\s*\[/.test(text)) return null;
  try {
    const body = parseBody(text);
    const calls = Array.isArray(body) && body.length > 0 &&
      body.every((m) => isObject(m) && typeof m.method === "string");
    return calls ? body : null;
  } catch {
    return null;
  }
}

/** An `id` a filter can name: a string or a finite number. */
const isId = (v: unknown): v is string | number =>
  typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/**
 * The filter that picks `item` of a batch's answer `list` by its `id`, when `r` sent a batch
 * and no other member shares that `id`; `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { memberById } from "./rpc_batch.ts";
 * const r = { bodyText: '[{"method":"a","id":3},{"method":"b","id":4}]' };
 * const list = [{ result: 0, id: 3 }, { result: { note: "n1" }, id: 4 }];
 * // deno-lint-ignore no-explicit-any
 * if (memberById(r as any, list, list[1])?.value !== 4) throw new Error();
 * ```
 */
export function memberById(
  r: HarRecord,
  list: unknown[],
  item: unknown,
): { key: string; value: string | number } | undefined {
  if (!batchCalls(r) || !isObject(item) || !isId(item.id)) return undefined;
  const same = list.filter((m) => isObject(m) && m.id === item.id);
  return same.length === 1 ? { key: "id", value: item.id } : undefined;
}

/**
 * One check per member of `r`'s recorded batch answer that succeeded: JSON-RPC 2.0's shape (a
 * `result`, no `error`) checks that the member holds no `error`; an `error: null` checks that
 * it holds no error's `message`. A member that failed when recorded gets none.
 *
 * @example
 * ```ts
 * import { batchErrorChecks } from "./rpc_batch.ts";
 * const r = {
 *   bodyText: '[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b","id":2}]',
 *   hasJson: true,
 *   json: [{ jsonrpc: "2.0", result: 1, id: 1 }, { jsonrpc: "2.0", error: { code: 1, message: "no" }, id: 2 }],
 * };
 * // deno-lint-ignore no-explicit-any
 * const checks = batchErrorChecks(r as any);
 * if (checks.length !== 1 || JSON.stringify(checks[0].path) !== '[{"key":"id","value":1},"error"]') throw new Error();
 * ```
 */
export function batchErrorChecks(r: HarRecord): Check[] {
  const answer = r.json;
  if (!r.hasJson || !Array.isArray(answer) || !batchCalls(r)) return [];
  const checks: Check[] = [];
  for (const member of answer) {
    const filter = memberById(r, answer, member);
    if (!filter || !isObject(member)) continue;
    if (!Object.hasOwn(member, "error")) {
      if (Object.hasOwn(member, "result")) checks.push(noneAt([filter, "error"]));
    } else if (member.error === null) checks.push(noneAt([filter, "error", "message"]));
  }
  return checks;
}

const noneAt = (path: JsonPath): Check => ({ path, op: "exists", value: false });
