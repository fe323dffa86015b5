/**
 * Whether an include step has checks or captures of its own, which make it
 * a step of the report besides its included flow's steps.
 *
 * @module
 */
import type { Step } from "../model/flow.ts";

/**
 * Whether an include step checks or captures anything of its own.
 *
 * @example
 * ```ts
 * import { ownChecks } from "./own_checks.ts";
 * // deno-lint-ignore no-explicit-any
 * const step: any = { include: {}, captures: [], assert: { status: { anyOf: [200] }, paths: [] } };
 * if (!ownChecks(step)) throw new Error();
 * ```
 */
export function ownChecks(step: Step): boolean {
  // Steps made by hand (tests, the library's callers) may leave out what they do not use.
  const { assert, captures } = step as Partial<Step>;
  return step.include !== undefined && (
    (captures?.length ?? 0) > 0 || assert?.status !== undefined ||
    (assert?.paths.length ?? 0) > 0 || (assert?.schemas?.length ?? 0) > 0 ||
    (assert?.xpaths?.length ?? 0) > 0
  );
}
