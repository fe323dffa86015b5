/**
 * Small row ids a JSON-RPC endpoint's listing answered and a later call sends among its
 * positional `params`: NZBGet's `listgroups` answers `{"result": [{"NZBID": 1, …}]}` and
 * `editqueue` sends `{"method": "editqueue", "params": ["GroupSetName", "new name", [1]]}`.
 * A positional parameter has no name to say it is an id, and a number that small is no
 * evidence alone, so the evidence is the listing's: a row's whole number under a key that
 * names an id (`id`, `NZBID`, `groupId`, `group_id`), answered by the same endpoint (its path,
 * or a path right below it, where a read puts the method: `GET /jsonrpc/listgroups`). The
 * latest such answer before the call is the source, the row picked by a field that tells it
 * apart (`captures.ts`). Sent as recorded, a second run on the same instance edits the first
 * run's row, which it deleted (`result: false`).
 *
 * @module
 */
import { isObject } from "../_har_fields.ts";
import { parseBody } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import { listsOf } from "./listed_rows.ts";
import type { Correlator } from "./state.ts";

/** A key that names a row's id: `id`, or a word and `ID`/`Id`/`_id`. */
const ID_KEY = /^(?:id|[A-Za-z][A-Za-z0-9]*?(?:ID|Id|_id))$/;

/** Each correlator's listed ids, by `path\0number`: the latest answer that listed each. */
const listed = new WeakMap<Correlator, Map<string, Producer>>();

/**
 * Notes the rows a 2xx JSON answer listed with a whole-number id under an id-named key.
 *
 * @example
 * ```ts
 * import { noteRpcListedIds, rpcListedProducer } from "./rpc_listed_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const json = { result: [{ NZBID: 4, NZBName: "show" }] };
 * const list = { last: { status: 200, url: new URL("http://a.test/jsonrpc/listgroups"), hasJson: true, json } };
 * // deno-lint-ignore no-explicit-any
 * noteRpcListedIds(c, list as any);
 * const body = JSON.stringify({ method: "editqueue", params: ["GroupDelete", "", [4]] });
 * const edit = { last: { url: new URL("http://a.test/jsonrpc"), bodyText: body } };
 * // deno-lint-ignore no-explicit-any
 * if (rpcListedProducer(c, "params", 4, edit as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (rpcListedProducer(c, "params", 5, edit as any) !== undefined) throw new Error();
 * ```
 */
export function noteRpcListedIds(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || r.status === undefined || r.status < 200 || r.status > 299) return;
  const ids = listed.get(c) ?? new Map<string, Producer>();
  listed.set(c, ids);
  const path = `${r.url.origin}${r.url.pathname}`;
  for (const [at, rows] of listsOf(r.json)) {
    rows.slice(0, 500).forEach((row, i) => {
      if (!isObject(row)) return;
      for (const [key, id] of Object.entries(row)) {
        if (!ID_KEY.test(key) || !Number.isInteger(id) || (id as number) < 1) continue;
        const source = { kind: "json" as const, path: [...at, i, key] };
        ids.set(`${path}\u0000${id}`, { step, source, secret: false });
      }
    });
  }
}

/**
 * The answer that listed the row `value`, a whole number `step`'s JSON-RPC call sends among
 * its positional `params` (`key` is `params`), when the same endpoint listed it; else
 * undefined.
 *
 * @example
 * ```ts
 * import { rpcListedProducer } from "./rpc_listed_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const edit = { last: { url: new URL("http://a.test/jsonrpc"), bodyText: '{"method":"x","params":[1]}' } };
 * // deno-lint-ignore no-explicit-any
 * if (rpcListedProducer(emptyCorrelator("a", true), "params", 1, edit as any) !== undefined) {
 *   throw new Error("no answer listed row 1");
 * }
 * ```
 */
export function rpcListedProducer(
  c: Correlator,
  key: string,
  value: number,
  step: Step,
): Producer | undefined {
  if (key !== "params" || !Number.isInteger(value) || value < 1) return undefined;
  const ids = listed.get(c);
  if (ids === undefined || !isRpcCall(step.last.bodyText)) return undefined;
  const path = `${step.last.url.origin}${step.last.url.pathname}`.replace(/\/$/, "");
  let found: Producer | undefined;
  for (const [k, p] of ids) {
    const [at, id] = k.split("\u0000");
    if (id !== String(value) || p.step === step) continue;
    const under = at === path ||
      (at.startsWith(`${path}/`) && !at.slice(path.length + 1).includes("/"));
    // The latest answer that listed it: steps are met in order, so the last one kept wins.
    if (under && (found === undefined || c.steps.indexOf(p.step) > c.steps.indexOf(found.step))) {
      found = p;
    }
  }
  return found;
}

/** Whether a request body is a JSON-RPC call with positional parameters. */
function isRpcCall(text: string | undefined): boolean {
  if (!text || !/^\s*\{/.test(text) || !text.includes('"params"')) return false;
  try {
    const body = parseBody(text) as { method?: unknown; params?: unknown };
    return typeof body.method === "string" && Array.isArray(body.params);
  } catch {
    return false;
  }
}
