/**
 * A body's password members the document exemplifies apart: a change of password. A Hapi social
 * API's `PUT /users/{id}/password` takes `oldPassword` and `newPassword`, exampled
 * `Oldpassword1234` and `Newpassword1234`; both were sent the run's one password, and its server
 * refused 400 "The new password must be different from the old password!". The examples are the
 * evidence, not the names: each later password member whose own example differs from the first
 * exampled one's is a password the run makes on the spot, and the first stays the run's (the
 * account's current one). A confirmation exampled alike, or a member with no example of its own,
 * stays the run's password, as its server compares them.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import { jsonBodySchema } from "./json_body.ts";
import { isPasswordField } from "./password_field.ts";
import { RUN_VARS } from "./run_values.ts";
import { properties } from "./schema_properties.ts";

/**
 * The top-level members of `node`'s JSON body that are passwords exampled apart from the first
 * exampled one (see the module doc); none when there is no such pair.
 *
 * @example
 * ```ts
 * import { apartPasswords } from "./changed_password.ts";
 * const secret = (example: string) => ({ type: "string", example });
 * const put = (properties: object) => ({ requestBody: { content: { "application/json": { schema: { properties } } } } });
 * const change = apartPasswords({}, put({ oldPassword: secret("Old12345"), newPassword: secret("New12345") }));
 * if ([...change].join() !== "newPassword") throw new Error();
 * if (apartPasswords({}, put({ password: secret("abcdefgh"), confirm_password: secret("abcdefgh") })).size !== 0) throw new Error();
 * ```
 */
export function apartPasswords(doc: unknown, node: Node): Set<string> {
  const exampled = properties(doc, jsonBodySchema(doc, node)).filter(([name, p]) =>
    typeof p.example === "string" && isPasswordField(name, p)
  );
  const first = exampled[0]?.[1].example;
  return new Set(exampled.slice(1).filter(([, p]) => p.example !== first).map(([name]) => name));
}

/**
 * `body` (as flow YAML) with each of `keys` at its top a password the run makes on the spot.
 *
 * @example
 * ```ts
 * import { madeApart } from "./changed_password.ts";
 * import { ymap } from "../yaml_out.ts";
 * const got = madeApart(ymap([["old", "${vars.password}"], ["new", "${vars.password}"]]), new Set(["new"]));
 * if (!JSON.stringify(got).includes("RANDOM.PASSWORD")) throw new Error();
 * ```
 */
export function madeApart(body: YNode, keys: ReadonlySet<string>): YNode {
  if (keys.size === 0 || body === null || typeof body !== "object" || Array.isArray(body)) {
    return body;
  }
  if (body.kind !== "map") return body;
  return {
    ...body,
    entries: body.entries.map(([k, v]) => [k, keys.has(k) ? RUN_VARS.password : v]),
  };
}
