/**
 * A token a login's answer shows only in a documented example. A
 * hand-written document (an Express API's YAML bundled by `swagger-cli`)
 * describes its `POST /auth/signin` answer loosely, `data: {type: array,
 * items: {type: object}}`, and shows the token in the member's `example`
 * (`[{username, role_id, token: "token"}]`). Read from the schema alone, the
 * answer held no token, the operation was no login, and the summary asked
 * for `API_TOKEN`. The example is the document's own word that the answer
 * holds a member named like a token; it is not evidence of where (that
 * server answers `data` as an object, not the documented list), so such a
 * login's token is read by name from the body, as for an answer the
 * document does not describe.
 *
 * Every place OpenAPI puts an example of a success is read: the media
 * type's `example` and `examples` (Swagger 2.0's `examples` become those),
 * and the `example`/`examples` of the schema and of any member under it.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { successes } from "./responses.ts";

/** Plain names (required_props.ts's `plainName`) of a member holding a token. */
const TOKEN = new Set(["token", "accesstoken", "jwt", "idtoken", "authtoken", "bearertoken"]);
/** How deep an example or a schema is walked: bounded, as documents can nest without end. */
const DEPTH = 6;

/**
 * Whether a documented example of `op`'s successes holds a member named like a token whose
 * value is text (see the module doc).
 *
 * @example
 * ```ts
 * import { examplesAToken } from "./exampled_token.ts";
 * const op = (media: object) => ({ node: { responses: { "200": { content: { "application/json": media } } } } }) as never;
 * const data = { type: "array", items: { type: "object" }, example: [{ token: "token" }] };
 * if (!examplesAToken({}, op({ schema: { properties: { data } } }))) throw new Error();
 * if (!examplesAToken({}, op({ examples: { ok: { value: { jwt: "eyJ" } } } }))) throw new Error();
 * if (examplesAToken({}, op({ example: { message: "token sent" } }))) throw new Error();
 * ```
 */
export function examplesAToken(doc: unknown, op: OpenApiOperation): boolean {
  for (const response of successes(doc, op.node).responses) {
    const content = isNode(response.content) ? response.content : {};
    for (const [type, media] of Object.entries(content)) {
      if (!/json/i.test(type) || !isNode(media)) continue;
      if (exampleValues(doc, media).some((e) => holdsToken(e, 0))) return true;
    }
  }
  return false;
}

/**
 * Every example a media type object shows: its `example` and `examples` (a list, or named
 * entries' `value`), and those of its schema and of each member under it (properties, items,
 * compositions), a bounded depth down.
 *
 * @example
 * ```ts
 * import { exampleValues } from "./exampled_token.ts";
 * const media = { example: 1, schema: { properties: { message: { example: "Admins only" } } } };
 * if (JSON.stringify(exampleValues({}, media)) !== '[1,"Admins only"]') throw new Error();
 * ```
 */
export function exampleValues(doc: unknown, media: Record<string, unknown>): unknown[] {
  const out = shown(doc, media);
  inSchema(doc, media.schema, 0, out);
  return out;
}

/** A node's `example` and its `examples` (a list, or named entries' `value`). */
function shown(doc: unknown, node: Record<string, unknown>): unknown[] {
  const examples = Array.isArray(node.examples)
    ? node.examples
    : isNode(node.examples)
    ? Object.values(node.examples).map((e) => {
      const entry = deref(doc, e);
      return isNode(entry) ? entry.value : undefined;
    })
    : [];
  return [node.example, ...examples].filter((e) => e !== undefined);
}

/** Adds to `out` the examples of `schema` and of each member under it. */
function inSchema(doc: unknown, schema: unknown, depth: number, out: unknown[]): void {
  const s = deref(doc, schema);
  if (!isNode(s) || depth > DEPTH) return;
  out.push(...shown(doc, s));
  const members = isNode(s.properties) ? Object.values(s.properties) : [];
  const parts = ["allOf", "anyOf", "oneOf"].flatMap((k) => Array.isArray(s[k]) ? s[k] : []);
  for (const m of [...members, ...parts, s.items]) inSchema(doc, m, depth + 1, out);
}

/** Whether an example value holds, at any depth, a member named like a token whose value is text. */
function holdsToken(value: unknown, depth: number): boolean {
  if (depth > DEPTH) return false;
  if (Array.isArray(value)) return value.some((v) => holdsToken(v, depth + 1));
  if (!isNode(value)) return false;
  return Object.entries(value).some(([key, v]) =>
    (TOKEN.has(plainName(key)) && typeof v === "string" && v !== "") || holdsToken(v, depth + 1)
  );
}
