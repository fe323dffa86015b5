/**
 * The capture of a JSON Web Token a lost sign-in answer held
 * (`../lost_jwt.ts`): the live answer's first text shaped as one, a secret.
 *
 * @module
 */
import { valueKey } from "../json.ts";
import { JWT_PATTERN } from "../lost_jwt.ts";
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";

/**
 * Makes `step` the producer of the JSON Web Token its lost answer held, when
 * `readLostAnswers` found one and nothing produced that value before.
 *
 * @example
 * ```ts
 * import { produceLostJwt } from "./lost_jwt.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * // deno-lint-ignore no-explicit-any
 * produceLostJwt(c, { last: { lostJwt: "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl" } } as any);
 * if (c.producers.size !== 1 || !c.secrets.has("eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl")) throw new Error();
 * ```
 */
export function produceLostJwt(c: Correlator, step: Step): void {
  const value = step.last.lostJwt;
  if (value === undefined) return;
  const k = valueKey(value);
  if (c.producers.has(k)) return;
  const producer: Producer = {
    step,
    source: { kind: "regex", name: "token", pattern: JWT_PATTERN },
    secret: true,
  };
  c.producers.set(k, producer);
  c.tokens.push([value, producer]);
  c.secrets.add(value);
}
