/**
 * Reads a condition on one received message: a JSONPath evaluated on a
 * list holding that message (`$[?@.type == 'done']`), as `until` and a
 * `send` item's `after: {message: …}` write it. Checked now, with a
 * stand-in for each `${…}` (resolved when the step runs).
 *
 * @module
 */
import type { Node } from "yaml";
import { type CompiledPath, compilePath, compileTemplatePath } from "../../expr/path.ts";
import { isConstant } from "../../expr/template.ts";
import { SyntaxAtError } from "../../model/errors.ts";
import type { KindReading } from "../kind.ts";

/**
 * The condition at `node`, named `what` in problems (`until`, `after` of
 * message 2 of "send"); `undefined` after a problem.
 *
 * @example
 * ```ts
 * import { readMessagePath } from "./read_path.ts";
 * if (typeof readMessagePath !== "function") throw new Error();
 * ```
 */
export function readMessagePath(
  node: Node | null,
  reading: KindReading,
  what: string,
): CompiledPath | undefined {
  const template = reading.template(node, `"${what}" of a websocket step`);
  if (!template) return undefined;
  let path: CompiledPath;
  try {
    path = isConstant(template)
      ? compilePath(template.source, "body")
      : compileTemplatePath(template, "body");
  } catch (error) {
    // Anything else (the JSONPath engine not loaded yet) is the loader's to handle.
    if (!(error instanceof SyntaxAtError)) throw error;
    reading.problem(error.code, error.message, node, error.hint ?? "");
    return undefined;
  }
  // `$` is a list: a member of it (`$.type`, `$.json…`) is never there, so it could never hold.
  if (/^\$\s*(\.\s*[^.\[\s]|\[\s*['"])/.test(path.source)) {
    reading.problem(
      "bad-path",
      `${what} "${path.source}" can never hold: $ is a list holding the message just received, which has no members.`,
      node,
      "Test the message with a filter, e.g. \"$[?@.type == 'done']\" (a text message that is not JSON is a string: \"$[?@ == 'bye']\").",
    );
    return undefined;
  }
  return path;
}
