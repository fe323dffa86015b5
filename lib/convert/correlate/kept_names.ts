/**
 * Names the user typed for what the journey makes and keeps: a page posts
 * `{"name": "harbour"}` to `/rest/tags`, the answer echoes the name beside an
 * id the server made (`{"data": {"name": "harbour", "id": "6yN4…"}}`), and
 * nothing later deletes that item. The item outlives the run, so a second
 * run on the same instance types the same name again, which a server that
 * keeps names unique refuses (n8n's tags, NocoDB's tables); nothing recorded
 * says whether it does, and the item being kept is what makes it matter.
 *
 * The evidence, all of it from the recording:
 * - a write (POST, PUT, PATCH) answered 2xx sent the value in a name-like
 *   field (`name`, `username`, `*_name`, `*Name`; `NAMES`), not a title, which
 *   only describes the item, nor a person's name, which many people share;
 * - no earlier request or answer held the value: the user typed it here (a
 *   name an earlier answer listed is an existing row's, searched or picked).
 *   One earlier request may: a check of the same typed name under the same
 *   key (`POST /studio/validate-entity-name` with `{"name": "Orders
 *   sample"}`, answered without it) that the page sends before the create;
 *   a login's is an account's name, never a check;
 * - the answer echoes it under the same key, in an object with its own id
 *   (`id`, `uuid`, …): the item the server keeps; or, with no id beside it,
 *   the write or a later request addresses the item by the name as a whole
 *   path segment (`POST /parse/schemas/Voyage` answered
 *   `{"className": "Voyage", …}`): the name is the item's identifier;
 * - no later request deletes that item (a `DELETE`, or a URL or action
 *   naming a removal, that sends its id or its name; a long id may stand
 *   inside a path segment, as an OData key does: `DELETE
 *   /odata/templates(HZ2RufjDBXAjBBnw)`): a journey that deletes
 *   what it made leaves the instance as it found it, and keeps the name.
 *
 * Such a name becomes a var drawn once a run (`harbour-${RANDOM.HEX_8}`),
 * sent and checked wherever the recording had it, the search by it and the
 * lists that show it included. The suffix is short because the form's
 * length limit is nowhere in the recording: n8n's tag names stop at 24
 * characters, too few for the 22 of `${RUN_ID}`. An identifier a path
 * carries keeps the typed value's shape: a word (a letter, then letters,
 * digits, `_`) gets `_` (`Voyage_${RANDOM.HEX_8}`), since a server that
 * takes names for identifiers may refuse a `-` (Parse's class names do).
 * Emails and names ending in a number keep their own rule (`mixRunId`).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, safeDecode, walk } from "../json.ts";
import { singular, snake } from "../names.ts";
import { isSecretShaped, mixRunId } from "../values.ts";
import { ownName, sentFields } from "./client_names.ts";
import type { Correlator } from "./state.ts";

const WRITES = new Set(["POST", "PUT", "PATCH"]);
/** Keys that name a thing: `name`, `username`, `tag_name`, `tableName` (a title only describes one). */
const NAMES = /^(name|Name|username|userName)$|[_-][Nn]ame$|[a-z0-9]Name$/;
/** A person's name is no identifier: many people share one. */
const PERSON = /(first|last|middle|given|family|full|sur|nick|display)[_-]?name$/i;
/** Keys of an item's own id: `id`, `_id`, `uuid`, `pk`. */
const ID_KEY = /^(_?id|ID|Id|uuid|guid|pk)$/;
/** A word-shaped identifier: a letter, then letters, digits and `_` (no `-`, no space). */
const WORD = /^[A-Za-z]\w*$/;
/** A URL or an action field that names a removal. */
const REMOVES = /(^|[^a-z])(delete|destroy|remove|trash)/i;
const REMOVE_ACTION =
  /(_?method|action|op|operation|task)["']?\s*[:=]\s*["']?[\w.-]*(delete|destroy|remove|trash)/i;

/**
 * Makes each typed name of an item the journey keeps the run's own (see the
 * module).
 *
 * @example
 * ```ts
 * import { ownKeptNames } from "./kept_names.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const post = {
 *   method: "POST", url: new URL("http://a.test/rest/tags"), headers: [], status: 200,
 *   bodyText: '{"name":"harbour"}', json: { data: { name: "harbour", id: "6yN4g2UNNHPXoNGr" } },
 * };
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * ownKeptNames(c, [post] as any);
 * if (c.generated.get("harbour") !== "${vars.tag_name}") throw new Error(JSON.stringify(c.vars));
 * ```
 */
export function ownKeptNames(c: Correlator, ordered: readonly HarRecord[]): void {
  ordered.forEach((r, i) => {
    if (!WRITES.has(r.method) || !answered(r) || c.loginRecords.has(r)) return;
    for (const [key, name] of sentFields(r)) {
      if (!typedName(c, key, name)) continue;
      const byPath = addressedBy(r, ordered.slice(i), key, name);
      const id = echoedBeside(r, key, name) ?? (byPath ? name : undefined);
      if (id === undefined || ordered.slice(0, i).some((e) => heldBefore(c, e, key, name))) {
        continue;
      }
      if (ordered.slice(i + 1).some((e) => removes(e) && (sends(e, id) || sends(e, name)))) {
        continue;
      }
      const field = snake(key);
      const varName = field === "name" ? `${noun(r, id)}_name` : field;
      // An identifier a path carries keeps its own shape: a word gets no `-`.
      const glue = byPath && WORD.test(name) ? "_" : "-";
      ownName(c, name, varName, (lit) => `${lit}${glue}\${RANDOM.HEX_8}`);
    }
  });
}

/**
 * Whether the name is the item's own identifier: the answer echoes it under
 * `key` (with no id beside it) and the write or a later request addresses
 * the item by it as a whole path segment (`POST /schemas/Voyage`).
 */
function addressedBy(
  r: HarRecord,
  from: readonly HarRecord[],
  key: string,
  name: string,
): boolean {
  if (!echoes(r.json, key, name)) return false;
  return from.some((e) => e.url.pathname.split("/").some((s) => safeDecode(s) === name));
}

/** Whether `json` (an object, or one it holds) has `name` under `key`. */
function echoes(json: unknown, key: string, name: string): boolean {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const o = json as Record<string, unknown>;
  return o[key] === name ||
    Object.values(o).some((v) =>
      typeof v === "object" && v !== null && !Array.isArray(v) &&
      (v as Record<string, unknown>)[key] === name
    );
}

/** Whether `r` was answered 2xx. */
function answered(r: HarRecord): boolean {
  return r.status !== undefined && r.status >= 200 && r.status < 300;
}

/** Whether `value` under `key` is a name a person typed, no other rule's. */
function typedName(c: Correlator, key: string, value: string): boolean {
  if (c.generated.has(value) || !NAMES.test(key) || PERSON.test(key)) return false;
  if (!/\p{L}/u.test(value)) return false;
  if (value.length > 80 || /[\n\r]/.test(value) || isSecretShaped(value)) return false;
  return mixRunId(key, value, (t) => t) === undefined;
}

/**
 * The item's own id beside the echoed name in `r`'s JSON answer (the object
 * itself or one it holds), or `undefined` if none: `id`, not a `versionId`
 * or a `projectId` that names something else.
 */
function echoedBeside(r: HarRecord, key: string, name: string): string | undefined {
  const json = r.json;
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const objects = [json, ...Object.values(json)].filter((o): o is Record<string, unknown> =>
    typeof o === "object" && o !== null && !Array.isArray(o)
  );
  for (const o of objects) {
    if (o[key] !== name) continue;
    for (const [k, v] of Object.entries(o)) {
      if (ID_KEY.test(k) && (typeof v === "string" || typeof v === "number") && v !== "") {
        return String(v);
      }
    }
  }
  return undefined;
}

/**
 * Whether the earlier `e` held `name` so that it is no name typed for the
 * write: its answer held it, or its request did other than check it (the
 * same key, no login, answered without it).
 */
function heldBefore(c: Correlator, e: HarRecord, key: string, name: string): boolean {
  if (!holds(e, name)) return false;
  if (e.responseText?.includes(name) || c.loginRecords.has(e)) return true;
  const checked = e.status !== undefined && e.status < 400 &&
    sentFields(e).some(([k, v]) => k === key && v === name) &&
    !safeDecode(e.url.href).includes(name);
  return !checked;
}

/** Whether a request or answer of `e` holds `text` anywhere. */
function holds(e: HarRecord, text: string): boolean {
  return safeDecode(e.url.href).includes(text) || (e.bodyText?.includes(text) ?? false) ||
    (e.responseText?.includes(text) ?? false);
}

/**
 * Whether `e` names a removal: a `DELETE`, its URL, or an action field of its body.
 *
 * @example
 * ```ts
 * import { removes } from "./kept_names.ts";
 * const r = (method: string, url: string) => ({ method, url: new URL(url) });
 * // deno-lint-ignore no-explicit-any
 * if (!removes(r("GET", "http://a.test/post.php?post=5&action=trash") as any)) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (removes(r("GET", "http://a.test/post.php?post=5&action=edit") as any)) throw new Error();
 * ```
 */
export function removes(e: HarRecord): boolean {
  return e.method === "DELETE" || REMOVES.test(safeDecode(e.url.pathname + e.url.search)) ||
    REMOVE_ACTION.test(e.bodyText ?? "");
}

/**
 * Whether `e` sends `value` whole: a path segment, a query value (or one of a list), a body value.
 *
 * @example
 * ```ts
 * import { sends } from "./kept_names.ts";
 * const r = { method: "GET", url: new URL("http://a.test/post.php?post=5&action=trash") };
 * // deno-lint-ignore no-explicit-any
 * if (!sends(r as any, "5") || sends(r as any, "50")) throw new Error();
 * ```
 */
export function sends(e: HarRecord, value: string): boolean {
  if (e.url.pathname.split("/").some((s) => safeDecode(s) === value)) return true;
  // A long id inside a segment between characters that are no letters or digits: an OData key
  // (`/odata/templates(HZ2RufjDBXAjBBnw)`, `('…')`), a matrix parameter.
  if (value.length >= 6 && insideSegment(safeDecode(e.url.pathname), value)) return true;
  if ([...e.url.searchParams.values()].some((v) => v.split(",").includes(value))) return true;
  const body = e.bodyText ?? "";
  // A long id is its own evidence anywhere in a body; a short one must be a whole value.
  if (value.length >= 6) return body.includes(value);
  return bodyValues(body).includes(value);
}

/** Whether `value` stands in `path` between characters that are no letters or digits. */
function insideSegment(path: string, value: string): boolean {
  for (let at = path.indexOf(value); at !== -1; at = path.indexOf(value, at + 1)) {
    const before = path[at - 1] ?? "";
    const after = path[at + value.length] ?? "";
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
  }
  return false;
}

/** The leaves of a JSON body, or the values of a form's, as text. */
function bodyValues(body: string): string[] {
  const out: string[] = [];
  try {
    walk(parseBody(body), (_path, _key, leaf) => out.push(String(leaf)));
  } catch {
    out.push(...new URLSearchParams(body).values());
  }
  return out;
}

/** The item's noun: the last segment of the write's path that is no id (`tags` → `tag`). */
function noun(r: HarRecord, id: string): string {
  const words = r.url.pathname.split("/").map(safeDecode).filter((s) =>
    s !== "" && s !== id && !/\d/.test(s)
  );
  return singular(snake(words.at(-1) ?? "")) || "item";
}
