/**
 * Ids a response hands out only in its `Location` path: a `201 Created`
 * with no body (or a redirect to the new resource) names the resource by
 * URL, and the page's script takes the id from the last segments to build
 * later paths and bodies (`/boards/brd_9f…/cards`, `{"board_id": …}`). Such
 * an id is captured by a regular expression over the fresh `Location`, the
 * other segments matched as written, so a fresh instance's id is sent.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Step } from "../model.ts";
import type { Correlator } from "./state.ts";
import { responseHeaders } from "../handed.ts";
import { safeDecode } from "../json.ts";
import { singular } from "../names.ts";
import { looksLikeId } from "../values.ts";
import { escapeRegExp as escape } from "../../_util/regex_escape.ts";

/** An id of a `Location` path and the pattern whose first group finds it again. */
export interface LocationId {
  value: string;
  pattern: string;
}

const ANY_SEGMENT = "[^/?#]+";

/**
 * Whether a path segment is an id: after a collection's name (`boards`, no
 * digit, unlike `v1`), a row number of 3 digits or more (`/orders/1042`, as
 * a JSON id must be) or id-shaped under `board_id` and holding a digit, so
 * a word (`cards`, `export`) is never taken for one.
 */
function isIdSegment(previous: string, segment: string): boolean {
  if (!/^[A-Za-z][A-Za-z_-]*$/.test(previous) || !/\d/.test(segment)) return false;
  const key = `${singular(previous)}_id`;
  return /^\d+$/.test(segment) ? looksLikeId(key, Number(segment)) : looksLikeId(key, segment);
}

/**
 * The ids in the `Location` path of a `201` or a redirect, each with a
 * pattern over the header's value (absolute or relative) whose group is it.
 *
 * @example
 * ```ts
 * import { locationIds } from "./location_ids.ts";
 * const r = { url: new URL("https://a.test/v1/boards/brd_19af/cards"), status: 201,
 *   raw: { response: { headers: [{ name: "Location", value: "/v1/boards/brd_19af/cards/crd_77b2c0" }] } } };
 * // deno-lint-ignore no-explicit-any
 * const ids = locationIds(r as any);
 * if (ids.length !== 2 || ids[1].value !== "crd_77b2c0") throw new Error();
 * const m = new RegExp(ids[1].pattern).exec("https://b.test/v1/boards/brd_000001/cards/crd_1e2d3c");
 * if (m?.[1] !== "crd_1e2d3c") throw new Error(ids[1].pattern);
 * // A row number is an id too; a version (`v2`) and a word are not.
 * const order = { ...r, url: new URL("https://a.test/api/v2/orders"),
 *   raw: { response: { headers: [{ name: "location", value: "/api/v2/orders/1042" }] } } };
 * // deno-lint-ignore no-explicit-any
 * if (locationIds(order as any).map((i) => i.value).join() !== "1042") throw new Error();
 * // A 200's Location hands out nothing (chrome-har attaches a redirect's to the page after it).
 * // deno-lint-ignore no-explicit-any
 * if (locationIds({ ...r, status: 200 } as any).length !== 0) throw new Error();
 * ```
 */
export function locationIds(r: HarRecord): LocationId[] {
  const created = r.status === 201 || (r.status !== undefined && r.status >= 300 && r.status < 400);
  const location = responseHeaders(r).find((h) => h.name.toLowerCase() === "location")?.value;
  if (!created || !location || !URL.canParse(location, r.url)) return [];
  const segments = new URL(location, r.url).pathname.split("/").slice(1).map(safeDecode);
  const ids = segments.map((s, i) => i > 0 && isIdSegment(segments[i - 1], s));
  const out: LocationId[] = [];
  segments.forEach((segment, i) => {
    if (!ids[i]) return;
    const before = segments.slice(0, i).map((s, j) => ids[j] ? ANY_SEGMENT : escape(s));
    out.push({
      value: segment,
      pattern: `/${[...before, `(${ANY_SEGMENT})`].join("/")}(?:[/?#]|$)`,
    });
  });
  return out;
}

/**
 * The keys a capture of such an id is named by: the collection before it
 * and `id` (`["boards", "id"]`, so `board_id`), or `location` for another pattern.
 *
 * @example
 * ```ts
 * import { locationIdKeys } from "./location_ids.ts";
 * if (locationIdKeys("/v1/boards/([^/?#]+)(?:[/?#]|$)").join() !== "boards,id") throw new Error();
 * ```
 */
export function locationIdKeys(pattern: string): string[] {
  const m = /([A-Za-z][\w-]*)\/\(\[\^\/\?#\]\+\)/.exec(pattern);
  return m ? [m[1], "id"] : ["location"];
}

/**
 * Notes the row a write (`POST`, `PUT`) answered 201 or a redirect to by its `Location`'s last
 * number segment, however small and whatever words of a page of the row follow it (Rails'
 * `POST /projects/p/issues` → 302 `/issues/1`, Django's → `/users/2/change/`), as a
 * member of the collection before it (`/issues`): captured from the fresh `Location` only where
 * a later request sends it right under that collection (`/issues/1/edit`), as a JSON create's
 * small id is (`created_ids.ts`); a `1` sent elsewhere (a form's `tracker_id`) stays.
 *
 * @example
 * ```ts
 * import { noteLocationRow } from "./location_ids.ts";
 * import { createdIdProducer } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 302, url: new URL("http://a.test/projects/p/issues"),
 *   raw: { response: { headers: [{ name: "Location", value: "http://a.test/issues/1" }] } } };
 * // deno-lint-ignore no-explicit-any
 * noteLocationRow(c, { last } as any);
 * if (createdIdProducer(c, "/issues", "1") === undefined) throw new Error();
 * if (createdIdProducer(c, "/trackers", "1") !== undefined) throw new Error();
 * const page = { ...last, url: new URL("http://a.test/admin/users/add/"),
 *   raw: { response: { headers: [{ name: "Location", value: "/admin/users/2/change/" }] } } };
 * // deno-lint-ignore no-explicit-any
 * noteLocationRow(c, { last: page } as any);
 * if (createdIdProducer(c, "/admin/users", "2") === undefined) throw new Error();
 * ```
 */
export function noteLocationRow(c: Correlator, step: Step): void {
  const r = step.last;
  if ((r.method !== "POST" && r.method !== "PUT") || locationIds(r).length > 0) return;
  const created = r.status === 201 || (r.status !== undefined && r.status >= 300 && r.status < 400);
  const location = responseHeaders(r).find((h) => h.name.toLowerCase() === "location")?.value;
  if (!created || !location || !URL.canParse(location, r.url)) return;
  const path = safeDecode(new URL(location, r.url).pathname).replace(/\/+$/, "");
  // The row's page may follow its number (Django's `/users/2/change/`): the words after it stay.
  const m = /^(.*\/[A-Za-z][A-Za-z_-]*)\/(\d{1,15})(?:\/[A-Za-z][A-Za-z_-]*)*$/.exec(path);
  // Created_ids.ts keys a collection's rows so (its createdKey): one collection, one number.
  const key = m ? `${m[1]}\u0000${Number(m[2])}` : undefined;
  if (!m || key === undefined || c.members.has(key)) return;
  const pattern = `/${m[1].split("/").slice(1).map(escape).join("/")}/(\\d+)(?:[/?#]|$)`;
  c.members.set(key, {
    producer: { step, source: { kind: "header", name: "location", regex: pattern }, secret: false },
    under: m[1],
  });
}
