/**
 * Which top-level members a growing set of recorded answers held, counted as
 * the answers are added, so "did any of them lack this member" is a lookup
 * and not a walk over every answer: a recording that repeats one request
 * thousands of times (a poll, a chat's posts) asks it for each field of each
 * step, which walking made quadratic in the repeats.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";

const isObject = (v: unknown): v is object =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Answers added one by one (an answer added twice counts twice), and for
 * each member name how many of the JSON-object answers held it.
 *
 * @example
 * ```ts
 * import { AnswerKeys } from "./answer_keys.ts";
 * import type { HarRecord } from "./har_model.ts";
 * const a = { hasJson: true, json: { id: 1, tags: [] } } as unknown as HarRecord;
 * const b = { hasJson: true, json: { id: 2 } } as unknown as HarRecord;
 * const keys = new AnswerKeys();
 * keys.add(a);
 * keys.add(b);
 * if (!keys.lacks("tags") || keys.lacks("id") || keys.lacks("tags", b)) throw new Error();
 * ```
 */
export class AnswerKeys {
  /** How many times each answer was added: the one a question leaves out is left out each time. */
  #times = new Map<HarRecord, number>();
  /** Answers whose body is a JSON object. */
  #objects = 0;
  /** Answers with no JSON body recorded. */
  #bare = 0;
  /** For each member name, how many of the JSON-object answers held it. */
  #held = new Map<string, number>();

  /** Notes one more answer. */
  add(r: HarRecord): void {
    this.#times.set(r, (this.#times.get(r) ?? 0) + 1);
    if (!r.hasJson) this.#bare++;
    else if (isObject(r.json)) {
      this.#objects++;
      // Every own name, as `Object.hasOwn` sees them: a member is held whatever its value.
      for (const key of Object.getOwnPropertyNames(r.json)) {
        this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
      }
    }
  }

  /**
   * Whether an answer other than `except` is a JSON object without `key`,
   * or, when `bare` counts, has no JSON body at all (nothing shows what it
   * held).
   */
  lacks(key: string, except?: HarRecord, bare = false): boolean {
    let lacking = this.#objects - (this.#held.get(key) ?? 0) + (bare ? this.#bare : 0);
    const times = except === undefined ? 0 : this.#times.get(except) ?? 0;
    if (times > 0 && except !== undefined && lacksOne(except, key, bare)) lacking -= times;
    return lacking > 0;
  }
}

/** Whether the one answer `r` lacks `key` as {@linkcode AnswerKeys.lacks} counts it. */
function lacksOne(r: HarRecord, key: string, bare: boolean): boolean {
  if (!r.hasJson) return bare;
  return isObject(r.json) && !Object.hasOwn(r.json, key);
}
