/**
 * The item a create of a gRPC-gateway-shaped document names, named again
 * by value. Such a document (every path a function, `/…/<noun>/<verb>`:
 * `rpc_verbs.ts`) has no path parameter to link: etcd's `role/add {name}`
 * makes the role that `role/get {role}`, `role/delete {role}` and
 * `user/grant {user, role}` name, and proto3 requires none of them, so each
 * was sent `{}` (412: "role name not found"). The run names the item once
 * (`role: role-${RANDOM.HEX_8}`, a var per noun) and every property tied
 * to that noun sends it. The evidence is the document's: a noun is one a
 * create's path names (`/role/add`) whose body names its item (a text
 * property its description calls "the name of the role", or its summary
 * says cannot be empty: `summary_named.ts`, or the one free text its body
 * requires, as a FastAPI `POST /students/new {name}` does); a property is tied to it by
 * its description ("user is the name of the user which …"), by being named
 * for it (`role`), or by being the property the create names its item by,
 * in an operation of that noun (`user/get {name}`). Ids the server hands
 * out (`format: int64`) are no name the client chooses: never made up.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { plainName, requestRequires } from "./required_props.ts";
import { plainNoun } from "./collection_nouns.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";
import { isRpcDocument } from "./rpc_verbs.ts";
import { isPasswordField } from "./password_field.ts";
import { properties } from "./schema_properties.ts";
import { summaryNamed } from "./summary_named.ts";
import { jsonBodySchema } from "./json_body.ts";

/** The noun of a function's path: the segment before its verb (`role` of `/v3/auth/role/add`). */
function nounOf(template: string): string | undefined {
  const segment = template.split("/").filter((s) => s !== "").at(-2);
  return segment === undefined || segment.startsWith("{") ? undefined : plainNoun(segment);
}

/** Text the client chooses: a string of no format, enum or pattern. */
function freeText(p: Node): boolean {
  return p.type === "string" && p.format === undefined && !Array.isArray(p.enum) &&
    p.pattern === undefined && p.readOnly !== true;
}

/** The noun a description calls the property the name of ("the name of the role to add"). */
function describedNoun(p: Node): string | undefined {
  const m = typeof p.description === "string"
    ? /\bis the name of the ([A-Za-z][\w-]*)/i.exec(p.description)
    : undefined;
  return m ? plainNoun(m[1]) : undefined;
}

/** Each noun a create names its item of, by the property it names it with. */
function namedNouns(doc: unknown, ops: OpenApiOperation[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const op of ops) {
    const noun = op.role === "create" ? nounOf(op.template) : undefined;
    if (noun === undefined || out.has(noun)) continue;
    const schema = jsonBodySchema(doc, op.node);
    const texts = properties(doc, schema).filter(([, p]) => freeText(p));
    const said = new Set(summaryNamed(doc, op.node, schema, {}));
    // A body requiring one text alone says the same as a summary's "cannot be empty"; a body
    // with a password is a credential's exchange or an account's (a login, a register), never
    // an item named by its other text (`/jwt/create {username, password}`).
    const credential = properties(doc, schema).some(([name, p]) => isPasswordField(name, p));
    const needed = credential
      ? []
      : texts.filter(([name]) => requestRequires(doc, op, plainName(name)));
    const by = texts.find(([name, p]) => describedNoun(p) === noun || said.has(name)) ??
      (needed.length === 1 ? needed[0] : undefined);
    if (by) out.set(noun, by[0]);
  }
  return out;
}

/** Each document's named nouns, read once. */
const nounsOf = new WeakMap<Node, Map<string, string>>();

/**
 * The top-level body properties of `op` that name an item a create of the
 * document names, each with its noun (see the module); none outside a
 * gRPC-gateway-shaped document.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { rpcNamed } from "./rpc_names.ts";
 * const body = (properties: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { properties } } } } });
 * const text = (description?: string) => ({ type: "string", description });
 * const doc = { paths: {
 *   "/auth/role/add": { post: body({ name: text("name is the name of the role to add.") }) },
 *   "/auth/role/get": { post: body({ role: text(), note: text() }) },
 *   "/auth/user/grant": { post: body({ user: text(), role: text("role is the name of the role.") }) },
 * } };
 * const [, get, grant] = operationsOf(doc);
 * if (JSON.stringify([...rpcNamed(doc, get)]) !== '[["role","role"]]') throw new Error();
 * if (JSON.stringify([...rpcNamed(doc, grant)]) !== '[["role","role"]]') throw new Error();
 * ```
 */
export function rpcNamed(doc: Node, op: OpenApiOperation): Map<string, string> {
  let nouns = nounsOf.get(doc);
  if (!nouns) {
    const ops = operationsOf(doc);
    nouns = isRpcDocument(ops.map((o) => o.template)) ? namedNouns(doc, ops) : new Map();
    nounsOf.set(doc, nouns);
  }
  const out = new Map<string, string>();
  if (nouns.size === 0) return out;
  const own = nounOf(op.template);
  for (const [name, p] of properties(doc, jsonBodySchema(doc, op.node))) {
    if (!freeText(p)) continue;
    const described = describedNoun(p);
    const noun = described ?? plainNoun(name);
    if (nouns.has(noun)) out.set(name, noun);
    else if (described === undefined && own !== undefined && nouns.get(own) === name) {
      out.set(name, own);
    }
  }
  return out;
}
