/**
 * Writes whose answer reports work the server goes on doing after answering:
 * Bull Board's `POST /api/queues/mail/add` answers the new job and
 * `"status": "active"`, the state its worker had reached when the answer
 * left, and the list polled next shows the same job finished (`returnValue`
 * null, then the job's result) though no request touched it. A replay at
 * another pace, or with the worker still busy with the job before, reads
 * `"waiting"`: the answer's words are a moment of that work, no constant to
 * pin with `equals`. The evidence is the recording's own, whatever the
 * names: the write's answer holds an object with an id (`id`, `_id`,
 * `uuid`), and a later answer holds an object with the same id where a
 * member both have has another value, while no write in between named
 * that id (a later write to the item would explain the change itself; a
 * read changes nothing).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";

const WRITES = new Set(["POST", "PUT", "PATCH"]);
/** Records after the write searched for the item: the moment after the answer, bounded. */
const AHEAD = 40;
/** Objects visited in one answer: a long list is searched, never walked whole. */
const OBJECTS = 2000;
/** An answer longer than this is not searched (a bulk export says nothing of one item). */
const LONGEST = 200_000;

type Item = Record<string, unknown>;
const isItem = (v: unknown): v is Item => typeof v === "object" && v !== null && !Array.isArray(v);

/** The id of `o` (`id`, `_id`, `uuid`) as text, if it has one. */
function idOf(o: Item): string | undefined {
  const id = o.id ?? o._id ?? o.uuid;
  return typeof id === "string" && id !== "" || typeof id === "number" ? String(id) : undefined;
}

/** The objects with an id that `json` holds (itself included), at most `OBJECTS` visited. */
function items(json: unknown): Map<string, Item> {
  const out = new Map<string, Item>();
  const queue: unknown[] = [json];
  // An index, not `shift()`, and no spread of a long list: a big answer stays linear and bounded.
  for (let at = 0; at < queue.length && at < OBJECTS; at++) {
    const v = queue[at];
    const inside = Array.isArray(v) ? v : isItem(v) ? Object.values(v) : [];
    if (isItem(v)) {
      const id = idOf(v);
      if (id !== undefined && !out.has(id)) out.set(id, v);
    }
    for (const x of inside) {
      if (queue.length >= OBJECTS) break;
      if (typeof x === "object" && x !== null) queue.push(x);
    }
  }
  return out;
}

/**
 * Whether `later` is `first` again, with a member changed (`null`, then a result): it holds
 * nearly every member of `first` (four in five), since a short id names things of other kinds
 * too (WordPress's user 1 and its category 1 share `name`, `slug` and `link`, and no more).
 */
function changed(first: Item, later: Item): boolean {
  const keys = Object.keys(first);
  const shared = keys.filter((k) => Object.hasOwn(later, k));
  if (keys.length < 2 || shared.length * 5 < keys.length * 4) return false;
  return shared.some((k) => JSON.stringify(later[k]) !== JSON.stringify(first[k]));
}

/** Whether request `e` names `id`: in its URL, or in its body as a whole value. */
function names(e: HarRecord, id: string): boolean {
  const whole = new RegExp(`(^|[^\\w-])${escapeRegExp(id)}($|[^\\w-])`);
  return whole.test(decodeURIComponent(e.url.href)) || whole.test(e.bodyText ?? "");
}

/**
 * Notes the 2xx writes of `ordered` whose answered item a later answer shows changed with no
 * request naming it in between (see the module), in `c.movedOn`.
 *
 * @example
 * ```ts
 * import { movesOn, noteMovedOn } from "./moved_on.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const r = (method: string, url: string, json: unknown) =>
 *   ({ method, url: new URL(url), status: 200, hasJson: true, json, responseText: JSON.stringify(json) });
 * const add = r("POST", "http://q.test/jobs", { job: { id: "1", result: null }, status: "active" });
 * const poll = r("GET", "http://q.test/jobs", [{ id: "1", result: "sent" }]);
 * // deno-lint-ignore no-explicit-any
 * noteMovedOn(c, [add, poll] as any);
 * // deno-lint-ignore no-explicit-any
 * if (!movesOn(c, add as any)) throw new Error();
 * ```
 */
export function noteMovedOn(c: Correlator, ordered: readonly HarRecord[]): void {
  ordered.forEach((w, i) => {
    const ok = w.status !== undefined && w.status >= 200 && w.status < 300;
    if (!ok || !WRITES.has(w.method) || !searched(w)) return;
    const answered = items(w.json);
    // One item, or a few beside it (a job and its queue): a listing answered is no new item.
    if (answered.size === 0 || answered.size > 3) return;
    const after = ordered.slice(i + 1, i + 1 + AHEAD);
    if ([...answered].some(([id, first]) => shownChanged(after, id, first))) c.movedOn.add(w);
  });
}

/** Whether `e` has a JSON answer short enough to search. */
const searched = (e: HarRecord) => e.hasJson && (e.responseText?.length ?? 0) <= LONGEST;

/**
 * Whether an answer of `after` shows the item `id` with a member of `first` changed before a
 * write names it.
 */
function shownChanged(after: readonly HarRecord[], id: string, first: Item): boolean {
  for (const e of after) {
    if (e.method !== "GET" && e.method !== "HEAD" && names(e, id)) return false;
    if (!searched(e) || !e.responseText?.includes(id)) continue;
    const later = items(e.json).get(id);
    if (later && changed(first, later)) return true;
  }
  return false;
}

/**
 * Whether the write `r`'s answer reports work the server went on with (see the module): its
 * words are checked by type only.
 *
 * @example
 * ```ts
 * import { movesOn } from "./moved_on.ts";
 * import { emptyCorrelator } from "./state.ts";
 * // deno-lint-ignore no-explicit-any
 * if (movesOn(emptyCorrelator("a", true), {} as any)) throw new Error();
 * ```
 */
export function movesOn(c: Correlator, r: HarRecord): boolean {
  return c.movedOn.has(r);
}
