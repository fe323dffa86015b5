/**
 * Names a response under a collection handed out: `GET /files` → `["notes.txt"]`, then
 * `GET /files/notes.txt`. A name is no id by its shape (a file name, a slug, a word), so it is
 * taken only where a later request opens it as the path segment right under the collection
 * whose response named it: REST's own way to go from a listing to a member, and the place a
 * fresh instance's other name must go. Seen on LoopBack's file-transfer page: no HAR form holds
 * a multipart upload's body, the replay uploads a placeholder under another name, and the
 * download written literally answered 404. A name the recording sent before (typed by the user)
 * is the user's, not handed out.
 *
 * @module
 */
import { safeDecode, valueKey, walk } from "../json.ts";
import type { Step } from "../model.ts";
import { isIdKey, isUuid } from "../values.ts";
import { trimmed } from "./created_ids.ts";
import type { Correlator } from "./state.ts";

/** The longest name taken: a path segment, not a document. */
const MAX_NAME = 200;

/**
 * Notes the names a 2xx JSON response holds as members of its request's path: string leaves
 * that are no path, URL or API word, and whole numbers under id-like keys, that no earlier
 * request sent. The latest response naming a value is its source (the listing the user opened
 * it from, not the upload that answered the name of a file the replay sends in another form);
 * a row a create made keeps its create.
 *
 * @example
 * ```ts
 * import { createdIdProducer } from "./created_ids.ts";
 * import { noteListedNames } from "./listed_names.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "GET", status: 200, url: new URL("http://a.test/files"), hasJson: true, json: ["notes.txt"] };
 * // deno-lint-ignore no-explicit-any
 * noteListedNames(c, { last } as any);
 * if (createdIdProducer(c, "/files", "notes.txt") === undefined) throw new Error();
 * if (createdIdProducer(c, "/docs", "notes.txt") !== undefined) throw new Error();
 * ```
 */
export function noteListedNames(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || r.status === undefined || r.status < 200 || r.status > 299) return;
  const under = trimmed(safeDecode(r.url.pathname));
  walk(r.json, (path, key, leaf) => {
    const text = memberText(key, leaf);
    if (text === undefined || c.apiWords.has(text) || c.sentSeen.has(valueKey(leaf))) return;
    const known = c.members.get(text);
    if (known !== undefined && !known.listed) return;
    const producer = { step, source: { kind: "json" as const, path }, secret: false };
    c.members.set(text, { producer, under, listed: true });
  });
}

/** The text a leaf goes into a path as, when it can name a member. */
function memberText(key: string, leaf: unknown): string | undefined {
  if (typeof leaf === "number") {
    return Number.isInteger(leaf) && leaf >= 0 && isIdKey(key) ? String(leaf) : undefined;
  }
  if (typeof leaf !== "string" || leaf === "" || leaf.length > MAX_NAME) return undefined;
  // A path or URL goes whole (`handed.ts`); a sentence or a line is no member's name.
  if (/[/\n\r\t]|^\.\.?$/.test(leaf) || /^\s|\s$/.test(leaf)) return undefined;
  return leaf;
}

/** Per correlator: the names a write made its own, sent as written wherever later sent. */
const claimed = new WeakMap<Correlator, Set<string>>();

/**
 * Whether a path segment is a name the request makes its own rather than one to take from a
 * listing: only a read handed it out, it is a name, not an id's shape (a number, a UUID: the
 * server's, whatever reads it), and a POST or PUT (`write`) ends its path with it (`last`). Such
 * a write makes or replaces what it names (a folder an upload makes, `PUT …/dirs/x`); taking the
 * name from the listing failed on a fresh instance, whose listing is empty (a package repository
 * tool's files page). Later requests send it as written too: it is the write's.
 *
 * @example
 * ```ts
 * import { ownName } from "./listed_names.ts";
 * import { emptyCorrelator } from "./state.ts";
 * import { valueKey } from "../json.ts";
 * const c = emptyCorrelator("a", true);
 * const read = { method: "GET" };
 * // deno-lint-ignore no-explicit-any
 * c.producers.set(valueKey("inbox"), { step: read, source: { kind: "json", path: [0] } } as any);
 * // deno-lint-ignore no-explicit-any
 * c.producers.set(valueKey("42"), { step: read, source: { kind: "json", path: [1] } } as any);
 * if (ownName(c, "inbox", false, true) || ownName(c, "42", true, true)) throw new Error();
 * if (!ownName(c, "inbox", true, true) || !ownName(c, "inbox", false, false)) throw new Error();
 * ```
 */
export function ownName(c: Correlator, segment: string, write: boolean, last: boolean): boolean {
  if (claimed.get(c)?.has(segment)) return true;
  if (!write || !last || /^\d+$/.test(segment) || isUuid(segment)) return false;
  const method = c.producers.get(valueKey(segment))?.step.method ??
    c.members.get(segment)?.producer.step.method;
  if (method !== "GET" && method !== "HEAD") return false;
  if (!claimed.has(c)) claimed.set(c, new Set());
  claimed.get(c)!.add(segment);
  return true;
}
