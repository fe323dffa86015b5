/**
 * Names the client made of typed text and sent alone: Raneto's page turns the typed category
 * "Harbour Notes" into `harbour-notes` and posts only that (`category=harbour-notes`); the
 * server keeps a folder by it. The title never travels, so slug_titles.ts has nothing to read,
 * and the create's answer (`{"status":1,"message":{"code":"EEXIST"}}` on a second run) was lost
 * to the page's reload, so no verdict can be checked either: a second run on the same instance
 * passed while the server refused it, and went on to act on the first run's folder.
 *
 * The evidence that the sent value is a name the server keeps: a write sent it, nothing before
 * held it (a request or an answer: it was typed, not chosen from a list), it is a slug (two
 * words or more joined by `-` or `_`), and later requests send it again as a whole piece of a
 * path: their URL's, their Referer's (`/harbour-notes/Dock-schedule/edit`, a page the flow
 * drops), or a path they send as a value (`file=/harbour-notes/Dock-schedule`). Such a name is
 * the run's own, the recorded name and the run's tag after its own separator
 * (`category_name: harbour-notes-${vars.title_tag}`), sent wherever the recording sent it,
 * inside longer text too, so each run creates its own. A name the journey deletes later is left
 * as recorded: the instance is as the journey found it.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { safeDecode } from "../json.ts";
import { snake } from "../names.ts";
import { isSecretShaped } from "../values.ts";
import { ownName, sentFields } from "./client_names.ts";
import { removes } from "./kept_names.ts";
import { runTag } from "./slug_titles.ts";
import type { Correlator } from "./state.ts";

const WRITES = new Set(["POST", "PUT", "PATCH"]);
/** Words joined by one kind of separator; its group is the separator. */
const JOINED = /^[\p{L}\p{N}]+([-_])[\p{L}\p{N}]+(?:\1[\p{L}\p{N}]+)*$/u;

/** The separator of a slug of two words or more with a letter (not a date, not a version), else undefined. */
function slugSeparator(value: string): string | undefined {
  const joined = value.length <= 80 ? JOINED.exec(value) : null;
  if (joined === null) return undefined;
  const worded = value.split(joined[1]).filter((w) => /\p{L}/u.test(w));
  return worded.length >= 2 ? joined[1] : undefined;
}

/** The pieces of a path (a URL's, a Referer's, or a value that starts with `/`), decoded. */
function pathPieces(path: string): string[] {
  return safeDecode(path.split(/[?#]/)[0]).split("/").filter((p) => p !== "");
}

/** The path pieces `e` sends: its URL's, its Referer's, and those of values that are paths. */
function sentPieces(e: HarRecord): Set<string> {
  const pieces = new Set(pathPieces(e.url.pathname));
  const referer = e.headers.find((h) => h.name.toLowerCase() === "referer")?.value;
  if (referer !== undefined && URL.canParse(referer)) {
    for (const p of pathPieces(new URL(referer).pathname)) pieces.add(p);
  }
  const values = [...e.url.searchParams.values(), ...sentFields(e).map(([, v]) => v)];
  for (const v of values) if (v.startsWith("/")) { for (const p of pathPieces(v)) pieces.add(p); }
  return pieces;
}

/**
 * Whether a later request removes the thing `name` names: it removes (a `DELETE`, a removing
 * path or action) and its path, or a path it sends, ends in the name (`file=/notes/Dock-schedule`
 * removes the page, not the folder `notes`).
 */
function removedLater(later: readonly HarRecord[], name: string): boolean {
  return later.some((e) =>
    removes(e) &&
    [e.url.pathname, ...e.url.searchParams.values(), ...sentFields(e).map(([, v]) => v)]
      .some((v) => pathPieces(v).at(-1)?.replace(/\.[A-Za-z][A-Za-z0-9]{0,7}$/, "") === name)
  );
}

/** Whether a request or answer of `e` holds `text` anywhere. */
function holds(e: HarRecord, text: string): boolean {
  return safeDecode(e.url.href).includes(text) || (e.bodyText?.includes(text) ?? false) ||
    (e.responseText?.includes(text) ?? false) ||
    e.headers.some((h) => safeDecode(h.value).includes(text));
}

/**
 * Makes each slug a write sent that later paths name again the run's own (see the module).
 *
 * @example
 * ```ts
 * import { ownDerivedNames } from "./derived_names.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const r = (method: string, url: string, bodyText?: string, referer?: string) => ({
 *   method, url: new URL(url), bodyText, status: 200,
 *   headers: referer ? [{ name: "Referer", value: referer }] : [],
 *   bodyMime: "application/x-www-form-urlencoded",
 * });
 * const c = newCorrelator("a");
 * ownDerivedNames(c, [
 *   r("POST", "http://a.test/rn-add-category", "category=harbour-notes"),
 *   r("POST", "http://a.test/rn-edit", "content=x", "http://a.test/harbour-notes/Dock/edit"),
 * // deno-lint-ignore no-explicit-any
 * ] as any);
 * if (c.generated.get("harbour-notes") !== "${vars.category_name}") throw new Error();
 * if (c.vars.at(-1)?.[1] !== "harbour-notes-${vars.title_tag}") throw new Error(JSON.stringify(c.vars));
 * ```
 */
export function ownDerivedNames(c: Correlator, ordered: readonly HarRecord[]): void {
  const pieces = ordered.map(sentPieces);
  ordered.forEach((r, i) => {
    if (!WRITES.has(r.method) || c.loginRecords.has(r)) return;
    if (r.status === undefined || r.status >= 400) return;
    for (const [key, value] of sentFields(r)) {
      const sep = slugSeparator(value);
      if (sep === undefined || c.generated.has(value) || isSecretShaped(value)) continue;
      if (!pieces.slice(i + 1).some((p) => p.has(value))) continue;
      if (ordered.slice(0, i).some((e) => holds(e, value))) continue;
      if (removedLater(ordered.slice(i + 1), value)) continue;
      const tag = runTag(c);
      ownName(c, value, `${snake(key) || "item"}_name`, (lit) => `${lit}${sep}${tag}`);
      c.insideText.push([value, c.generated.get(value) ?? value]);
    }
  });
}
