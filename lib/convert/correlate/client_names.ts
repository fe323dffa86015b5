/**
 * Names the client chose for what it creates: a page posts
 * `{"name": "checkout-redesign"}` to a collection, then opens the new item
 * by that name (`…/features/checkout-redesign`). Sent as recorded, a second
 * run on the same instance is refused (the name is taken). The evidence,
 * whatever the key: a string a write's JSON body sent that no answer held
 * before it, and that a later request's path names right under the
 * collection the write went to. Such a name becomes a var, the recorded name
 * with the run id (`checkout-redesign-${RUN_ID}`; a file name keeps its
 * extension last, `notes-${RUN_ID}.txt`), sent wherever the recording sent
 * the name (it is a generated value).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, safeDecode } from "../json.ts";
import { singular, snake } from "../names.ts";
import { multipartBoundary } from "../har_input.ts";
import { multipartParts } from "../uploads.ts";
import type { Correlator } from "./state.ts";

const WRITES = new Set(["POST", "PUT"]);

/**
 * Makes each name the client chose for what it creates the run's own (see
 * the module).
 *
 * @example
 * ```ts
 * import { ownClientNames } from "./client_names.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const r = (method: string, url: string, bodyText?: string) => ({ method, url: new URL(url), bodyText });
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * ownClientNames(c, [r("POST", "http://a.test/items", '{"name":"sale"}'), r("GET", "http://a.test/items/sale")] as any);
 * if (c.generated.get("sale") !== "${vars.item_name}" || c.vars[0][1] !== "sale-${RUN_ID}") {
 *   throw new Error(JSON.stringify(c.vars));
 * }
 * ```
 */
export function ownClientNames(c: Correlator, ordered: readonly HarRecord[]): void {
  const lastOpens = lastOpened(ordered);
  ordered.forEach((r, i) => {
    if (!WRITES.has(r.method)) return;
    const collection = r.url.pathname.replace(/\/$/, "");
    for (const name of sentStrings(r)) {
      if (c.generated.has(name) || !/^[\w.~-]{1,80}$/.test(name)) continue;
      if (!((lastOpens.get(`${collection}/${name}`) ?? -1) > i)) continue;
      if (ordered.slice(0, i).some((e) => e.responseText?.includes(JSON.stringify(name)))) continue;
      const noun = singular(snake(collection.slice(collection.lastIndexOf("/") + 1))) || "item";
      ownName(c, name, `${noun}_name`, withRunId);
    }
  });
}

/**
 * For each path a request opened (its decoded path, or any of its ancestors
 * cut at a slash), the position of the last request that opened it: whether
 * a later request names an item is one look-up, not a scan of every later
 * request per sent string (quadratic on a long journey of writes).
 */
function lastOpened(ordered: readonly HarRecord[]): Map<string, number> {
  const last = new Map<string, number>();
  ordered.forEach((e, i) => {
    const path = safeDecode(e.url.pathname);
    last.set(path, i);
    for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) {
      last.set(path.slice(0, at), i);
    }
  });
  return last;
}

/**
 * Makes a recorded name the run's own: a var named `varName` (made unique)
 * holding `fresh` of the name's literal text, sent and checked wherever the
 * recording had the name (it is a generated value).
 *
 * @example
 * ```ts
 * import { ownName } from "./client_names.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * ownName(c, "harbour", "tag_name", (lit) => `${lit}-\${RANDOM.HEX_8}`);
 * if (c.generated.get("harbour") !== "${vars.tag_name}" || c.vars[0][1] !== "harbour-${RANDOM.HEX_8}") {
 *   throw new Error(JSON.stringify(c.vars));
 * }
 * ```
 */
export function ownName(
  c: Correlator,
  name: string,
  varName: string,
  fresh: (literal: string) => string,
): void {
  const taken = c.varNames.take(varName);
  c.vars.push([taken, fresh(c.sp.lit(name))]);
  c.generated.set(name, c.sp.varRef(taken));
}

/** `name` with the run id, before a file name's extension (what a server may read the type by). */
function withRunId(name: string): string {
  const ext = /^(.+?)(\.[A-Za-z][A-Za-z0-9]{0,7})$/.exec(name);
  return ext ? `${ext[1]}-\${RUN_ID}${ext[2]}` : `${name}-\${RUN_ID}`;
}

/**
 * The top-level strings of a write's JSON object body, or the values of its
 * form's fields (urlencoded, or a multipart body's text parts): a Rails
 * form's `project[identifier]` is the name as much as a JSON `name`.
 */
function sentStrings(r: HarRecord): string[] {
  return sentFields(r).map(([, value]) => value);
}

/**
 * The non-empty top-level string fields of a write's JSON object body, or
 * of its form (urlencoded, or a multipart body's text parts), as
 * `[key, value]`.
 *
 * @example
 * ```ts
 * import { sentFields } from "./client_names.ts";
 * const r = { method: "POST", url: new URL("http://a.test/tags"), headers: [], bodyText: '{"name":"harbour","n":1}' };
 * // deno-lint-ignore no-explicit-any
 * if (JSON.stringify(sentFields(r as any)) !== '[["name","harbour"]]') throw new Error();
 * ```
 */
export function sentFields(r: HarRecord): [string, string][] {
  if (!r.bodyText) return [];
  const form = formFields(r, r.bodyText);
  if (form) return form.filter(([, v]) => v !== "");
  let body: unknown;
  try {
    body = parseBody(r.bodyText);
  } catch {
    return [];
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [];
  return Object.entries(body).filter((e): e is [string, string] =>
    typeof e[1] === "string" && e[1] !== ""
  );
}

/** The fields of a form body, or `undefined` when the body is no form. */
function formFields(r: HarRecord, text: string): [string, string][] | undefined {
  if (r.bodyMime === "application/x-www-form-urlencoded") {
    return [...new URLSearchParams(text).entries()];
  }
  if (r.bodyMime !== "multipart/form-data") return undefined;
  const type = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
  const parts = multipartParts(text, multipartBoundary(type));
  return parts?.filter((p) => p.fileName === undefined).map((p) => [p.name, p.value ?? ""]);
}
