/**
 * One credential typed in two places is one variable. Docs sign a user up
 * and log in with the password the sign-up chose, typed twice (`/register`
 * then `/auth/login`, or a login form then `-u`); a recording logs in and
 * sends the same password again as a change's current one: each step asked
 * for its own (`REGISTER_PASSWORD`, `LOGIN_PASSWORD`), two variables for
 * what the commands (or the browser) send as one value. A variable asked for a
 * value an earlier one of the same kind (its last word: `PASSWORD`,
 * `TOKEN`, `KEY`) already holds is that earlier variable.
 *
 * @module
 */
import type { Correlator } from "./state.ts";

/** A variable's kind: its last word, a `_2` left out (`LOGIN_PASSWORD_2` → `PASSWORD`). */
const kindOf = (name: string) => name.replace(/_\d+$/, "").split("_").at(-1);

/** The variable asked before `name` for `value`, of the same kind, if any. */
function askedBefore(c: Correlator, name: string, value: string): string | undefined {
  // Only the keys holding `value`, in the order a walk of every key meets them (env_values.ts).
  for (const key of c.envByValue.endingWith(value)) {
    const asked = c.envByValue.get(key)!;
    if (asked !== name && kindOf(asked) === kindOf(name)) return asked;
  }
  return undefined;
}

/** Forgets `name`, asked a moment ago: what asked for it is sent as `earlier` from now on. */
function forget(c: Correlator, name: string, earlier: string): void {
  c.env.delete(name);
  for (const key of c.envByValue.holding(name)) c.envByValue.set(key, earlier);
}

/**
 * `ask`'s variable for `value`, or the earlier variable of the same kind
 * that holds it (the new one then forgotten).
 *
 * @example
 * ```ts
 * import { typedOnce } from "./typed_once.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import { secretEnv } from "./state.ts";
 * const c = newCorrelator("a");
 * secretEnv(c, "REGISTER_PASSWORD", "d1r3ctu5", "the sign-up's");
 * const name = typedOnce(c, "d1r3ctu5", () => secretEnv(c, "LOGIN_PASSWORD", "d1r3ctu5", "the login's"));
 * if (name !== "REGISTER_PASSWORD" || c.env.has("LOGIN_PASSWORD")) throw new Error(name);
 * ```
 */
export function typedOnce(c: Correlator, value: string, ask: () => string): string {
  const known = new Set(c.env.keys());
  const name = ask();
  const earlier = known.has(name) ? undefined : askedBefore(c, name, value);
  if (!earlier) return name;
  forget(c, name, earlier);
  return earlier;
}

/**
 * A value rule's text with the variable it just asked for replaced by the
 * earlier one that holds the same value (see {@linkcode typedOnce}).
 *
 * @example
 * ```ts
 * import { typedOnceIn } from "./typed_once.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import { secretEnv } from "./state.ts";
 * const c = newCorrelator("a");
 * secretEnv(c, "REGISTER_PASSWORD", "d1r3ctu5", "the sign-up's");
 * const out = typedOnceIn(c, "d1r3ctu5", () => `\${ENV.${secretEnv(c, "LOGIN_PASSWORD", "d1r3ctu5", "")}}`);
 * if (out !== "${ENV.REGISTER_PASSWORD}") throw new Error(out);
 * ```
 */
export function typedOnceIn(c: Correlator, value: string, rule: () => string): string {
  const known = new Set(c.env.keys());
  const out = rule();
  const asked = [...c.env.keys()].find((name) => !known.has(name));
  const earlier = asked && askedBefore(c, asked, value);
  if (!asked || !earlier) return out;
  forget(c, asked, earlier);
  return out.replaceAll(c.sp.envRef(asked), c.sp.envRef(earlier));
}
