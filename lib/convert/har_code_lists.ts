/**
 * Lists chrome-har lost that the page's own script shows. chrome-har keeps a JSON body only as
 * name/value pairs, one per item of a top-level list: a one-item list comes back as its item
 * (ungit's commit `files: [{…}]` as the object, Flood's `urls: [magnet]` as the string) and an
 * empty list not at all (Flood's `tags: []`). The bytes the browser sent say how many brackets
 * are missing, but when no answer or other body shows the member as a list (har_input.ts reads
 * those) wrapping any one member gives that size. The recording holds one more witness: the
 * script that built the body, loaded by the page and recorded with the journey. A member it
 * writes as a list literal (`files: [this.name()]`, `tags: []` beside the body's other members)
 * is a list in this app's requests; the body is read so when exactly one such reading gives the
 * size sent.
 *
 * @module
 */
import { escapeRegExpSlash as escape } from "../_util/regex_escape.ts";

/** A body with its lists back, and the members made lists again. */
export interface CodeLists {
  text: string;
  restored: string[];
}

/** How much of the scripts is read: a larger bundle is searched in its first part only. */
const MAX_CODE = 8_000_000;
/** How many candidate changes are combined in pairs at most. */
const MAX_CANDIDATES = 24;

const byteLength = (text: string) => new TextEncoder().encode(text).length;
/** `key` as a member name of an object literal: bare, or quoted either way. */
const memberName = (key: string) =>
  `(?:^|[{,\\s])(?:${escape(key)}|"${escape(key)}"|'${escape(key)}')`;

/**
 * The keys `code` writes as a list literal (`files: [`; only an empty one, `tags: []`, when
 * `empty`) in an object literal that also names another of `members` as a member: a list in a
 * body like this one (`{ path: p, files: [this.name()] }`), not in a log line's
 * `{ level: 'error', message: [...] }`.
 */
function listsBeside(code: string, members: string[], empty: boolean): string[] {
  const found = new Set<string>();
  const list = empty
    ? /[{,\s]["']?([A-Za-z_$][\w$]*)["']?\s*:\s*\[\s*\]/g
    : /[{,\s]["']?([A-Za-z_$][\w$]*)["']?\s*:\s*\[/g;
  for (const m of code.matchAll(list)) {
    const key = m[1];
    if (members.includes(key) === empty || found.has(key)) continue;
    const open = code.lastIndexOf("{", m.index!);
    const close = code.indexOf("}", m.index!);
    if (open === -1 || close === -1 || close - open > 600) continue;
    const literal = code.slice(open, close + 1);
    const others = members.filter((k) => k !== key);
    if (others.some((k) => new RegExp(`${memberName(k)}\\s*:`).test(literal))) found.add(key);
    if (found.size > MAX_CANDIDATES) break;
  }
  return [...found];
}

type Change = { key: string; apply: (body: Record<string, unknown>) => void };

/**
 * `members` read with the lists the page's script writes (see the module), when exactly one
 * reading of one or two changes (a member wrapped in a list, a missing member added as `[]`)
 * gives `sentBytes`; else undefined.
 *
 * @example
 * ```ts
 * import { codeLists } from "./har_code_lists.ts";
 * const sent = '{"path":"/repo","files":[{"name":"a.md"}],"amend":false}';
 * const code = "post('/resolve', { path: p, files: [this.name()] })";
 * const back = codeLists({ path: "/repo", files: { name: "a.md" }, amend: false }, sent.length, code);
 * if (back?.text !== sent || back.restored[0] !== "files") throw new Error(JSON.stringify(back));
 * if (codeLists({ path: "/repo", amend: false }, 40, "") !== undefined) throw new Error();
 * ```
 */
export function codeLists(
  members: Record<string, unknown>,
  sentBytes: number,
  code: string,
): CodeLists | undefined {
  if (code === "") return undefined;
  const text = code.length > MAX_CODE ? code.slice(0, MAX_CODE) : code;
  const keys = Object.keys(members);
  const changes: Change[] = [
    ...listsBeside(text, keys, false).map((key) => ({
      key,
      apply: (b: Record<string, unknown>) => void (b[key] = [b[key]]),
    })),
    ...listsBeside(text, keys, true).map((key) => ({
      key,
      apply: (b: Record<string, unknown>) => void (b[key] = []),
    })),
  ].slice(0, MAX_CANDIDATES);
  const sets: Change[][] = changes.map((c) => [c]);
  changes.forEach((a, i) => changes.slice(i + 1).forEach((b) => sets.push([a, b])));
  const fits = sets.map((set) => {
    const body = { ...members };
    for (const c of set) c.apply(body);
    return { set, text: JSON.stringify(body) };
  }).filter((f) => byteLength(f.text) === sentBytes);
  if (fits.length !== 1) return undefined;
  return { text: fits[0].text, restored: fits[0].set.map((c) => c.key) };
}
