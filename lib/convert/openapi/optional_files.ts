/**
 * Which files of a multipart body are left out: those the schema does not
 * require, when the body sends a text member it does require (a post's
 * `content` beside its optional `image`). The suite's file is a placeholder,
 * no file of the kind a server checks for: an Express API's upload filter
 * refused it 400 ("File uploaded is not an image"), so the post was never
 * made and its read, update, delete and comments were skipped, though the
 * request's point was its text. An upload that requires no text (a file
 * transfer's `{file}`) still sends its file: an upload of nothing leaves
 * nothing to read back.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";

/**
 * Whether the file member `name` is left out of a multipart body of `schema`
 * that sends the members `sent`; `binary` says which members are files.
 *
 * @example
 * ```ts
 * import { leavesFileOut } from "./optional_files.ts";
 * const schema = { required: ["content"], properties: { content: {}, image: {} } };
 * const binary = (n: string) => n === "image";
 * if (!leavesFileOut(schema, ["content", "image"], binary, "image")) throw new Error();
 * if (leavesFileOut({ ...schema, required: ["content", "image"] }, ["content"], binary, "image")) throw new Error();
 * if (leavesFileOut({ properties: schema.properties }, ["content"], binary, "image")) throw new Error();
 * ```
 */
export function leavesFileOut(
  schema: unknown,
  sent: string[],
  binary: (name: string) => boolean,
  name: string,
): boolean {
  const required = new Set(isNode(schema) && Array.isArray(schema.required) ? schema.required : []);
  return !required.has(name) && sent.some((member) => required.has(member) && !binary(member));
}
