/**
 * Whether a login's documented token already carries the word its scheme
 * writes before it. Some logins answer `{access_token: "Bearer eyJ…"}`
 * (passport-jwt tutorials, and the Express APIs written after them), and
 * their documents show it in the member's own example; the bearer auth adds
 * its own word, and `Bearer Bearer eyJ…` is refused 401 on every operation
 * behind the login. Only a value the document gives for that member (its
 * schema's `example`, `examples` or `default`, or the answer's example) is
 * evidence: a description saying "send `Bearer <token>`" says how the token
 * is sent, not what the login answers, and the member's name says nothing.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";
import { deref } from "./examples.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";
import type { TokenScheme } from "./token_schemes.ts";

/**
 * The word one of `schemes` writes before a token that the login's
 * documented answer already shows at `path` (`Bearer`), if it does.
 *
 * @example
 * ```ts
 * import { schemedWord } from "./schemed_token.ts";
 * const token = { type: "string", example: "Bearer eyJhbGciOi.eyJzdWIi.abc" };
 * const ok = { "200": { content: { "application/json": { schema: { properties: { token } } } } } };
 * const op = { node: { responses: ok } } as never;
 * const schemes = new Map([["jwt", { bearer: true, prefix: "Bearer ", where: "http bearer", description: "" }]]);
 * if (schemedWord({}, op, ["token"], schemes) !== "Bearer") throw new Error();
 * if (schemedWord({}, op, ["token"], new Map()) !== undefined) throw new Error();
 * ```
 */
export function schemedWord(
  doc: Node,
  op: OpenApiOperation,
  path: string[],
  schemes: Map<string, TokenScheme>,
): string | undefined {
  const words = new Set(
    [...schemes.values()].map((s) => (s.bearer ? "Bearer" : s.prefix.trim()).toLowerCase()),
  );
  words.delete("");
  if (words.size === 0) return undefined;
  for (const value of documentedValues(doc, op, path)) {
    const word = /^([A-Za-z][A-Za-z-]{1,20})\s+\S/.exec(value)?.[1];
    if (word !== undefined && words.has(word.toLowerCase())) return word;
  }
  return undefined;
}

/** The texts the login's success answers give for the member at `path`: schema and answer examples. */
function documentedValues(doc: Node, op: OpenApiOperation, path: string[]): string[] {
  const out: unknown[] = [];
  for (const response of successes(doc, op.node).responses) {
    const member = memberSchema(doc, jsonSchema(doc, response), path);
    if (isNode(member)) {
      out.push(member.example, member.default);
      if (Array.isArray(member.examples)) out.push(...member.examples);
    }
    const content = isNode(response.content) ? response.content : {};
    for (const media of Object.values(content)) {
      if (!isNode(media)) continue;
      const examples = isNode(media.examples) ? Object.values(media.examples) : [];
      const given = [
        media.example,
        ...examples.map((e) => deref(doc, e))
          .map((e) => isNode(e) ? e.value : undefined),
      ];
      out.push(...given.map((g) => at(g, path)));
    }
  }
  return out.filter((v): v is string => typeof v === "string");
}

/** The schema of the member at `path` of an answer's schema, as the login found it. */
function memberSchema(doc: Node, schema: unknown, path: string[]): Node | undefined {
  let node: Node | undefined = isNode(schema) ? schema : undefined;
  for (const name of path) {
    node = node && properties(doc, node).find(([n]) => n === name)?.[1];
  }
  return node;
}

/** The value at `path` of an example answer. */
function at(value: unknown, path: string[]): unknown {
  let node = value;
  for (const name of path) node = isNode(node) ? node[name] : undefined;
  return node;
}
