/**
 * A read's path parameter named as the member the login signs in with is
 * the run's own account's. An Express social API reads a user at
 * `GET /users/{email}/getByEmail` beside `POST /auth/login {email,
 * password}`; `{email}` was a placeholder, "the email of one that exists",
 * and the read was refused with the value the summary left. The login's
 * body is the evidence of what names an account (`login_identity.ts`), and
 * the suite signs up the account it signs in as, so its identity is one
 * that exists: the parameter is the run var the login sends for that
 * member (`${vars.email}`, the setup's in a flow that signs in there). Only
 * when the suite registers its account, only in a GET (a write or delete so
 * addressed would change or end the account the suite signs in with), and
 * only a text the document bounds no other way (no `enum`, `const`,
 * `pattern` or `format` but `email`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { ymap } from "../yaml_out.ts";
import { deref } from "./examples.ts";
import type { Login } from "./login.ts";
import { loginIdentity } from "./login_identity.ts";
import type { OpenApiOperation } from "./operations.ts";
import { isPasswordField } from "./password_field.ts";
import { perRun } from "./run_values.ts";
import { saidCredential } from "./said_auth.ts";
import type { Shared } from "./shared.ts";

/** Whether a path parameter's schema leaves any text of the account's identity fitting it. */
function plainText(doc: Node, param: Node | undefined): boolean {
  const schema = deref(doc, param?.schema);
  if (!isNode(schema)) return schema === undefined;
  if (schema.type !== undefined && schema.type !== "string") return false;
  if (schema.format !== undefined && schema.format !== "email") return false;
  return ["enum", "const", "pattern"].every((key) => schema[key] === undefined);
}

/**
 * `${vars.NAME}` for the path parameter `param` of `op` when it is the
 * run's account's identity (see the module), adding `NAME` to `runVars`;
 * else undefined.
 *
 * @example
 * ```ts
 * import { identityParam } from "./identity_param.ts";
 * const body = (properties: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { type: "object", properties } } } } });
 * const login = { op: { node: body({ email: {}, password: {} }) }, register: {} } as never;
 * const read = { method: "GET", params: [{ in: "path", name: "email", schema: { type: "string" } }] } as never;
 * const runVars = new Set<string>();
 * if (identityParam({}, login, read, "email", runVars) !== "${vars.email}" || !runVars.has("email")) throw new Error();
 * if (identityParam({}, login, { ...read as object, method: "DELETE" } as never, "email", runVars)) throw new Error();
 * ```
 */
export function identityParam(
  doc: Node,
  login: Login | undefined,
  op: OpenApiOperation,
  param: string,
  runVars: Set<string>,
): string | undefined {
  if (op.method !== "GET" || !login?.register) return undefined;
  const p = op.params.find((x) => x.in === "path" && x.name === param);
  if (!plainText(doc, p) || !loginIdentity(doc, login.op, isPasswordField).has(param)) {
    return undefined;
  }
  const used = new Set<string>();
  const sent = perRun(ymap([[param, "string"]]), used);
  const value = isNode(sent) && Array.isArray(sent.entries) ? sent.entries[0]?.[1] : undefined;
  if (typeof value !== "string" || !/^\$\{vars\.\w+\}$/.test(value)) return undefined;
  for (const name of used) runVars.add(name);
  return value;
}

/**
 * What a path parameter of `op` sends of the suite's own account: the said
 * auth's user or password (`said_auth.ts`), else its identity (see the
 * module); else undefined.
 *
 * @example
 * ```ts
 * import { accountParam } from "./identity_param.ts";
 * const none = { forOperation: () => ({ none: true, notes: [], places: new Map(),
 *   credentials: { headers: [], query: [], cookies: [], comments: [] } }) };
 * const op = { method: "GET", node: {}, params: [{ in: "path", name: "id" }] } as never;
 * const shared = { doc: {}, auth: none, inferred: {} } as never;
 * if (accountParam(shared, op, "id", new Set()) !== undefined) throw new Error();
 * ```
 */
export function accountParam(
  shared: Pick<Shared, "doc" | "auth" | "inferred">,
  op: OpenApiOperation,
  param: string,
  runVars: Set<string>,
): string | undefined {
  return saidCredential(op, param, shared.auth) ??
    identityParam(shared.doc, shared.inferred.login, op, param, runVars);
}
