/**
 * An object schema whose `properties` give a member as a plain value where a schema belongs
 * (`properties: {email: "johndoe@mail.com", password: "password"}`), read as a member of that
 * value's type with the value as its example. `adonis-autoswagger` writes a controller's
 * `@requestBody {"email": "…", "password": "…"}` and `@responseBody 200 - {"type": "bearer",
 * "access_token": "string"}` comments this way, the same object again as the media's `example`.
 * A text or a number is never a schema, and a true/false is none before OpenAPI 3.1 (3.1's JSON
 * Schema reads `true` and `false` as schemas, which stay as written). Read as written, an AdonisJS
 * task manager's login took no field and answered no token: no login was found, the summary asked
 * for an `API_TOKEN` made by hand, and with `BASE_URL` alone nothing was sent. Only the converter
 * reads the rewritten document: a run's `openapi:` checks read the document as it is.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { rewriteNodes } from "./node_rewrite.ts";

/** The schema a plain value given for a member stands for, or none when the value is a schema. */
function valuedMember(value: unknown, booleansAreSchemas: boolean): Node | undefined {
  if (typeof value === "string") return { type: "string", example: value };
  if (typeof value === "number" && Number.isFinite(value)) {
    return { type: Number.isInteger(value) ? "integer" : "number", example: value };
  }
  if (typeof value === "boolean" && !booleansAreSchemas) return { type: "boolean", example: value };
  return undefined;
}

/** `s` with each member its `properties` give as a plain value read as that value's schema. */
function readValued(s: Node, booleansAreSchemas: boolean): Node {
  const props = s.properties;
  if (s.type !== "object" || !isNode(props)) return s;
  let changed = false;
  const members: Node = {};
  for (const [name, member] of Object.entries(props)) {
    const read = valuedMember(member, booleansAreSchemas);
    members[name] = read ?? member;
    if (read) changed = true;
  }
  return changed ? { ...s, properties: members } : s;
}

/**
 * `doc` with each object schema's members given as plain values read as schemas of their type
 * with the value as example (see the module doc); `doc` itself when there is none.
 *
 * @example
 * ```ts
 * import { withValuedMembers as read } from "./valued_members.ts";
 * const login = { type: "object", properties: { access_token: "string", expires: 3600, ok: true } };
 * const out = read({ openapi: "3.0.0", components: { schemas: { Login: login } } });
 * type Members = Record<string, { type: string }>;
 * const got = out.components.schemas.Login.properties as unknown as Members;
 * if (got.access_token.type !== "string" || got.expires.type !== "integer") throw new Error();
 * if (got.ok.type !== "boolean") throw new Error();
 * const v31 = { openapi: "3.1.0", components: { schemas: { A: { type: "object", properties: { x: false } } } } };
 * if (read(v31) !== v31) throw new Error();
 * ```
 */
export function withValuedMembers<T>(doc: T): T {
  const version = isNode(doc) && typeof doc.openapi === "string" ? doc.openapi : "";
  const booleansAreSchemas = /^3\.[1-9]/.test(version);
  return rewriteNodes(doc, (s) => readValued(s, booleansAreSchemas));
}
