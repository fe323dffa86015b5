/**
 * Titles the server keeps a thing by: a page posts `title=Dock schedule`, and the thing comes
 * back named by a slug of it, `Dock-schedule` (or `dock_schedule`, `dock-schedule.md`), in a
 * later path (`/wiki/Dock-schedule`), a query value (`?name=dock-schedule`), a string of a JSON
 * answer (`{"slug": "dock_schedule"}`), a redirect's `Location` or a file name a later request
 * sends (`file: /notes/Dock-schedule.md`). The slug says the server keeps the thing by that name,
 * so a second run on the same instance that types the same title is refused, and not always with
 * a 409 (Raneto answered 200 holding `EEXIST`; Jingo redirected to its editor). A slug is no
 * name's evidence alone: a title is the text of several words the user typed into a write (no
 * earlier request or answer held it), which the slug spells again with its spaces made `-` or `_`
 * (and other punctuation dropped, or the case lowered).
 *
 * Such a title becomes a var, the recorded title and the run's tag after a space
 * (`page_title: Dock schedule ${vars.title_tag}`, the tag `${RANDOM.HEX_8}` drawn once a run), and
 * each slug of it that came back a var too, the tag after the slug's own separator
 * (`page_title_slug: Dock-schedule-${vars.title_tag}`), sent wherever the recording sent them,
 * inside longer text too (`/notes/${vars.page_title_slug}.md`). A slug the flow reads
 * from an answer stays a capture: the server names the run's title itself.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { responseHeaders } from "../handed.ts";
import { safeDecode, walk } from "../json.ts";
import { snake } from "../names.ts";
import { isSecretShaped } from "../values.ts";
import { ownName, sentFields } from "./client_names.ts";
import { removes, sends } from "./kept_names.ts";
import type { Correlator } from "./state.ts";

const WRITES = new Set(["POST", "PUT", "PATCH"]);
/** A file name's extension, dropped to read the slug it names (`Dock-schedule.md`). */
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

/**
 * Makes each typed title a later request or answer names by a slug the run's own (see the
 * module).
 *
 * @example
 * ```ts
 * import { ownSluggedTitles } from "./slug_titles.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const r = (method: string, url: string, bodyText?: string) =>
 *   ({ method, url: new URL(url), headers: [], bodyText, status: 200, raw: {} });
 * const c = newCorrelator("a");
 * const post = r("POST", "http://a.test/pages", '{"title":"Dock schedule"}');
 * // deno-lint-ignore no-explicit-any
 * ownSluggedTitles(c, [post, r("GET", "http://a.test/wiki/Dock-schedule")] as any);
 * if (c.generated.get("Dock schedule") !== "${vars.title}") throw new Error(JSON.stringify(c.vars));
 * if (c.generated.get("Dock-schedule") !== "${vars.title_slug}") throw new Error(JSON.stringify(c.vars));
 * ```
 */
export function ownSluggedTitles(c: Correlator, ordered: readonly HarRecord[]): void {
  const titles = typedTitles(c, ordered);
  if (titles.length === 0) return;
  const wanted = new Set(titles.flatMap(([, , , slugs]) => slugs));
  const firstNamed = firstNaming(ordered, wanted);
  let tag: string | undefined;
  for (const [i, key, title, slugs] of titles) {
    // Named first by the write or after it: a slug named before was no slug of this title (a
    // group's identifier typed first, its display name later), and one another rule already
    // made the run's own (a form's identifier) leaves nothing to refuse. One the write sent
    // itself is the client's choice, not the server's name for the title (an upload captioned
    // `Cover scan` of the file `cover-scan.txt`).
    const back = slugs.filter((s) =>
      (firstNamed.get(s) ?? -1) >= i && !c.generated.has(s) && !sentWith(ordered[i], s)
    );
    if (back.length === 0 || c.generated.has(title)) continue;
    if (ordered.slice(0, i).some((e) => holds(e, title))) continue;
    if (deletedLater(ordered, i, title, back)) continue;
    tag ??= runTag(c);
    const field = snake(key) || "title";
    ownName(c, title, field, (lit) => `${lit} ${tag}`);
    for (const slug of back) {
      ownName(c, slug, `${field}_slug`, (lit) => `${lit}${separator(title, slug)}${tag}`);
      c.insideText.push([slug, c.generated.get(slug) ?? slug]);
    }
  }
}

/** The var of the run's tag, once drawn: one per correlator, shared by every rule that tags a name. */
const TAGS = new WeakMap<Correlator, string>();

/**
 * The run's tag, a var drawn once a run (`title_tag: ${RANDOM.HEX_8}`) that every title and slug
 * ends with: eight lower-case hex digits are one word every slugger keeps as it is, and a server
 * that reads the title back from the slug (Jingo turns each `-` into a space) reads the title
 * sent; the `-` of `${RUN_ID}` came back as spaces, and Jingo renamed the page.
 *
 * @example
 * ```ts
 * import { runTag } from "./slug_titles.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * if (runTag(c) !== "${vars.title_tag}" || runTag(c) !== "${vars.title_tag}") throw new Error();
 * if (c.vars.length !== 1) throw new Error(JSON.stringify(c.vars));
 * ```
 */
export function runTag(c: Correlator): string {
  const drawn = TAGS.get(c);
  if (drawn !== undefined) return drawn;
  const name = c.varNames.take("title_tag");
  c.vars.push([name, "${RANDOM.HEX_8}"]);
  TAGS.set(c, c.sp.varRef(name));
  return c.sp.varRef(name);
}

/** Each write's typed title, with its position, its key and the slugs it may come back as. */
function typedTitles(
  c: Correlator,
  ordered: readonly HarRecord[],
): [number, string, string, string[]][] {
  const out: [number, string, string, string[]][] = [];
  ordered.forEach((r, i) => {
    if (!WRITES.has(r.method) || c.loginRecords.has(r)) return;
    if (r.status === undefined || r.status >= 400) return;
    for (const [key, value] of sentFields(r)) {
      if (isTitle(value)) out.push([i, key, value, slugsOf(value)]);
    }
  });
  return out;
}

/**
 * Whether `value` reads as a title a person typed: words (a letter, two words or more) on one
 * line, no address, path or secret.
 *
 * @example
 * ```ts
 * import { isTitle } from "./slug_titles.ts";
 * if (!isTitle("Dock schedule") || isTitle("harbour") || isTitle("ann@example.com x")) throw new Error();
 * ```
 */
export function isTitle(value: string): boolean {
  const t = value.trim();
  return t.length >= 3 && t.length <= 80 && /\p{L}/u.test(t) && /\S\s+\S/.test(t) &&
    !/[\n\r/@]/.test(t) && !/^[\w+.-]+:/.test(t) && !isSecretShaped(t);
}

/**
 * The slugs a server may keep a title by: its spaces made `-` or `_`, as typed or in lower
 * case, and the same with every other run of punctuation made the separator too.
 *
 * @example
 * ```ts
 * import { slugsOf } from "./slug_titles.ts";
 * const s = slugsOf("Dock schedule!");
 * if (!s.includes("Dock-schedule!") || !s.includes("dock_schedule")) throw new Error(s.join());
 * ```
 */
export function slugsOf(title: string): string[] {
  const t = title.trim();
  const out = new Set<string>();
  for (const sep of ["-", "_"]) {
    const spaced = t.replace(/\s+/g, sep);
    const plain = t.replace(/[^\p{L}\p{N}]+/gu, sep).replace(/^[-_]+|[-_]+$/g, "");
    for (const s of [spaced, plain]) out.add(s).add(s.toLowerCase());
  }
  out.delete(t);
  return [...out].filter((s) => s.length >= 3);
}

/** The separator the slug put where the title had a space (`-` when neither is seen). */
function separator(title: string, slug: string): string {
  const at = title.trim().search(/\s/);
  const sep = at >= 0 ? slug[at] : undefined;
  return sep === "_" ? "_" : "-";
}

/**
 * For each wanted slug, the position of the first record that names it: a path segment of its
 * URL, a query value, a string its body or its JSON answer holds, its `Location`; each a whole
 * value, a piece of a path, or a file name less its extension. One pass over the recording, only
 * the wanted slugs noted, so a long journey of writes stays linear.
 */
function firstNaming(ordered: readonly HarRecord[], wanted: Set<string>): Map<string, number> {
  const first = new Map<string, number>();
  const note = (text: string, i: number) => {
    if (text.length > 400) return;
    for (const piece of safeDecode(text).split(/[/?#&=]/)) {
      for (const s of [piece, piece.replace(EXTENSION, "")]) {
        if (wanted.has(s) && !first.has(s)) first.set(s, i);
      }
    }
  };
  ordered.forEach((e, i) => {
    note(e.url.pathname, i);
    for (const v of e.url.searchParams.values()) note(v, i);
    for (const [, v] of sentFields(e)) note(v, i);
    const location = responseHeaders(e).find((h) => h.name.toLowerCase() === "location");
    if (location) note(location.value, i);
    if (e.json !== undefined) {
      walk(e.json, (_p, _k, leaf) => typeof leaf === "string" && note(leaf, i));
    }
  });
  return first;
}

/**
 * Whether a request after the write at `i` removes the thing the title names (a `DELETE`, or a
 * URL or action naming a removal): it sends the title, a slug as the last piece of a path (the
 * thing itself, not a folder it was in: `file=/harbour-notes/Dock-schedule` removes the page,
 * not the category), or the id the write's answer held beside the title or a slug (WordPress
 * trashes `post=5`). A journey that removes what it made leaves the instance as it found it,
 * so the next run may type the title again (a trashed post frees its slug).
 */
function deletedLater(
  ordered: readonly HarRecord[],
  i: number,
  title: string,
  slugs: readonly string[],
): boolean {
  const id = idBeside(ordered[i].json, [title, ...slugs]);
  return ordered.slice(i + 1).some((e) =>
    removes(e) &&
    (sends(e, title) || (id !== undefined && sends(e, id)) ||
      lastPieces(e).some((p) => slugs.includes(p)))
  );
}

/** The last piece of `e`'s path and of each value it sends, less a file name's extension. */
function lastPieces(e: HarRecord): string[] {
  const values = [
    e.url.pathname,
    ...e.url.searchParams.values(),
    ...sentFields(e).map(([, v]) => v),
  ];
  return values.map((v) => (safeDecode(v).split("/").at(-1) ?? "").replace(EXTENSION, ""));
}

/** The id (`id`, `_id`, `uuid`) of the object of `json`, or one it holds, that has one of `values`. */
function idBeside(json: unknown, values: readonly string[]): string | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const objects = [json, ...Object.values(json)].filter((o): o is Record<string, unknown> =>
    typeof o === "object" && o !== null && !Array.isArray(o)
  );
  for (const o of objects) {
    if (!Object.values(o).some((v) => typeof v === "string" && values.includes(v))) continue;
    const id = o.id ?? o._id ?? o.uuid;
    if (typeof id === "string" || typeof id === "number") return String(id);
  }
  return undefined;
}

/** Whether `r`'s own request (its URL or its body, a file part's name included) holds `text`. */
function sentWith(r: HarRecord, text: string): boolean {
  return safeDecode(r.url.href).includes(text) || (r.bodyText?.includes(text) ?? false);
}

/** Whether a request or answer of `e` holds `text` anywhere. */
function holds(e: HarRecord, text: string): boolean {
  return safeDecode(e.url.href).includes(text) || (e.bodyText?.includes(text) ?? false) ||
    (e.responseText?.includes(text) ?? false);
}
