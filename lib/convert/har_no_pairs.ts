/**
 * A JSON body chrome-har recorded as no name/value pair at all. chrome-har
 * keeps a JSON body only as the pairs of its top-level keys, a list as one
 * pair per item, so `{}`, `[]` and `{"tags":[]}` all come out as
 * `params: []` with no text, though the browser sent bytes (`bodySize`,
 * `Content-Length`). Read as no body, the step sends nothing under a JSON
 * content type, which a strict parser refuses (Fastify's 400 "Body cannot be
 * empty"). The evidence that gives it back: two bytes are an empty object or
 * an empty list, told apart by the recording's other bodies sent to the same
 * endpoint; more bytes are an object whose members were all empty lists,
 * which the repair of flattened bodies puts back (har_dropped_lists.ts).
 *
 * @module
 */
import { isObject, str } from "./_har_fields.ts";
import { type HarRecord, isJsonMime } from "./har_model.ts";
import { requestShape } from "./two_recordings.ts";

/**
 * Gives each record whose JSON body chrome-har kept as no pairs the body it
 * most likely sent, `{}` or `[]`, marked as rebuilt from pairs so the repair
 * of flattened bodies reads it against the size sent; `sentSize` is that
 * size. Returns a note for each empty body no other body tells apart.
 *
 * @example
 * ```ts
 * import { noPairsBodies } from "./har_no_pairs.ts";
 * import { parseHar } from "./har_model.ts";
 * const put = (params: unknown[], bodySize: number) => ({
 *   request: { method: "PUT", url: "https://app.test/boards/1/order", bodySize,
 *     postData: { mimeType: "application/json", params } },
 *   response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 * });
 * const entries = [put([], 2), put([{ name: "0", value: "c1" }], 6)];
 * const { records } = parseHar(JSON.stringify({ log: { entries } }), []);
 * const notes = noPairsBodies(records, (r) => r.index === 0 ? 2 : 6);
 * if (records[0].bodyText !== "[]" || notes.length !== 0) throw new Error(records[0].bodyText);
 * ```
 */
export function noPairsBodies(
  records: HarRecord[],
  sentSize: (r: HarRecord) => number | undefined,
): string[] {
  const notes: string[] = [];
  const empty = records.filter((r) => noPairs(r) && (sentSize(r) ?? 0) > 0);
  // Evidence is what the page sent elsewhere, never another body rebuilt here.
  const others = records.filter((r) => !empty.includes(r));
  for (const r of empty) {
    const shapes = new Set(others.filter((o) => sameEndpoint(o, r)).map(shapeOf));
    shapes.delete(undefined);
    const list = sentSize(r) === 2 && shapes.size === 1 && shapes.has("list");
    r.bodyText = list ? "[]" : "{}";
    r.bodyFromParams = true;
    if (sentSize(r) === 2 && shapes.size !== 1) {
      const note = `The request body of ${r.method} ${r.url.origin}${r.url.pathname} was ` +
        `recorded as no name/value pairs (chrome-har) though 2 bytes were sent: an empty ` +
        `object {} or an empty list [], which chrome-har records alike, and no other body sent ` +
        `there tells which. It is sent as {}: check the step's body.`;
      UNTOLD.set(r, note);
      notes.push(note);
    }
  }
  return notes;
}

/** The records sent as `{}` that no evidence told from `[]`, with the note that says so. */
const UNTOLD = new WeakMap<HarRecord, string>();

/**
 * With a second recording of the journey: each body {@linkcode noPairsBodies}
 * could not tell, taken from the other recording's request at the same place
 * when that one kept its text, `{}` or `[]`. Returns the notes withdrawn.
 *
 * @example
 * ```ts
 * import { noPairsBodies, toldByOtherForm } from "./har_no_pairs.ts";
 * import { parseHar } from "./har_model.ts";
 * const put = (postData: unknown) => ({
 *   request: { method: "PUT", url: "https://app.test/order", bodySize: 2, postData },
 *   response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 * });
 * const one = (postData: unknown) => parseHar(JSON.stringify({ log: { entries: [put(postData)] } }), []).records;
 * const [a] = one({ mimeType: "application/json", params: [] });
 * const [b] = one({ mimeType: "application/json", text: "[]" });
 * const notes = noPairsBodies([a], () => 2);
 * const withdrawn = toldByOtherForm([[a, b]]);
 * if (a.bodyText !== "[]" || withdrawn[0] !== notes[0]) throw new Error(a.bodyText);
 * ```
 */
export function toldByOtherForm(pairs: readonly [HarRecord, HarRecord][]): string[] {
  const withdrawn: string[] = [];
  for (const [a, b] of pairs) {
    const note = UNTOLD.get(a);
    const other = b.bodyFromParams ? undefined : b.bodyText?.trim();
    if (note === undefined || (other !== "[]" && other !== "{}")) continue;
    a.bodyText = other;
    UNTOLD.delete(a);
    withdrawn.push(note);
  }
  return withdrawn;
}

/** Whether `r` holds a JSON body chrome-har wrote as an empty list of pairs and no text. */
function noPairs(r: HarRecord): boolean {
  if (r.bodyText !== undefined || r.bodyFromParams) return false;
  const request = isObject(r.raw.request) ? r.raw.request : {};
  const post = isObject(request.postData) ? request.postData : undefined;
  if (!post || !Array.isArray(post.params) || post.params.length > 0) return false;
  return isJsonMime(r.bodyMime) && !str(post.text);
}

/** Same host and shape: method and path, segments naming an instance left open (two_recordings.ts). */
function sameEndpoint(a: HarRecord, b: HarRecord): boolean {
  return a.url.host === b.url.host && requestShape(a) === requestShape(b);
}

/** Whether a JSON request body is a list or an object; `undefined` when it is neither or none. */
function shapeOf(r: HarRecord): "list" | "object" | undefined {
  if (!isJsonMime(r.bodyMime) || r.bodyText === undefined) return undefined;
  const first = r.bodyText.trimStart()[0];
  return first === "[" ? "list" : first === "{" ? "object" : undefined;
}
