/**
 * Row numbers an action-style API hands out and takes back in the query: each call names its
 * resource and its action after a colon (`POST /api/users:create` → `{"data": {"id": 2}}`),
 * and the other actions address that row by a query value (`/api/users:get?filterByTk=2`,
 * `users:update?filterByTk=2`, `users:destroy?filterByTk=2`). A number that small is no
 * evidence on its own (a page, a size), so it is taken only when a create on the same
 * resource answered it and either the query key is id-named (`userId`) or an answer of that
 * resource, to a request sending the same key and number, showed it as the id of the one row
 * it returned (the `get`): then the key names the resource's rows. A page equal to a row's
 * number (a list answers many rows) stays as recorded, as does a number sent to another
 * resource.
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { isIdKey } from "../values.ts";
import { actionResource, createdOnAction } from "./created_ids.ts";
import type { Correlator } from "./state.ts";

/**
 * The create that answered the number `value` a request to an action path sends under the query
 * key `name`, when the key names that resource's rows (see the module), else undefined.
 *
 * @example
 * ```ts
 * import { actionQueryIdProducer } from "./action_rows.ts";
 * import { noteCreatedIds } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const made = { method: "POST", status: 200, url: new URL("http://a.test/api/users:create"), hasJson: true, json: { data: { id: 2 } } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last: made } as any);
 * const get = { last: { url: new URL("http://a.test/api/users:get?filterByTk=2"), json: { data: { id: 2 } } } };
 * const list = { last: { url: new URL("http://a.test/api/users:list?page=2"), json: { data: [{ id: 1 }, { id: 2 }] } } };
 * // deno-lint-ignore no-explicit-any
 * if (actionQueryIdProducer(c, "filterByTk", "2", get as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (actionQueryIdProducer(c, "page", "2", list as any) !== undefined) throw new Error();
 * ```
 */
export function actionQueryIdProducer(
  c: Correlator,
  name: string,
  value: string,
  step: Step,
): Producer | undefined {
  // A step made by hand (a flow's template, no record behind it) names no resource.
  if (!/^\d{1,15}$/.test(value) || step.last === undefined) return undefined;
  const path = step.last.url.pathname;
  const found = createdOnAction(c, path, String(Number(value)));
  if (found === undefined || found.producer.step === step) return undefined;
  const resource = actionResource(path);
  const keyed = (s: Step) =>
    actionResource(s.last.url.pathname) === resource &&
    s.last.url.searchParams.get(name) === value && oneRow(s.last.json, Number(value));
  return isIdKey(name) || keyed(step) || c.steps.some(keyed) ? found.producer : undefined;
}

/**
 * Whether an answer is one row whose id-named member is `n`, itself or as a member of it, alone
 * or as a list of one (`{"data": {"id": 2}}`, `{"data": [{"id": 2}]}`).
 */
function oneRow(json: unknown, n: number): boolean {
  if (!isObject(json)) return false;
  return [json, ...Object.values(json)].some((v) => {
    const row = Array.isArray(v) && v.length === 1 ? v[0] : v;
    return isObject(row) && Object.entries(row).some(([k, id]) => id === n && isIdKey(k));
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
