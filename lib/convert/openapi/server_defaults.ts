/**
 * A property a request body's schema requires, yet whose own description
 * says the server defaults it ("Kernel spec name (defaults to default kernel
 * spec for server)", Jupyter Server's `POST /api/kernels`), is left out of
 * the generated body: the prose is the more specific word, and the value the
 * generator would make up (`name-<random>`) names nothing the server has
 * (500 "No such kernel"), where the server's default does. The evidence is
 * the document's own description of that property, never its name; a value
 * the document gives (an example, a default in the schema) is kept.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";

/** "defaults to …", "if omitted, …" in a description of the property. */
const DEFAULTED = /\bdefaults to\b|\bif (?:omitted|not (?:given|specified|provided))\b/i;

/**
 * Whether a property's own description says the server supplies it when it is left out.
 *
 * @example
 * ```ts
 * import { serverDefaults } from "./server_defaults.ts";
 * if (!serverDefaults({}, { type: "string", description: "Name (defaults to the server's)" })) {
 *   throw new Error();
 * }
 * if (serverDefaults({}, { type: "string", description: "The name" })) throw new Error();
 * ```
 */
export function serverDefaults(doc: unknown, property: unknown): boolean {
  const p = deref(doc, property);
  if (!isNode(p) || typeof p.description !== "string") return false;
  if (p.example !== undefined || p.default !== undefined || Array.isArray(p.enum)) return false;
  return DEFAULTED.test(p.description);
}

/**
 * A generated JSON body without the top-level properties the server
 * defaults by the schema's own description (see the module); other values
 * as they are.
 *
 * @example
 * ```ts
 * import { withoutServerDefaults } from "./server_defaults.ts";
 * const schema = { required: ["name"], properties: {
 *   name: { type: "string", description: "Kernel spec name (defaults to default kernel spec for server)" },
 *   path: { type: "string", description: "The cwd of the kernel" } } };
 * const got = withoutServerDefaults({}, schema, { name: "string", path: "string" });
 * if (JSON.stringify(got) !== '{"path":"string"}') throw new Error(JSON.stringify(got));
 * ```
 */
export function withoutServerDefaults(doc: unknown, schema: unknown, value: unknown): unknown {
  const s = deref(doc, schema);
  if (!isNode(value) || !isNode(s) || !isNode(s.properties)) return value;
  const properties = s.properties;
  // Only what the schema requires: an optional property sent is one the document shows a value of.
  const required = Array.isArray(s.required) ? s.required : [];
  const kept = Object.entries(value).filter(([name]) =>
    !required.includes(name) || !Object.hasOwn(properties, name) ||
    !serverDefaults(doc, properties[name])
  );
  return kept.length === Object.keys(value).length ? value : Object.fromEntries(kept);
}
