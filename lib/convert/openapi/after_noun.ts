/**
 * What a path parameter names after the noun of its producer's collection:
 * `{featureName}` of a feature made by `POST /features` is read from the
 * made feature's `name` (producers.ts).
 *
 * @module
 */
import { singular } from "../names.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { createdIn } from "./verb_segments.ts";

/**
 * What a parameter names after the noun of the producer's collection, as a plain
 * name: `name` of `{featureName}` for `POST /features`, `sid` of Twilio's
 * `{ChatServiceSid}` for `POST /v1/Services`; "" when it does not hold that noun.
 *
 * @example
 * ```ts
 * import { afterNoun } from "./after_noun.ts";
 * import { operationsOf } from "./operations.ts";
 * const [create] = operationsOf({ paths: { "/features": { post: {} } } });
 * if (afterNoun(create, "featureName") !== "name" || afterNoun(create, "id") !== "") throw new Error();
 * ```
 */
export function afterNoun(producer: OpenApiOperation, param: string): string {
  const last = createdIn(producer).split("/").filter((s) => s !== "").at(-1) ?? "";
  const plain = plainName(param);
  for (const noun of [plainName(singular(last)), plainName(last)]) {
    const at = noun === "" ? -1 : plain.lastIndexOf(noun);
    if (at >= 0 && plain.length > at + noun.length) return plain.slice(at + noun.length);
  }
  return "";
}
