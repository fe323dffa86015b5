/**
 * The `auth:` block of a scheme whose credential is the login's token:
 * `bearer` for http bearer, `api_key` in the scheme's place with the text
 * its description puts before the token (`Token ${steps.login.capture.token}`).
 * The login's step name is known only per flow, so the block names it with
 * {@linkcode LOGIN_STEP}, which the flow replaces.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { ymap, type YNode } from "../yaml_out.ts";
import type { MadeBlock } from "./auth_bearer.ts";
import { type Login, tokenGiver } from "./login.ts";
import { tokenWhere } from "./token_source.ts";
import { namedTokenWhere } from "./bare_token.ts";

/** Stands for the login's step name in a block, until the flow knows it. */
export const LOGIN_STEP = "\u2060login\u2060";

/** The capture of the login's step that holds the token. */
export const TOKEN_CAPTURE = "token";

/**
 * The block sending the login's token as `name` says.
 *
 * @example
 * ```ts
 * import { LOGIN_STEP, loginBlock } from "./auth_login.ts";
 * const login = { op: { method: "POST", template: "/login" }, path: ["token"],
 *   schemes: new Map([["key", { bearer: false, prefix: "Token ", where: "apiKey header Authorization" }]]) };
 * const made = loginBlock("key", { type: "apiKey", name: "Authorization", in: "header" }, login as never);
 * if (!JSON.stringify(made.block).includes(`Token \${steps.${LOGIN_STEP}.capture.token}`)) throw new Error();
 * ```
 */
export function loginBlock(name: string, scheme: Node, login: Login): MadeBlock {
  const served = login.schemes.get(name)!;
  const token = `\${steps.${LOGIN_STEP}.capture.${TOKEN_CAPTURE}}`;
  const at = tokenWhere(login) ?? namedTokenWhere(login);
  const from = `${login.op.method} ${login.op.template} (${at})`;
  const giver = tokenGiver(login);
  // A flow that does not test the login reads the token from its sign-up's answer.
  const or = giver === login.op
    ? ""
    : `, or where the flow does not log in, the one ${giver.method} ${giver.template} answers with`;
  const notes = [`"${name}" (${served.where}): the token the login ${from} answers with${or}`];
  if (served.bearer) return { block: ymap([["bearer", ymap([["token", token]])]]), notes };
  const place = scheme.in === "query" || scheme.in === "cookie" ? scheme.in : "header";
  const block = ymap([["name", String(scheme.name)], ["value", `${served.prefix}${token}`], [
    "in",
    place,
  ]]);
  return { block: ymap([["api_key", block]]), notes };
}

/**
 * A block (any YAML node) naming the login's step as `step`, the flow's name of it.
 *
 * @example
 * ```ts
 * import { LOGIN_STEP, withLoginStep } from "./auth_login.ts";
 * import { ymap } from "../yaml_out.ts";
 * const block = ymap([["token", `\${steps.${LOGIN_STEP}.capture.token}`]]);
 * if (!JSON.stringify(withLoginStep(block, "sign_in")).includes("steps.sign_in.capture")) throw new Error();
 * ```
 */
export function withLoginStep(node: YNode, step: string): YNode {
  return typeof node === "string"
    ? node.replaceAll(LOGIN_STEP, step)
    : Array.isArray(node)
    ? node.map((n) => withLoginStep(n, step))
    : node !== null && typeof node === "object" && node.kind === "map"
    ? { ...node, entries: node.entries.map(([k, v]) => [k, withLoginStep(v, step)]) }
    : node;
}
