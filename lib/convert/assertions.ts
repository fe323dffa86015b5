/**
 * What a converted step asserts: the recorded status (written by the
 * writer), a `type` check per top-level JSON field (at most 15, nulls
 * skipped, and fields an earlier answer of the same request lacked, or,
 * structured, the answer that created the resource (or whose answer was not
 * recorded: no evidence), or keyed by a value an
 * earlier answer handed out: an instance's own id, which another instance
 * names otherwise, or one the server adds to a new resource later), and `equals` only where a re-run must see the same value: values
 * the request itself sent, and stable-looking values (booleans, short
 * lower-case words) that are not ids, times, tokens or counts and that no
 * later request of the flow writes.
 *
 * @module
 */
import { AnswerKeys } from "./answer_keys.ts";
import type { HarRecord } from "./har_model.ts";
import type { Check, Step } from "./model.ts";
import { isStableValue, looksLikeToken } from "./values.ts";
import type { YNode, YScalar } from "./yaml_out.ts";
import { multistatusCheck } from "./multistatus.ts";

/**
 * Adds the body checks of `step` from its last recorded response.
 *
 * @example
 * ```ts
 * import { addAssertions } from "./assertions.ts";
 * const step = { last: { hasJson: true, json: { state: "new", id: "ord_1a2b3c4d" } }, sent: new Map(), checks: [] };
 * // deno-lint-ignore no-explicit-any
 * addAssertions(step as any, new Set(), () => false);
 * if (JSON.stringify(step.checks) !== '[{"path":["state"],"op":"equals","value":"new"},{"path":["id"],"op":"type","value":"string"}]') {
 *   throw new Error(JSON.stringify(step.checks));
 * }
 * ```
 */
export function addAssertions(
  step: Step,
  secrets: ReadonlySet<string>,
  writtenLater: (key: string, r: HarRecord) => boolean,
  earlier: AnswerKeys = new AnswerKeys(),
  created: AnswerKeys = new AnswerKeys(),
  notExpected: (key: string) => boolean = () => false,
): void {
  const r = step.last;
  const inside = multistatusCheck(r);
  if (inside) step.checks.push(inside);
  if (!r.hasJson) return;
  const json = r.json;
  if (Array.isArray(json)) {
    step.checks.push({ path: [], op: "type", value: "array" });
    return;
  }
  if (typeof json !== "object" || json === null) return;
  // A field an earlier answer of the same request lacked is one the server sends only
  // sometimes (Unleash fills a new feature's `lifecycle` a moment after creating it); so
  // is a structured one the answer that created the resource lacked (its `environments`,
  // `links`: the server may still be attaching them when a replay reads it).
  // A create with no JSON answer recorded (its body lost to a navigation) shows nothing of
  // what the resource held from the start: it lacks every structured field, as far as we know.
  // Both are counted as the answers come (answer_keys.ts): a request repeated thousands of
  // times asks for each field, and walking every earlier answer made that quadratic.
  const sometimes = (key: string) =>
    earlier.lacks(key, r) ||
    (typeof json[key as keyof typeof json] === "object" && created.lacks(key, r, true));
  let count = 0;
  for (const [key, value] of Object.entries(json)) {
    // A map keyed by the instance's ids (Syncthing's stats by device id, which an earlier
    // answer's header handed out): a fresh instance has other keys. A member the server
    // adds to a new resource later (filled_later.ts): a replay may read it before.
    if (value === null || count >= 15 || sometimes(key) || notExpected(key)) continue;
    count++;
    step.checks.push(fieldCheck(step, key, value, secrets, writtenLater));
  }
}

/**
 * The template a request sent for a value its response gives back, when a
 * check may expect it: a scalar, not generated afresh, not a secret.
 */
function sentBack(
  sent: { raw: unknown; template: YNode } | undefined,
  value: unknown,
  secrets: ReadonlySet<string>,
): YScalar | undefined {
  if (!sent || sent.raw !== value) return undefined;
  const template = sent.template;
  const scalar = template === null || typeof template !== "object";
  if (!scalar || String(template).includes("${RANDOM.")) return undefined;
  if (typeof value === "string" && secrets.has(value)) return undefined;
  // A number sent by a capture may be a page's text (`post_ID`): the answer's number is not it.
  if (typeof value === "number" && typeof template === "string") return undefined;
  return template as YScalar;
}

/**
 * The check of one top-level response field: `equals` the value the
 * request sent, `equals` a stable value no later request writes, else its
 * `type`.
 */
function fieldCheck(
  step: Step,
  key: string,
  value: unknown,
  secrets: ReadonlySet<string>,
  writtenLater: (key: string, r: HarRecord) => boolean,
): Check {
  const echo = sentBack(step.sent.get(key), value, secrets);
  if (echo !== undefined) return { path: [key], op: "equals", value: echo };
  const secret = typeof value === "string" &&
    (looksLikeToken(key, value) || secrets.has(value));
  // Read back, not sent: pinned only when no later request of the flow writes that field.
  if (!secret && isStableValue(key, value) && !writtenLater(key, step.last)) {
    return { path: [key], op: "equals", value: value as YScalar };
  }
  const type = Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value;
  return { path: [key], op: "type", value: type === "bigint" ? "number" : type };
}
