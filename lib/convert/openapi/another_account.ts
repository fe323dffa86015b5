/**
 * A create that makes an account other than the run's: a POST to a
 * collection taking every field the login takes and answering an item, no
 * token (the document says it makes an account), when the run's account is
 * made by another operation, the sign-up. Sent the run's `${vars.email}`, it asks for a second account of
 * an email the sign-up already took, which a server keeping emails unique
 * refuses every run (a NestJS 9 API's `POST /users`, one `CreateUserDto`
 * with its `/auth/registration` and `/auth/login`: 500 from its unique
 * constraint). Its email and user name are made per run on their own; the
 * password may stay the run's. The sign-up's second (`second_signup.ts`),
 * sent only when the sign-up is refused, makes the run's account and keeps
 * its vars.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import { formRequired } from "./form_required.ts";
import { answersAToken, bodyFields, type Login } from "./login.ts";
import { makesItem } from "./makes_item.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./response_paths.ts";
import { RUN_VARS } from "./run_values.ts";
import { properties } from "./schema_properties.ts";

/**
 * Whether `op` makes an account other than the one `login` signs in as (see the module doc).
 *
 * @example
 * ```ts
 * import { makesAnotherAccount } from "./another_account.ts";
 * const object = (...names: string[]) =>
 *   ({ type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])) });
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const body = { requestBody: json(object("email", "password")), responses: { 201: json(object("id")) } };
 * const op = (template: string) => ({ method: "POST", template, node: body, params: [] }) as never;
 * const [login, register, users] = [op("/auth/login"), op("/auth/registration"), op("/users")];
 * const signIn = { op: login, register, schemes: new Map() };
 * if (!makesAnotherAccount({}, users, signIn)) throw new Error();
 * if (makesAnotherAccount({}, register, signIn) || makesAnotherAccount({}, users, { ...signIn, register: undefined })) {
 *   throw new Error();
 * }
 * ```
 */
export function makesAnotherAccount(doc: Node, op: OpenApiOperation, login?: Login): boolean {
  if (!login?.register || op.method !== "POST" || !isCollection(op.template)) return false;
  if ([login.op, login.register, login.credentials, login.alternate].includes(op)) return false;
  const required = formRequired(doc, login.op);
  const wanted = [...bodyFields(doc, login.op)].filter((f) =>
    required === undefined || f === "\0password" || required.has(f)
  );
  const has = bodyFields(doc, op);
  return wanted.length > 0 && wanted.every((f) => has.has(f)) && answersAnItem(doc, op);
}

/**
 * Whether `op` answers an item, not a sign-in: its path has items below it (`/users/{id}`) or its
 * answer describes an object, and no token. A second sign-in taking the credentials (`POST
 * /sessions` answering a token or nothing it describes) signs in as the run's account.
 */
function answersAnItem(doc: Node, op: OpenApiOperation): boolean {
  if (answersAToken(doc, op)) return false;
  return makesItem(doc, op) || responseSchemas(doc, op).some((s) => properties(doc, s).length > 0);
}

/**
 * `node` (a body as flow YAML) with the run's email and user name made anew in place.
 *
 * @example
 * ```ts
 * import { ownIdentity } from "./another_account.ts";
 * import { ymap } from "../yaml_out.ts";
 * const got = JSON.stringify(ownIdentity(ymap([["email", "${vars.email}"], ["password", "${vars.password}"]])));
 * if (!got.includes("user-${RANDOM.HEX_8}@example.com") || !got.includes("${vars.password}")) throw new Error(got);
 * ```
 */
export function ownIdentity(node: YNode): YNode {
  if (Array.isArray(node)) return node.map(ownIdentity);
  if (typeof node === "string") {
    return node.replaceAll("${vars.email}", RUN_VARS.email)
      .replaceAll("${vars.username}", RUN_VARS.username);
  }
  if (node !== null && typeof node === "object" && node.kind === "map") {
    return { ...node, entries: node.entries.map(([k, v]) => [k, ownIdentity(v)]) };
  }
  return node;
}
