/**
 * Whether the flows' `openapi:` checks can use the document: the loader
 * refuses one whose schema refers to itself without descending into the
 * value, or nests past its limit, and then every flow written from it would
 * fail `validate`. The conversion ends with the loader's sentence instead.
 *
 * @module
 */
import { schemaProblem } from "../../load/schema_problem.ts";
import { UsageError } from "../../model/errors.ts";

/**
 * Throws the `bad-openapi` {@linkcode UsageError} naming the schema the
 * loader would refuse in `document`; nothing when it can be used.
 *
 * @example
 * ```ts
 * import { assertCheckable } from "./checkable.ts";
 * assertCheckable({ components: { schemas: { A: { type: "string" } } } }, "api.json");
 * let said = "";
 * try {
 *   assertCheckable({ components: { schemas: { A: { $ref: "#/components/schemas/A" } } } }, "api.json");
 * } catch (error) {
 *   said = (error as Error).message;
 * }
 * if (!said.includes("#/components/schemas/A")) throw new Error(said);
 * ```
 */
export function assertCheckable(document: unknown, source: string): void {
  const problem = schemaProblem(document, "openapi");
  if (problem === undefined) return;
  throw new UsageError(
    "bad-openapi",
    `"${source}" cannot be used by the flows' openapi: checks: ${problem}.`,
    "Fix the schema it names, then convert again.",
  );
}
