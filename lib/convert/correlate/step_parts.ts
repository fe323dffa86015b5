/**
 * What every step the correlator makes starts with, request or websocket:
 * no URL or headers yet, nothing sent, captured, used or checked.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { UniqueNames } from "../names.ts";

/**
 * A step's parts before its request is rewritten into it.
 *
 * @example
 * ```ts
 * import { emptyParts } from "./step_parts.ts";
 * const a = emptyParts();
 * if (a.captures.length !== 0 || a.captures === emptyParts().captures) throw new Error();
 * ```
 */
export function emptyParts(): Pick<
  Step,
  "url" | "headers" | "sent" | "captures" | "captureNames" | "captureByPath" | "uses" | "checks"
> {
  return {
    url: "",
    headers: [],
    sent: new Map(),
    captures: [],
    captureNames: new UniqueNames(),
    captureByPath: new Map(),
    uses: new Set(),
    checks: [],
  };
}
