/**
 * An id a signed-in write's body must send that names the account itself,
 * by elimination over what the document's answers show. A FastAPI recipes
 * tutorial's `POST /recipes/` requires `submitter_id` and refuses (403) any
 * but the caller's own id; no operation makes a "submitter", so no create
 * linked it and the body sent the literal `1`, the administrator a fresh
 * server seeds. The evidence is the document's kinds of item, each object an
 * operation answers with an `id` (at the top, as a list's items or one member
 * down), told apart by their members: when the write's own answer is one kind
 * and the only other kind is what the sign-up answers, an id of neither the
 * write's item nor any collection can name nothing but the account, whose id
 * the sign-up answered. Only a required member at the top of the body, named
 * as an id (`author_id`, `ownerId`), of the account id's type and given no
 * value by the document (`enum`, `const`, `default`), that no create already
 * links; only when the run signs up the account it signs in as. A document
 * answering any third kind says nothing of which one the id names.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { BodyLink } from "./body_links.ts";
import { deref } from "./deref.ts";
import { jsonBodySchema } from "./json_body.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { responseSchemas } from "./response_paths.ts";
import { properties } from "./schema_properties.ts";
import { usesLogin } from "./uses_login.ts";

// One id of one noun (`author_id`, `authorId`, `authorID`), not a list of them.
const ONE_ID = /^[A-Za-z][A-Za-z0-9]*?(?:_id|Id|ID)$/;

/** Each object `schema` shows with an `id` (itself, its list's items, a member one down): its key and its `id`. */
function itemsIn(doc: unknown, schema: unknown, out: Map<string, Node>, depth = 0): void {
  const s = deref(doc, schema);
  if (!isNode(s)) return;
  if (s.type === "array") return itemsIn(doc, s.items, out, depth);
  const members = properties(doc, s);
  const id = members.find(([name]) => name === "id")?.[1];
  if (id) out.set(members.map(([name]) => name).sort().join(), id);
  if (depth > 0) return;
  for (const [, member] of members) itemsIn(doc, member, out, depth + 1);
}

/** The kinds of item `op`'s success answers show, by their members, each with its `id`'s schema. */
function kindsOf(doc: unknown, op: OpenApiOperation): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const schema of responseSchemas(doc, op)) itemsIn(doc, schema, out);
  return out;
}

/** The JSON type of a scalar schema, integers and numbers alike. */
function scalarType(doc: unknown, schema: unknown): string | undefined {
  const s = deref(doc, schema);
  if (!isNode(s) || typeof s.type !== "string") return undefined;
  return s.type === "integer" ? "number" : s.type;
}

/** The members of `op`'s JSON body that may send the account's id, of `type`. */
function accountMembers(doc: Node, op: OpenApiOperation, type: string): string[] {
  const schema = deref(doc, jsonBodySchema(doc, op.node));
  if (!isNode(schema) || !Array.isArray(schema.required)) return [];
  const required = new Set(schema.required);
  const given = (p: Node) => "enum" in p || "const" in p || "default" in p || p.readOnly === true;
  return properties(doc, schema).filter(([name, prop]) => {
    const p = deref(doc, prop);
    return required.has(name) && ONE_ID.test(name) && isNode(p) && !given(p) &&
      scalarType(doc, p) === type;
  }).map(([name]) => name);
}

/** The one kind of item the sign-up answers, and every kind any operation answers. */
function accountKind(doc: Node, ops: OpenApiOperation[], register: OpenApiOperation) {
  const account = [...kindsOf(doc, register)];
  if (account.length !== 1) return undefined;
  const all = new Set(ops.flatMap((op) => [...kindsOf(doc, op).keys()]));
  return { key: account[0][0], type: scalarType(doc, account[0][1]), all };
}

/**
 * `inferred` with a link from the sign-up's answered id to each body member
 * of a signed-in write that can name only the account (see the module).
 *
 * @example
 * ```ts
 * import { withAccountReferences } from "./account_reference.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
 * const id = { type: "integer" };
 * const account = { properties: { id, email: { type: "string" } } };
 * const note = { properties: { id, title: { type: "string" }, author_id: id } };
 * const body = { required: ["title", "author_id"], properties: { title: { type: "string" }, author_id: id } };
 * const doc = { paths: {
 *   "/signup": { post: { responses: { 201: json(account) } } },
 *   "/notes": { post: { security: [{ jwt: [] }], requestBody: json(body), responses: { 201: json(note) } } },
 * } };
 * const ops = operationsOf(doc);
 * const schemes = new Map([["jwt", { bearer: true, prefix: "", where: "http bearer" }]]);
 * const login = { op: ops[0], register: ops[0], schemes } as never;
 * const got = withAccountReferences(doc, ops, { params: new Map(), login });
 * const [link] = got.body?.get(ops[1]) ?? [];
 * if (link?.producer !== ops[0] || link.body.join() !== "author_id") throw new Error();
 * ```
 */
export function withAccountReferences(
  doc: Node,
  ops: OpenApiOperation[],
  inferred: Inferred,
): Inferred {
  const { login } = inferred;
  const register = login?.register;
  const kind = register && accountKind(doc, ops, register);
  if (!register || !kind?.type) return inferred;
  const body = new Map(inferred.body ?? []);
  for (const op of ops) {
    if (op === register || !usesLogin(op.node, doc, login)) continue;
    const own = kindsOf(doc, op);
    const others = [...kind.all].filter((key) => !own.has(key));
    if (own.size === 0 || others.length !== 1 || others[0] !== kind.key) continue;
    const linked = new Set((body.get(op) ?? []).map((l) => l.body.join(".")));
    const links: BodyLink[] = accountMembers(doc, op, kind.type)
      .filter((name) => !linked.has(name))
      .map((name) => ({
        param: name,
        producer: register,
        path: ["id"],
        from: "property",
        body: [name],
      }));
    if (links.length > 0) body.set(op, [...body.get(op) ?? [], ...links]);
  }
  return { ...inferred, body };
}
