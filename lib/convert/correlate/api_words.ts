/**
 * The words an API uses as names: the keys of its JSON bodies (sent and
 * answered), its query parameters' names and its cookies' names. A value
 * equal to one of them (`articles` under `foreign_key_table`, a session
 * cookie's name under `session_cookie`) is a name the API gave, the same on
 * every instance: never a secret to ask for, never an id to capture. A key
 * that is an id (a UUID, or a value of letters and digits some body holds
 * under an id-like key) is not a name: a map keyed by ids (`{"stats": {"<post id>": …}}`) is data.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { isIdKey, isUuid, looksLikeId } from "../values.ts";

/** Nodes looked at per body: a huge listing gives its names long before this. */
const NODE_LIMIT = 50_000;

/**
 * The names the recorded traffic uses.
 *
 * @example
 * ```ts
 * import { apiWords } from "./api_words.ts";
 * const r = {
 *   url: new URL("https://cms.test/items?fields=title"), cookies: [{ name: "cms_session", value: "x" }],
 *   setCookies: [], bodyText: '{"articles":{"title":"Hi"}}', hasJson: true, json: { data: [{ table: "articles" }] },
 * };
 * // deno-lint-ignore no-explicit-any
 * const words = apiWords([r as any]);
 * for (const w of ["articles", "title", "fields", "cms_session", "data", "table"]) {
 *   if (!words.has(w)) throw new Error(w);
 * }
 * ```
 */
export function apiWords(records: readonly HarRecord[]): Set<string> {
  const words = new Set<string>();
  const ids = new Set<string>();
  for (const r of records) {
    for (const name of r.url.searchParams.keys()) words.add(name);
    for (const cookie of [...r.cookies, ...r.setCookies]) words.add(cookie.name);
    if (r.hasJson) addKeys(words, ids, r.json);
    const sent = r.bodyText?.trimStart();
    if (sent && /^[[{]/.test(sent) && sent.length <= 1_000_000) {
      try {
        addKeys(words, ids, JSON.parse(sent));
      } catch {
        // Not JSON after all: its words are not names.
      }
    }
  }
  words.delete("");
  for (const word of words) if (isUuid(word) || ids.has(word)) words.delete(word);
  return words;
}

/**
 * Every object key inside `value` into `words`, and every string held under
 * an id-like key that looks like an id by its own shape (letters and digits
 * mixed, a UUID) into `ids`; at most
 * {@linkcode NODE_LIMIT} nodes.
 */
function addKeys(words: Set<string>, ids: Set<string>, value: unknown): void {
  const stack = [value];
  for (let seen = 0; stack.length > 0 && seen < NODE_LIMIT; seen++) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      words.add(key);
      // By its own shape too: a word under `table_key` (`articles`) stays a name of the API.
      if (typeof child === "string" && isIdKey(key) && looksLikeId("", child)) ids.add(child);
      stack.push(child);
    }
  }
}
