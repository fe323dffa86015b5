/**
 * Row ids a GraphQL create answered: every call goes to one path (`POST /graphql`), so the
 * path rules (`created_ids.ts`) cannot tell whose row a small id is, and a GraphQL `ID` comes
 * as a string of digits (`{"data": {"createShelf": {"id": "1", "__typename": "Shelf"}}}`).
 * The answer names the row's type in `__typename`; a later call names the type again: in a
 * key (`shelfId`, `shelfIds`), or, for a bare `id`/`ids` near the top of its variables, in the
 * root field it calls (`shelf(id: $id)`, `updateShelf(input: $input)`, `deleteShelves(ids:
 * $ids)`). An id of a type nothing created (`roomId`) and an id deeper in an input (a
 * translation's) stay as recorded.
 *
 * @module
 */
import { parseBody } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";

/** Where a type's created row is kept among the members. */
function typedKey(type: string, id: string): string {
  return `\u0001graphql\u0000${type.toLowerCase()}\u0000${id}`;
}

/** The type a key is named for: `shelfId`, `shelfIds` → `shelf`. */
function typeNamed(key: string): string | undefined {
  return /^(\w+?)Ids?$/.exec(key)?.[1];
}

/** The JSON body of a GraphQL call (a `query` text), or undefined. */
function graphqlCall(text: string | undefined): { query: string } | undefined {
  try {
    const json = text ? parseBody(text) : undefined;
    const ok = typeof json === "object" && json !== null && typeof json.query === "string";
    return ok ? json as { query: string } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Notes the rows a GraphQL mutation answered (2xx, no `errors`): an object, or the objects of a
 * list, right under `data`'s fields, with an `id` of digits and a `__typename`.
 *
 * @example
 * ```ts
 * import { graphqlIdProducer, noteGraphqlIds } from "./graphql_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const url = new URL("http://a.test/graphql");
 * const bodyText = JSON.stringify({ query: "mutation { createShelf { id } }" });
 * const json = { data: { createShelf: { id: "1", __typename: "Shelf" } } };
 * const last = { method: "POST", status: 200, url, bodyText, hasJson: true, json };
 * // deno-lint-ignore no-explicit-any
 * noteGraphqlIds(c, { last } as any);
 * const later = { last: { bodyText: JSON.stringify({ query: "query { shelf(id: $id) { id } }" }) } };
 * // deno-lint-ignore no-explicit-any
 * if (graphqlIdProducer(c, ["input", "shelfId"], "1", 3, later as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (graphqlIdProducer(c, ["input", "roomId"], "1", 3, later as any) !== undefined) throw new Error();
 * ```
 */
export function noteGraphqlIds(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || r.status === undefined || r.status < 200 || r.status > 299) return;
  const call = graphqlCall(r.bodyText);
  if (!call || !/^\s*mutation\b/.test(call.query)) return;
  const body = r.json as { data?: unknown; errors?: unknown } | null;
  if (!isObject(body) || body.errors !== undefined || !isObject(body.data)) return;
  const note = (path: (string | number)[], row: unknown) => {
    if (!isObject(row) || typeof row.__typename !== "string") return;
    if (typeof row.id !== "string" || !/^\d{1,15}$/.test(row.id)) return;
    const key = typedKey(row.__typename, row.id);
    if (c.members.has(key)) return;
    const producer: Producer = {
      step,
      source: { kind: "json", path: [...path, "id"] },
      secret: false,
    };
    c.members.set(key, { producer, under: r.url.pathname });
  };
  for (const [field, value] of Object.entries(body.data)) {
    if (Array.isArray(value)) value.forEach((row, i) => note(["data", field, i], row));
    else note(["data", field], value);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The create that answered the digits `value` a GraphQL call sends under `key` (in an object
 * under `parent`), `depth` keys below its body (`variables.input.id` is 3): a key named for a
 * created type (`shelfId`), a filter's operator under one (`{shelfId: {eq: "1"}}`), or
 * `id`/`ids` at most 3 deep when the call's root field is named for the type; else undefined.
 *
 * @example
 * ```ts
 * import { graphqlIdProducer } from "./graphql_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const step = { last: { bodyText: "{}" } };
 * // deno-lint-ignore no-explicit-any
 * if (graphqlIdProducer(emptyCorrelator("a", true), ["", "id"], "1", 2, step as any)) throw new Error();
 * ```
 */
export function graphqlIdProducer(
  c: Correlator,
  keys: [parent: string, key: string],
  value: string,
  depth: number,
  step: Step,
): Producer | undefined {
  if (!/^\d{1,15}$/.test(value)) return undefined;
  const [parent, key] = keys;
  // A filter's operand: `{shelfId: {eq: "1"}}` (`_eq`, `equals`, `in` in other dialects).
  const named = typeNamed(key) ?? (/^_?(eq|equals|in)$/.test(key) ? typeNamed(parent) : undefined);
  if (named !== undefined) return c.members.get(typedKey(named, value))?.producer;
  if ((key !== "id" && key !== "ids") || depth > 3) return undefined;
  const call = graphqlCall(step.last.bodyText);
  const field = call && /^[^{]*\{\s*(\w+)/.exec(call.query)?.[1]?.toLowerCase();
  if (!field) return undefined;
  // The field names one row or many: `shelf`, `updateShelf`, `deleteShelves`, `categories`.
  const singular = [field, field.replace(/s$/, ""), field.replace(/es$/, "")]
    .concat(field.replace(/ies$/, "y"), field.replace(/ves$/, "f"));
  for (const [k, member] of c.members) {
    const [kind, type, id] = k.split("\u0000");
    if (kind === "\u0001graphql" && id === value && singular.some((f) => f.endsWith(type))) {
      return member.producer;
    }
  }
  return undefined;
}
