/**
 * What step `i` sends that is evidence to `--verify`: the values an earlier
 * response handed out (with those responses), the values asked of the user,
 * and, when a step that does not pass has nothing else to try, why.
 *
 * @module
 */
import type { Step } from "./model.ts";
import { MAX_VERIFY_RUNS } from "./verify_report.ts";
import { liveText, type Producer, recordedByName, type Verification } from "./verify_state.ts";

/**
 * The values step `i` sent that an earlier response handed out, with those responses.
 *
 * @example
 * ```ts
 * import type { Sent } from "./verify_sent.ts";
 * const none: Sent = [];
 * if (none.length !== 0) throw new Error();
 * ```
 */
export type Sent = readonly (readonly [string, Producer[]])[];

/**
 * The recorded values of the variables the user must set and the environment does not.
 *
 * @example
 * ```ts
 * import { askedOfUser } from "./verify_sent.ts";
 * import type { Verification } from "./verify_state.ts";
 * const c = { envByValue: new Map([["h\ntok_1", "CSRF_TOKEN"]]), env: new Map([["CSRF_TOKEN", {}]]) };
 * const v = { c, env: () => undefined } as unknown as Verification;
 * if (!askedOfUser(v).has("tok_1")) throw new Error();
 * ```
 */
export function askedOfUser(v: Verification): Set<string> {
  return new Set(
    [...recordedByName(v.c)].filter(([name]) =>
      v.c.env.get(name)?.fallback === undefined && v.env(name) === undefined
    ).map(([, value]) => value),
  );
}

/**
 * The values request `i` sent that an earlier response handed out, by their
 * producers (those whose live value is known).
 *
 * @example
 * ```ts
 * import { sentBack } from "./verify_sent.ts";
 * import type { Verification } from "./verify_state.ts";
 * const v = { producers: new Map(), sent: ["GET /a"], live: new Map() } as unknown as Verification;
 * if (sentBack(v, 0).length !== 0) throw new Error();
 * ```
 */
export function sentBack(v: Verification, i: number): Sent {
  return [...v.producers].filter(([value]) =>
    v.sent[i].includes(value) || v.sent[i].includes(encodeURIComponent(value))
  ).map(([value, list]) =>
    [value, list.filter((p) => p.index < i && liveText(v, p) !== undefined)] as const
  )
    .filter(([, list]) => list.length > 0);
}

/**
 * Why a step that does not pass was not sent again with anything else.
 *
 * @example
 * ```ts
 * import { nothingToTry } from "./verify_sent.ts";
 * import type { Verification } from "./verify_state.ts";
 * const c = { steps: [{ url: "${ENV.KEY}", headers: [] }], env: new Map([["KEY", {}]]), sp: { envRef: (n: string) => `\${ENV.${n}}` } };
 * const v = { c, runs: 1, dropped: new Map(), env: () => undefined, producers: new Map(), sent: [""] } as unknown as Verification;
 * if (!nothingToTry(v, 0).includes("no earlier response handed out KEY")) throw new Error(nothingToTry(v, 0));
 * ```
 */
export function nothingToTry(v: Verification, i: number): string {
  if (v.runs >= MAX_VERIFY_RUNS) return `the bound of ${MAX_VERIFY_RUNS} step runs was reached`;
  const lost = [...v.dropped].find(([value]) => v.sent[i].includes(value));
  if (lost) return `nothing to try: a value it sends was handed out by ${lost[1]}`;
  const unset = unsetVariables(v, v.c.steps[i]);
  if (unset.length > 0) {
    return `nothing to try: no earlier response handed out ${
      unset.join(", ")
    }, which it reads; set ${unset.length > 1 ? "them" : "it"} in the environment`;
  }
  return sentBack(v, i).length === 0
    ? "nothing to try: no earlier response handed out a value it sends"
    : "nothing else to try: each earlier response that handed out a value it sends hands out the one it was sent with";
}

/** The variables without a default that step reads and the environment does not set. */
function unsetVariables(v: Verification, step: Step): string[] {
  const text = JSON.stringify([step.url, step.headers, step.body, step.form, step.multipart]);
  return [...v.c.env].filter(([name, x]) =>
    x.fallback === undefined && v.env(name) === undefined &&
    text.includes(JSON.stringify(v.c.sp.envRef(name)).slice(1, -1))
  ).map(([name]) => name);
}
