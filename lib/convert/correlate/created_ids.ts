/**
 * Row numbers a create answered with: `POST /todos` → `{"id": 5}`. A number that small is no
 * evidence on its own (a page size, a count), so it is taken only where a later request sends
 * it as the path segment right under the collection that made it (`/todos/5`): REST's own
 * convention, and the place a fresh instance's other number must go; or in a JSON body under
 * an id-named field (`ids: [5]`, `torrentId`) sent to that path or below it: an RPC endpoint
 * (`POST /rpc` `torrent-add` → `{"arguments": {"torrent-added": {"id": 1}}}`, then
 * `torrent-stop` `{"ids": [1]}`) or a bulk call under the collection; or as an item of a body
 * that is a list as a whole, sent to that collection itself (`DELETE /items/articles` `[2]`).
 * Each collection numbers its own rows, so a number is noted per collection: the 1 a
 * `POST /fields/articles` answered does not take the 1 a `POST /items/articles` answers next.
 * Larger ids and opaque ones are producers everywhere (`producers.ts`).
 *
 * @module
 */
import { parseBody, safeDecode } from "../json.ts";
import type { HarRecord } from "../har_model.ts";
import type { Producer, Step } from "../model.ts";
import { isIdKey } from "../values.ts";
import type { Correlator } from "./state.ts";

/**
 * Notes the small ids a create (`POST`, `PUT`; 2xx) answered with: a whole integer under an
 * id-like key at the top of the body or one or two objects down (`{"data": {"id": 5}}`), but
 * not the number the request itself sent at the top and the answer echoes (a JSON-RPC call's
 * `id`).
 *
 * @example
 * ```ts
 * import { createdIdProducer, noteCreatedIds } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 200, url: new URL("http://a.test/todos"), hasJson: true, json: { id: 5 } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last } as any);
 * if (createdIdProducer(c, "/todos", "5") === undefined) throw new Error();
 * if (createdIdProducer(c, "/pages", "5") !== undefined) throw new Error();
 * ```
 */
export function noteCreatedIds(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || (r.method !== "POST" && r.method !== "PUT") || !succeeded(r)) return;
  const under = trimmed(safeDecode(r.url.pathname));
  const body = r.json as Record<string, unknown> | null;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  const sent = sentObject(r.bodyText);
  const note = (path: (string | number)[], key: string, value: unknown) => {
    if (!Number.isInteger(value) || (value as number) < 0 || !isIdKey(key)) return;
    if (path.length === 1 && sent[key] === value) return;
    // Each collection numbers its own rows: `/fields/articles` answering 1 leaves the 1 that
    // `/items/articles` answers next its own.
    const member = createdKey(under, String(value));
    if (!c.members.has(member)) {
      c.members.set(member, {
        producer: { step, source: { kind: "json", path }, secret: false },
        under,
      });
    }
  };
  const visit = (path: string[], object: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(object)) {
      note([...path, key], key, value);
      if (path.length < 2 && isObject(value)) visit([...path, key], value);
    }
  };
  visit([], body);
}

/**
 * Whether a create's answer is its success: a 2xx, or an answer docs printed under the command
 * with no status line (`convert curl`: a page's `| jq .` output) that no condition introduces
 * ("If the rule is refused:") and that holds no `error`: what the command answered when it
 * worked, as a 201 is. A recording always has its status.
 */
function succeeded(r: HarRecord): boolean {
  if (r.status !== undefined) return r.status >= 200 && r.status <= 299;
  if (r.answerIntroduced || !isObject(r.json)) return false;
  return !Object.entries(r.json).some(([k, v]) => /^errors?$/i.test(k) && !!v);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A request's JSON object body, or an empty object when it sent none. */
function sentObject(text: string | undefined): Record<string, unknown> {
  try {
    const json = text ? parseBody(text) : undefined;
    return isObject(json) ? json : {};
  } catch {
    return {};
  }
}

/**
 * The create that answered with `value` when a JSON body sends it under an id-named `key`
 * (`id`, `torrentId`, a list `ids`) to the path that create was sent to or one below it, else
 * undefined; never a number the request's own answer echoes under that key (a call's `id`).
 *
 * @example
 * ```ts
 * import { bodyIdProducer, noteCreatedIds } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const rpc = new URL("http://a.test/rpc");
 * const added = { method: "POST", status: 200, url: rpc, hasJson: true, json: { result: { added: { id: 1 } } } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last: added } as any);
 * const stop = { last: { url: rpc, hasJson: true, json: { result: {} } } };
 * // deno-lint-ignore no-explicit-any
 * if (bodyIdProducer(c, "ids", 1, stop as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (bodyIdProducer(c, "count", 1, stop as any) !== undefined) throw new Error();
 * ```
 */
export function bodyIdProducer(
  c: Correlator,
  key: string,
  value: number,
  step: Step,
): Producer | undefined {
  // `key` "": an item of a body that is a list as a whole (`DELETE /items/articles` `[2]`).
  const named = isIdKey(key) || isIdKey(key.replace(/s$/, ""));
  if (!Number.isInteger(value) || !(named || key === "")) return undefined;
  const path = trimmed(safeDecode(step.last.url.pathname));
  const found = createdAbove(c, path, String(value)) ?? createdOnAction(c, path, String(value));
  if (found === undefined || found.producer.step === step) return undefined;
  // A bare list lists the rows of the collection it is sent to, not of one above it.
  if (!named && path !== found.under) return undefined;
  const answer = step.last.hasJson ? step.last.json : undefined;
  return isObject(answer) && answer[key] === value ? undefined : found.producer;
}

/**
 * The create that answered the number `value` a request sends under the query key `name` of a
 * filter that also names the create's collection (`filter[_and][0][collection][_eq]=articles`
 * beside `filter[_and][1][item][_eq]=1`, after `POST /items/articles` answered 1): the same
 * key root (`filter`) holds both, so the number is that collection's row; else undefined. A
 * number under another root (`limit=1`) is no row.
 *
 * @example
 * ```ts
 * import { noteCreatedIds, queryIdProducer } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 200, url: new URL("http://a.test/items/articles"), hasJson: true, json: { data: { id: 1 } } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last } as any);
 * const q = new URLSearchParams("f[collection]=articles&f[item]=1&limit=1");
 * if (queryIdProducer(c, "f[item]", "1", q) === undefined) throw new Error();
 * if (queryIdProducer(c, "limit", "1", q) !== undefined) throw new Error();
 * ```
 */
export function queryIdProducer(
  c: Correlator,
  name: string,
  value: string,
  query: URLSearchParams,
): Producer | undefined {
  const root = /^([^[\]]+)\[/.exec(name)?.[1];
  if (root === undefined || !/^\d{1,15}$/.test(value)) return undefined;
  const named = new Set(
    [...query].filter(([k]) => k !== name && k.startsWith(`${root}[`)).map(([, v]) => v),
  );
  for (const [key, member] of c.members) {
    const collection = member.under.slice(member.under.lastIndexOf("/") + 1);
    if (key === createdKey(member.under, String(Number(value))) && named.has(collection)) {
      return member.producer;
    }
  }
  return undefined;
}

/** The create under `path` or a path above it that answered `text`, the nearest first. */
function createdAbove(c: Correlator, path: string, text: string) {
  for (let under = path;; under = under.slice(0, under.lastIndexOf("/"))) {
    const found = c.members.get(createdKey(under, text));
    if (found !== undefined || under === "") return found;
  }
}

/**
 * The resource an action-style path names before its action (`/api/users:update` →
 * `/api/users`, a colon then a word), else undefined: every action of that resource addresses
 * the rows its create answered, as segments under a REST collection do.
 *
 * @example
 * ```ts
 * import { actionResource } from "./created_ids.ts";
 * if (actionResource("/api/users:update") !== "/api/users") throw new Error();
 * if (actionResource("/api/users") !== undefined) throw new Error();
 * ```
 */
export function actionResource(path: string): string | undefined {
  return /^(.*\/[^/:]+):[A-Za-z][\w-]*$/.exec(trimmed(path))?.[1];
}

/**
 * The create on the resource of action path `path` (any of its actions: `users:create`,
 * `users:add`) that answered `text`, else undefined.
 *
 * @example
 * ```ts
 * import { createdOnAction, noteCreatedIds } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 200, url: new URL("http://a.test/api/users:create"), hasJson: true, json: { data: { id: 2 } } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last } as any);
 * if (createdOnAction(c, "/api/users:destroy", "2") === undefined) throw new Error();
 * if (createdOnAction(c, "/api/tags:destroy", "2") !== undefined) throw new Error();
 * ```
 */
export function createdOnAction(
  c: Correlator,
  path: string,
  text: string,
): { producer: Producer; under: string } | undefined {
  const resource = actionResource(path);
  if (resource === undefined) return undefined;
  for (const [key, member] of c.members) {
    if (member.under.startsWith(`${resource}:`) && key === createdKey(member.under, text)) {
      return member;
    }
  }
  return undefined;
}

/**
 * Where a row number a create under `under` answered is kept among the members (a row a
 * page links by its path, row_links.ts, too).
 *
 * @example
 * ```ts
 * import { createdKey } from "./created_ids.ts";
 * if (createdKey("/tides", "1") !== "/tides\u00001") throw new Error();
 * ```
 */
export function createdKey(under: string, text: string): string {
  return `${under}\u0000${text}`;
}

/**
 * The response that named member `segment` (a row a create made, a name a listing gave:
 * `listed_names.ts`) when a request sends it right under that response's collection path
 * (`under`, the path before the segment), else undefined.
 */
export function createdIdProducer(
  c: Correlator,
  under: string,
  segment: string,
): Producer | undefined {
  const number = /^\d{1,15}$/.test(segment) ? String(Number(segment)) : undefined;
  const found =
    (number === undefined ? undefined : c.members.get(createdKey(trimmed(under), number))) ??
      c.members.get(segment) ?? (number === undefined ? undefined : c.members.get(number));
  return found !== undefined && found.under === trimmed(under) ? found.producer : undefined;
}

/** A path without its trailing slashes: `/files/` and `/files` are one collection. */
export function trimmed(path: string): string {
  return path.replace(/\/+$/, "");
}
