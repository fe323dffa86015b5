/**
 * The rules `hapi-swagger` writes in keys of its own, as the JSON Schema
 * keywords they mean. For Joi's `.email()`, `.guid()`, `.uri()`,
 * `.isoDate()`, `.hex()` and `.alphanum()` it writes `x-format: {email:
 * …}`, never `format`; for a string's or an array's `.length(n)`, a
 * number's `.greater(n)`, `.less(n)`, `.multiple(n)`, `.positive()` and
 * `.negative()`, and an array's `.unique()`, `x-constraint: {…}`. Read as
 * plain strings and numbers, a flow sent `contact-…` where the server's Joi
 * wants an email and `1` where it wants more than 17, and every such body
 * was refused 400. A keyword the schema already has is kept as written.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { rewriteNodes } from "./node_rewrite.ts";

/** Joi's string rules `hapi-swagger` lists under `x-format`, as the keywords they mean. */
const FORMATS: Record<string, Node> = {
  email: { format: "email" },
  guid: { format: "uuid" },
  uri: { format: "uri" },
  isoDate: { format: "date-time" },
  hex: { pattern: "^[0-9a-fA-F]+$" },
  alphanum: { pattern: "^[a-zA-Z0-9]+$" },
};

/** The keywords one schema's `x-format` means (Joi's string rules); none for other schemas. */
function formatsMeant(s: Node): Node {
  const out: Node = {};
  const xFormat = isNode(s["x-format"]) ? s["x-format"] : {};
  for (const [rule, keywords] of Object.entries(FORMATS)) {
    if (xFormat[rule] !== undefined && xFormat[rule] !== false) Object.assign(out, keywords);
  }
  return out;
}

/** The keywords one schema's `x-constraint` means: lengths, bounds, a step, unique items. */
function constraintsMeant(s: Node): Node {
  const x = isNode(s["x-constraint"]) ? s["x-constraint"] : {};
  const num = (key: string) => typeof x[key] === "number" ? x[key] as number : undefined;
  const out: Node = {};
  const length = num("length");
  const lengths = s.type === "array" ? ["minItems", "maxItems"] : ["minLength", "maxLength"];
  if (length !== undefined) { for (const key of lengths) out[key] = length; }
  if (x.unique !== undefined && x.unique !== false) out.uniqueItems = true;
  const greater = x.sign === "positive" ? Math.max(0, num("greater") ?? 0) : num("greater");
  const less = x.sign === "negative" ? Math.min(0, num("less") ?? 0) : num("less");
  if (greater !== undefined) out.exclusiveMinimum = greater;
  if (less !== undefined) out.exclusiveMaximum = less;
  if ((num("multiple") ?? 0) > 0) out.multipleOf = num("multiple");
  return out;
}

/** `s` with what its own keys mean added where it says nothing itself; `s` itself when nothing is. */
function withMeant(s: Node): Node {
  const added = Object.entries({ ...formatsMeant(s), ...constraintsMeant(s) }).filter(([key]) =>
    s[key] === undefined
  );
  return added.length === 0 ? s : { ...s, ...Object.fromEntries(added) };
}

/**
 * `doc` with every schema's `hapi-swagger` rules (`x-format`,
 * `x-constraint`) added as the JSON Schema keywords they mean; the document
 * itself when it has none. The parts unchanged are shared, not copied.
 *
 * @example
 * ```ts
 * import { withJoiRules } from "./joi_rules.ts";
 * const doc = { definitions: { M: { type: "object", properties: {
 *   mail: { type: "string", "x-format": { email: { tlds: false } } },
 *   age: { type: "integer", minimum: 1, "x-constraint": { greater: 17, multiple: 2 } },
 *   pin: { type: "string", "x-constraint": { length: 6 } } } } } };
 * const p = (withJoiRules(doc) as typeof doc).definitions.M.properties as Record<string, Record<string, unknown>>;
 * if (p.mail.format !== "email" || p.age.exclusiveMinimum !== 17 || p.age.multipleOf !== 2) throw new Error();
 * if (p.age.minimum !== 1 || p.pin.minLength !== 6 || p.pin.maxLength !== 6) throw new Error();
 * const plain = { paths: {} };
 * if (withJoiRules(plain) !== plain) throw new Error();
 * ```
 */
export function withJoiRules<T>(doc: T): T {
  return rewriteNodes(doc, (n) => "x-format" in n || "x-constraint" in n ? withMeant(n) : n);
}
