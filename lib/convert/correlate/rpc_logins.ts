/**
 * A JSON-RPC login's password, which no field name gives away: Deluge's web
 * UI sends `{"method":"auth.login","params":["deluge"],"id":2}`, and its
 * password input is built by a script, so no recorded page declares it.
 * What the recording says instead: the call's method is a login's by its
 * last word, and its answer set a cookie (the session every later call
 * sends). The last string parameter of such a call is the password the user
 * typed (a user name, when there is one, comes first): asked for as
 * `LOGIN_PASSWORD`, never written.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody } from "../json.ts";
import type { Step } from "../model.ts";
import type { YMap } from "../yaml_out.ts";
import { type Correlator, secretEnv } from "./state.ts";
import { batchCalls } from "./rpc_batch.ts";

/** A method's last word (after `.`, `/` or `:`) that names a login. */
const LOGIN_METHOD = /(?:^|[./:])(?:log_?in|sign_?in|authenticate|auth_?login)$/i;

/** Where a JSON-RPC login sends its password: the parameter's index and value. */
export interface RpcPassword {
  method: string;
  index: number;
  value: string;
}

/**
 * The password `r` sends, when `r` is a JSON-RPC login (its `json` body parsed) whose answer
 * set a cookie; else `undefined`.
 *
 * @example
 * ```ts
 * import { rpcPassword } from "./rpc_logins.ts";
 * const r = { setCookies: [{ name: "sid", value: "1" }] };
 * const body = { method: "auth.login", params: ["s3cret"], id: 1 };
 * // deno-lint-ignore no-explicit-any
 * if (rpcPassword(r as any, body)?.value !== "s3cret") throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (rpcPassword({ setCookies: [] } as any, body) !== undefined) throw new Error();
 * ```
 */
export function rpcPassword(r: HarRecord, body: unknown): RpcPassword | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (typeof method !== "string" || !LOGIN_METHOD.test(method) || !Array.isArray(params)) {
    return undefined;
  }
  if (r.setCookies.length === 0) return undefined;
  const index = params.findLastIndex((p) => typeof p === "string" && p !== "");
  return index < 0 ? undefined : { method, index, value: params[index] as string };
}

/**
 * Whether `r` is a JSON-RPC login (see {@linkcode rpcPassword}), read from its recorded body.
 *
 * @example
 * ```ts
 * import { isRpcLogin } from "./rpc_logins.ts";
 * const r = { bodyText: '{"method":"auth.login","params":["s3cret"]}', setCookies: [{ name: "sid", value: "1" }] };
 * // deno-lint-ignore no-explicit-any
 * if (!isRpcLogin(r as any)) throw new Error();
 * ```
 */
export function isRpcLogin(r: HarRecord): boolean {
  const batch = batchCalls(r);
  if (batch) return batch.some((call) => rpcPassword(r, call) !== undefined);
  if (!r.bodyText || !/^\s*\{/.test(r.bodyText)) return false;
  try {
    return rpcPassword(r, parseBody(r.bodyText)) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Puts the `LOGIN_PASSWORD` variable in place of the password `step`'s body
 * sends, when `r` is a JSON-RPC login (`body` its parsed JSON).
 *
 * @example
 * ```ts
 * import { askRpcPassword } from "./rpc_logins.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import { ymap } from "../yaml_out.ts";
 * const c = newCorrelator("a");
 * const body = { method: "login", params: ["ann", "s3cret"] };
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "login", body: ymap([["method", "login"], ["params", ["ann", "s3cret"]]]) } as any;
 * // deno-lint-ignore no-explicit-any
 * askRpcPassword(c, { setCookies: [{ name: "sid", value: "1" }] } as any, body, step);
 * if (!c.env.has("LOGIN_PASSWORD") || step.body.entries[1][1][0] !== "ann") throw new Error();
 * ```
 */
export function askRpcPassword(c: Correlator, r: HarRecord, body: unknown, step: Step): void {
  if (!Array.isArray(body)) return askInCall(c, rpcPassword(r, body), step.body, step);
  // A batch: each login among its calls, in the body's member of the same place.
  if (!batchCalls(r) || !Array.isArray(step.body)) return;
  const members = step.body;
  body.forEach((call, i) => askInCall(c, rpcPassword(r, call), members[i], step));
}

/** Puts `LOGIN_PASSWORD` in place of `password` in the `params` of `call`, one call's body. */
function askInCall(c: Correlator, password: RpcPassword | undefined, call: unknown, step: Step) {
  // Only an object (a YMap) has the `params` entry; a list is no JSON-RPC call.
  const entries = password && !Array.isArray(call) ? (call as YMap)?.entries : undefined;
  const params = Array.isArray(entries) ? entries.find(([k]) => k === "params")?.[1] : undefined;
  if (!password || !Array.isArray(params)) return;
  const about =
    `the password step "${step.name}" sends (parameter ${password.index} of its "${password.method}" call)`;
  c.replaced.secrets++;
  params[password.index] = c.sp.envRef(secretEnv(c, "LOGIN_PASSWORD", password.value, about));
}
