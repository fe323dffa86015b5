/**
 * What an operation's documented responses say for its step: the success
 * statuses to check, whether every success response has a JSON schema (so
 * an `openapi:` check can apply), and the properties a create returns (so
 * a later step can use the id it made).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { MAX_REF_CHAIN } from "./limits.ts";
import { ymap, type YNode } from "../yaml_out.ts";

/** The success responses of an operation: their statuses and response objects. */
export interface Successes {
  /** The documented 2xx statuses (`2XX` as the usual four). */
  statuses: number[];
  responses: Node[];
  /** Set when the document names only `2XX`: any 2xx, which a step checks as bounds. */
  anySuccess?: true;
}

/**
 * The success responses of an operation.
 *
 * @example
 * ```ts
 * import { successes } from "./responses.ts";
 * const got = successes({}, { responses: { "201": {}, "204": {}, "400": {}, default: {} } });
 * if (got.statuses.join() !== "201,204") throw new Error();
 * const range = successes({}, { responses: { "2XX": {} } });
 * if (range.statuses.join() !== "200,201,202,204" || !range.anySuccess) throw new Error();
 * if (!successes({}, { responses: { "200": {} } }).anySuccess) throw new Error();
 * if (successes({}, { responses: { "200": { description: "OK" } } }).anySuccess) throw new Error();
 * ```
 */
export function successes(doc: unknown, op: Node): Successes {
  const responses = isNode(op.responses) ? op.responses : {};
  const exact = Object.keys(responses).filter((k) => /^2[0-9][0-9]$/.test(k));
  const keys = exact.length > 0 ? exact : Object.keys(responses).filter((k) => /^2xx$/i.test(k));
  const statuses = exact.length > 0
    ? exact.map(Number)
    : keys.length > 0
    ? [200, 201, 202, 204]
    : [];
  const found = keys.map((k) => deref(doc, responses[k])).filter(isNode);
  // An empty 200 is checked as any 2xx, but documents no 201: no create is read into it.
  if (emptyDefault(responses, exact)) return { statuses, responses: found, anySuccess: true };
  return exact.length === 0 && keys.length > 0
    ? { statuses, responses: found, anySuccess: true }
    : { statuses, responses: found };
}

/**
 * Whether the one success documented is a `200` whose response object is
 * empty (no description, which the specification requires, nor content):
 * the status a generator writes for a route that declares none (Elysia's
 * `@elysiajs/swagger`), not one the author chose. A project management
 * API's create documented so answers 201, and its step failed though the
 * server made the item: such a step checks any 2xx.
 */
function emptyDefault(responses: Node, exact: string[]): boolean {
  const only = exact.length === 1 && exact[0] === "200" ? responses["200"] : undefined;
  return isNode(only) && Object.keys(only).length === 0;
}

/**
 * The redirects an operation documents when it documents no 2xx: its one
 * answer is then the redirect (httpbin's `GET /redirect/{n}` names only
 * `302`), which a step gets as its response, since it follows none unless
 * asked to. Empty when a 2xx is documented: a redirect there is an aside.
 *
 * @example
 * ```ts
 * import { redirects } from "./responses.ts";
 * if (redirects({ responses: { "302": {}, "404": {} } }).join() !== "302") throw new Error();
 * if (redirects({ responses: { "200": {}, "304": {} } }).length !== 0) throw new Error();
 * ```
 */
export function redirects(op: Node): number[] {
  const codes = Object.keys(isNode(op.responses) ? op.responses : {});
  if (codes.some((k) => /^2([0-9][0-9]|xx)$/i.test(k))) return [];
  return codes.filter((k) => /^3[0-9][0-9]$/.test(k)).map(Number);
}

/**
 * The statuses a step checks: the success responses, else the redirects
 * (with no response object: a redirect's body is not checked).
 *
 * @example
 * ```ts
 * import { expected } from "./responses.ts";
 * if (expected({}, { responses: { "201": {} } }).statuses.join() !== "201") throw new Error();
 * if (expected({}, { responses: { "302": {} } }).statuses.join() !== "302") throw new Error();
 * ```
 */
export function expected(doc: unknown, op: Node): Successes {
  const found = successes(doc, op);
  return found.statuses.length > 0 ? found : { statuses: redirects(op), responses: [] };
}

/**
 * A step's `status:` for what the operation documents: its one code, any of
 * its codes, or for `2XX` alone bounds, which say any 2xx where a list of the
 * usual four would refuse a 203 or a 206.
 *
 * @example
 * ```ts
 * import { statusNode } from "./responses.ts";
 * import { toYaml, ymap } from "../yaml_out.ts";
 * const yaml = (found: Parameters<typeof statusNode>[0]) => toYaml([], ymap([["status", statusNode(found)]]));
 * if (yaml({ statuses: [201], responses: [] }) !== "status: 201\n") throw new Error();
 * if (yaml({ statuses: [200, 201, 202, 204], responses: [], anySuccess: true }) !== "status:\n  gte: 200\n  lt: 300\n") throw new Error();
 * ```
 */
export function statusNode(found: Successes): YNode {
  if (found.anySuccess) return ymap([["gte", 200], ["lt", 300]]);
  return found.statuses.length === 1 ? found.statuses[0] : ymap([["anyOf", found.statuses]]);
}

/** The JSON schema of a response, if it has one. */
export function jsonSchema(doc: unknown, response: Node): unknown {
  const content = isNode(response.content) ? response.content : {};
  const type = Object.keys(content).find((t) => /json/i.test(t) && isNode(content[t]));
  const schema = type === undefined ? undefined : (content[type] as Node).schema;
  return schema === undefined ? undefined : deref(doc, schema);
}

/**
 * Whether every success response has a JSON body schema.
 *
 * @example
 * ```ts
 * import { allJson } from "./responses.ts";
 * const json = { content: { "application/json": { schema: { type: "object" } } } };
 * if (!allJson({}, [json]) || allJson({}, [json, {}]) || allJson({}, [])) throw new Error();
 * ```
 */
export function allJson(doc: unknown, responses: Node[]): boolean {
  return responses.length > 0 && responses.every((r) => jsonSchema(doc, r) !== undefined);
}

/**
 * The top-level properties of a schema (its `allOf` parts' too).
 *
 * @example
 * ```ts
 * import { propertiesOf } from "./responses.ts";
 * const doc = { components: { schemas: { New: { properties: { name: {} } } } } };
 * const got = propertiesOf(doc, { allOf: [{ $ref: "#/components/schemas/New" }, { properties: { id: {} } }] });
 * if ([...got].join() !== "name,id") throw new Error();
 * ```
 */
export function propertiesOf(doc: unknown, schema: unknown, depth = 0): Set<string> {
  const found = new Set<string>();
  const s = deref(doc, schema);
  if (!isNode(s) || depth > MAX_REF_CHAIN) return found;
  if (isNode(s.properties)) { for (const key of Object.keys(s.properties)) found.add(key); }
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    for (const key of propertiesOf(doc, part, depth + 1)) found.add(key);
  }
  return found;
}

/**
 * The `Accept` a step sends: the first media type its success answers are
 * documented in, when they are documented in several. The server chooses
 * among them by `Accept`, and may refuse the client's `*∕*` (httpbin's
 * `GET /image`, which `produces` image/webp, image/svg+xml, … answers 406);
 * Swagger UI sends the first, the one it shows selected, but a JSON type
 * among them is asked for first: the step's checks read JSON (Petstore's
 * login lists XML first, where a JSON string reads as text). With one type
 * the choice stays the server's, as the step sent it before.
 *
 * @example
 * ```ts
 * import { accepted } from "./responses.ts";
 * const image = { responses: { "200": { content: { "image/webp": {}, "image/png": {} } } } };
 * if (accepted({}, image).join() !== "Accept,image/webp") throw new Error();
 * if (accepted({}, { responses: { "200": { content: { "image/png": {} } } } }).length !== 0) throw new Error();
 * const xml = { responses: { "200": { content: { "application/xml": {}, "application/json": {} } } } };
 * if (accepted({}, xml).join() !== "Accept,application/json") throw new Error();
 * ```
 */
export function accepted(doc: unknown, op: Node): [string, string][] {
  const types = new Set<string>();
  for (const response of successes(doc, op).responses) {
    for (const type of Object.keys(isNode(response.content) ? response.content : {})) {
      types.add(type);
    }
  }
  // JSON when offered: the checks read JSON (Petstore's login lists XML first).
  const first = [...types].find((t) => /[/+]json$/i.test(t)) ?? [...types][0];
  return types.size > 1 && first !== "*/*" ? [["Accept", first]] : [];
}
