/**
 * Reads a Postman environment (or globals) export: `{name, values: [{key,
 * value, enabled}]}`.
 *
 * @module
 */
import { PostmanInputError } from "./errors.ts";
import { pairs, str } from "./fields.ts";
import { parseJson } from "./input.ts";
import type { PmEnvironment } from "./model.ts";

/**
 * The environment in `text`.
 *
 * @example
 * ```ts
 * import { readEnvironment } from "./environment.ts";
 * const e = readEnvironment('{"name": "dev", "values": [{"key": "base", "value": "http://x", "enabled": true}]}');
 * if (e.name !== "dev" || e.values[0].value !== "http://x") throw new Error();
 * ```
 */
export function readEnvironment(
  text: string,
  input: "environment" | "globals" = "environment",
): PmEnvironment {
  const option = `--${input}`;
  const doc = parseJson(text, input) as
    | Record<string, unknown>
    | null;
  if (typeof doc !== "object" || doc === null || !Array.isArray(doc.values)) {
    throw new PostmanInputError(
      input,
      Array.isArray((doc as Record<string, unknown> | null)?.item)
        ? `The ${option} file is a Postman collection, not an environment.`
        : `The ${option} file is not a Postman environment (it has no "values" list).`,
      "Export the environment from Postman (Environments → Export) and give that .json file.",
    );
  }
  return { name: str(doc.name) || "environment", values: pairs(doc.values) };
}
