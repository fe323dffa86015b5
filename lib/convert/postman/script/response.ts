/**
 * What each word of `pm.response.to.…` checks, as chai-postman reads it:
 * `status(200)` or `status("Created")`, the status classes and codes by
 * name (`success`, `notFound`, …), `header`, `json`, `withBody`,
 * `jsonBody`, `jsonSchema`, `body`, and which of them `not` can turn round.
 * expect.ts reads the chain and its arguments.
 *
 * @module
 */
import { pathKeys } from "./library.ts";
import { schemaCheck } from "./schema.ts";
import { type Cond, member, named, negate } from "./sym.ts";
import { codeOfReason } from "../../reason_phrases.ts";
import { table } from "../../table.ts";

/**
 * The status code a standard reason phrase names, in any case, else undefined.
 *
 * @example
 * ```ts
 * import { reasonCode } from "./response.ts";
 * if (reasonCode("Not Found") !== 404 || reasonCode("Nope") !== undefined) throw new Error();
 * ```
 */
export function reasonCode(reason: string): number | undefined {
  return codeOfReason(reason);
}

type ResponseCheck = (values: unknown[]) => Cond[] | undefined;

const header: ResponseCheck = ([v, w]) => {
  if (typeof v !== "string") return undefined;
  const path = member("$.headers", named(v).toLowerCase());
  return w !== undefined
    ? [{ path, op: "equals", value: w }]
    : [{ path, op: "exists", value: true }];
};
/** A status class (`success`: 2xx), as chai-postman's words for them say. */
const statusClass = (from: number, to: number): ResponseCheck => () => [
  { path: "$.status", op: "gte", value: from },
  { path: "$.status", op: "lt", value: to },
];
/** A status code by chai-postman's name for it (`ok` is 200 exactly, not any 2xx). */
const statusCode = (code: number): ResponseCheck => () => [
  { path: "$.status", op: "equals", value: code },
];
/** The negation of a status class, where it is one range. */
const NOT_CLASS = table<Cond>({
  info: { path: "$.status", op: "gte", value: 200 },
  serverError: { path: "$.status", op: "lt", value: 500 },
  error: { path: "$.status", op: "lt", value: 400 },
});

/** `pm.response.to.<word>(…)`, by word. */
const RESPONSE = new Map<string, ResponseCheck>([
  [
    "status",
    ([v]) => {
      const code = typeof v === "string" ? codeOfReason(v) : v;
      return typeof code === "number"
        ? [{ path: "$.status", op: "equals", value: code }]
        : undefined;
    },
  ],
  ["info", statusClass(100, 200)],
  ["success", statusClass(200, 300)],
  ["redirection", statusClass(300, 400)],
  ["clientError", statusClass(400, 500)],
  ["serverError", statusClass(500, 600)],
  ["error", statusClass(400, 600)],
  ["ok", statusCode(200)],
  ["accepted", statusCode(202)],
  ["withoutContent", statusCode(204)],
  ["badRequest", statusCode(400)],
  ["unauthorised", statusCode(401)],
  ["unauthorized", statusCode(401)],
  ["forbidden", statusCode(403)],
  ["notFound", statusCode(404)],
  ["notAcceptable", statusCode(406)],
  ["rateLimited", statusCode(429)],
  ["header", header],
  ["json", () => [{ path: "$.json", op: "exists", value: true }]],
  // Text in the body: an empty body has none.
  ["withBody", () => [{ path: "$.body", op: "lengthGt", value: 0 }]],
  ["jsonBody", (values) => jsonBody(values)],
  ["jsonSchema", ([schema]) => schemaCheck("$.json", schema)],
  [
    "body",
    ([v]) => (typeof v === "string" ? [{ path: "$.body", op: "equals", value: v }] : undefined),
  ],
]);

/**
 * The checks `pm.response.to[.not].<word>(…values)` makes, `undefined` when
 * flowrun cannot say them; `called` is whether the word was called (`.ok`
 * is not, `.status(200)` is).
 *
 * @example
 * ```ts
 * import { responseWord } from "./response.ts";
 * const c = responseWord("status", ["Not Found"], false, true);
 * if (c?.[0].path !== "$.status" || c[0].value !== 404) throw new Error(JSON.stringify(c));
 * const n = responseWord("serverError", [], true, false);
 * if (n?.length !== 1 || n[0].op !== "lt" || n[0].value !== 500) throw new Error(JSON.stringify(n));
 * ```
 */
export function responseWord(
  word: string,
  values: unknown[],
  negated: boolean,
  called: boolean,
): Cond[] | undefined {
  const conds = RESPONSE.get(word)?.(values);
  if (!conds || !negated) return conds;
  if (NOT_CLASS[word] && !called) return [NOT_CLASS[word]];
  // `to.not.have.header("X")`: one check flowrun can turn round, or nothing.
  const turned = conds.length === 1 ? negate(conds[0]) : undefined;
  return turned ? [turned] : undefined;
}

function jsonBody(values: unknown[]): Cond[] | undefined {
  const [v, w] = values;
  if (values.length === 0) return [{ path: "$.json", op: "exists", value: true }];
  // The path is lodash's (`data.items[0]`, `Set-Cookie`): each key a member of the body.
  const keys = typeof v === "string" ? pathKeys(v) : undefined;
  if (!keys) return undefined;
  const path = keys.reduce<string>((p, k) => member(p, k), "$.json");
  return values.length > 1
    ? [{ path, op: "equals", value: w }]
    : [{ path, op: "exists", value: true }];
}
