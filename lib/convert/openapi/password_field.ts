/**
 * Whether a request body's property holds a password: by its declared
 * format, else by its name (the documents converted name it and say nothing
 * else). Kept apart from `login.ts` so the naming rules (`rpc_names.ts`) can
 * ask it without importing the whole login inference.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { plainName } from "./required_props.ts";

/**
 * Whether a body property holds a password.
 *
 * @example
 * ```ts
 * import { isPasswordField } from "./password_field.ts";
 * if (!isPasswordField("new_password") || !isPasswordField("x", { format: "password" })) throw new Error();
 * if (isPasswordField("passport") || isPasswordField("name")) throw new Error();
 * ```
 */
export function isPasswordField(name: string, schema?: Node): boolean {
  return schema?.format === "password" || /pass(word|wd|code|phrase)?$|^pwd$/.test(plainName(name));
}
