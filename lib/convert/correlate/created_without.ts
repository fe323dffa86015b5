/**
 * Members an answer that is an item the journey made may not hold yet: those
 * the create's own answer of that item lacked. Hexo's admin answers
 * `POST /admin/api/posts/new` with the new draft (`_id`, `title`, raw
 * `_content`…), and its file watcher renders `content` and `excerpt` a
 * moment later, and again after each publish or unpublish moves the file;
 * the page read the post and unpublished it after such moments, a replay
 * does at once. The evidence is the recording's, whatever the names or
 * types: the answer holds, under a top-level member, an id that a create's
 * answer handed out under the same member, and that create answered the
 * item itself (at least one more member alike), so what it lacked came after.
 * A create that answered its id alone is an acknowledgement and says nothing
 * of what the item held then: the answer keeps every check.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Correlator } from "./state.ts";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Members both answers hold with one scalar value. */
function alike(a: Record<string, unknown>, b: Record<string, unknown>): number {
  let n = 0;
  for (const [key, value] of Object.entries(a)) {
    if (value === null || typeof value === "object") continue;
    if (Object.hasOwn(b, key) && b[key] === value) n++;
  }
  return n;
}

/** The answer of the create that handed out `value` under the top-level `key`, if one did. */
function createOf(c: Correlator, key: string, value: unknown): Record<string, unknown> | undefined {
  const producer = c.rules.producerFor(value);
  if (producer === undefined || producer.step.first.method !== "POST") return undefined;
  const { source } = producer;
  if (source.kind !== "json" || source.path.length !== 1 || source.path[0] !== key) {
    return undefined;
  }
  const made = producer.step.last;
  return made.hasJson && isObject(made.json) ? made.json : undefined;
}

/**
 * Whether a member of the answer `r` was missing from the answer of the
 * create of the item it is (see the module).
 *
 * @example
 * ```ts
 * import { createdWithout } from "./created_without.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import type { HarRecord } from "../har_model.ts";
 * import type { Producer } from "../model.ts";
 * const answer = (json: unknown) => ({ hasJson: true, json }) as unknown as HarRecord;
 * const made = answer({ _id: "cm1", title: "Ledger" });
 * const create = { first: { method: "POST" }, last: made };
 * const source = { kind: "json", path: ["_id"] };
 * const c = newCorrelator("a");
 * // The create's answer handed out `cm1` under `_id`.
 * c.rules = {
 *   ...c.rules,
 *   producerFor: (v) => v === "cm1" ? { step: create, source, secret: false } as unknown as Producer : undefined,
 * };
 * const later = createdWithout(c, answer({ _id: "cm1", title: "Ledger", content: "<p>x</p>" }));
 * if (!later("content") || later("title")) throw new Error();
 * ```
 */
export function createdWithout(c: Correlator, r: HarRecord): (key: string) => boolean {
  if (!r.hasJson || !isObject(r.json)) return () => false;
  const detail = r.json;
  const items: Record<string, unknown>[] = [];
  for (const [key, value] of Object.entries(detail)) {
    if (typeof value !== "string" && typeof value !== "number") continue;
    const made = createOf(c, key, value);
    // The id is one member alike; the item itself shows at least one more.
    if (made !== undefined && made !== detail && alike(made, detail) >= 2) items.push(made);
  }
  return (key) => items.some((json) => !Object.hasOwn(json, key));
}
