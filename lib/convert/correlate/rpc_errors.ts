/**
 * A JSON-RPC call's answer tells a failure in its body, not its status:
 * Deluge's web UI answers `{result, error, id}` with HTTP 200 even when it
 * refuses a call (`error: {message, code}`), and JSON-RPC 2.0 answers carry
 * either `result` or `error`. What the recording shows: a request body that
 * is a JSON-RPC call (a `method` string with `params` or `id`, or a
 * `jsonrpc` member) answered `error: null` (or, JSON-RPC 2.0, with no
 * `error` member at all) succeeded; a replay whose answer holds an error
 * must fail there. A key named `error` alone is no such evidence.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody } from "../json.ts";
import type { Check } from "../model.ts";
import { batchErrorChecks } from "./rpc_batch.ts";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether `r`'s request body is one JSON-RPC call (an object, not a batch). */
function isRpcCall(r: HarRecord): boolean {
  if (!r.bodyText || !/^\s*\{/.test(r.bodyText)) return false;
  try {
    const body = parseBody(r.bodyText);
    if (!isObject(body) || typeof body.method !== "string") return false;
    return "jsonrpc" in body || "params" in body || "id" in body;
  } catch {
    return false;
  }
}

/**
 * The check that `r`'s answer holds no error, when `r` is a JSON-RPC call
 * whose recorded answer had none; `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { rpcErrorCheck } from "./rpc_errors.ts";
 * const call = { bodyText: '{"method":"web.connected","params":[],"id":1}', hasJson: true, json: { result: true, error: null, id: 1 } };
 * // deno-lint-ignore no-explicit-any
 * if (rpcErrorCheck(call as any)?.op !== "equals") throw new Error();
 * const v2 = { bodyText: '{"jsonrpc":"2.0","method":"ping","id":1}', hasJson: true, json: { jsonrpc: "2.0", result: 1, id: 1 } };
 * // deno-lint-ignore no-explicit-any
 * if (rpcErrorCheck(v2 as any)?.op !== "exists") throw new Error();
 * const form = { bodyText: '{"text":"hi"}', hasJson: true, json: { saved: true, error: null } };
 * // deno-lint-ignore no-explicit-any
 * if (rpcErrorCheck(form as any) !== undefined) throw new Error();
 * ```
 */
export function rpcErrorCheck(r: HarRecord): Check | undefined {
  if (!r.hasJson || !isObject(r.json) || !isRpcCall(r)) return undefined;
  const answer = r.json;
  if (Object.hasOwn(answer, "error")) {
    return answer.error === null ? { path: ["error"], op: "equals", value: null } : undefined;
  }
  // JSON-RPC 2.0: an answer holds `result` or `error`, never both; one with a result succeeded.
  const v2 = answer.jsonrpc === "2.0" && Object.hasOwn(answer, "result");
  return v2 ? { path: ["error"], op: "exists", value: false } : undefined;
}

/**
 * Adds {@linkcode rpcErrorCheck}'s check to `checks`, unless one on `error` is there already,
 * and for a batch one check per member (rpc_batch.ts).
 *
 * @example
 * ```ts
 * import { checkRpcError } from "./rpc_errors.ts";
 * import type { Check } from "../model.ts";
 * const call = { bodyText: '{"method":"a","id":1}', hasJson: true, json: { result: 1, error: null } };
 * const checks: Check[] = [];
 * // deno-lint-ignore no-explicit-any
 * checkRpcError(call as any, checks);
 * // deno-lint-ignore no-explicit-any
 * checkRpcError(call as any, checks);
 * if (checks.length !== 1) throw new Error();
 * ```
 */
export function checkRpcError(r: HarRecord, checks: Check[]): void {
  // A batch's members, each by its `id` (rpc_batch.ts).
  const written = new Set(checks.map((k) => JSON.stringify(k.path)));
  checks.push(...batchErrorChecks(r).filter((k) => !written.has(JSON.stringify(k.path))));
  const check = rpcErrorCheck(r);
  const already = checks.some((k) => !k.xpath && k.path.length === 1 && k.path[0] === "error");
  if (check && !already) checks.push(check);
}
