/**
 * The links of an HTTP `Link` header (RFC 8288): each `<URI>` with its
 * parameters, and the URL of one relation (`rel="next"`), as APIs such as
 * GitHub's paginate.
 *
 * @module
 */

/** One link of a `Link` header: its target as written and its parameters, names lower-cased. */
export interface Link {
  target: string;
  params: Record<string, string>;
}

/** A reader over a header value: its text and how far it has read. */
interface Reader {
  text: string;
  at: number;
}

function skip(r: Reader, chars: string): void {
  while (r.at < r.text.length && chars.includes(r.text[r.at])) r.at++;
}

/** A token or quoted string (backslash escapes undone); a token ends at `;`, `,`, `=` or a space. */
function word(r: Reader): string {
  if (r.text[r.at] === '"') {
    let out = "";
    for (r.at++; r.at < r.text.length && r.text[r.at] !== '"'; r.at++) {
      if (r.text[r.at] === "\\") r.at++;
      out += r.text[r.at] ?? "";
    }
    r.at++;
    return out;
  }
  const start = r.at;
  while (r.at < r.text.length && !";,= \t".includes(r.text[r.at])) r.at++;
  return r.text.slice(start, r.at);
}

/** The parameters after a link's `<URI>`; only the first of a name counts (RFC 8288 §3). */
function params(r: Reader): Record<string, string> {
  const out: Record<string, string> = {};
  for (;;) {
    skip(r, " \t");
    if (r.text[r.at] !== ";") return out;
    r.at++;
    skip(r, " \t");
    const name = word(r).toLowerCase();
    skip(r, " \t");
    let value = "";
    if (r.text[r.at] === "=") {
      r.at++;
      skip(r, " \t");
      value = word(r);
    }
    if (name !== "" && !Object.hasOwn(out, name)) out[name] = value;
  }
}

/**
 * Every link of a `Link` header value (several headers joined by `,` read the same);
 * text that is not a link is passed over, as a browser does.
 *
 * @example
 * ```ts
 * import { parseLinks } from "./link_header.ts";
 * const links = parseLinks('<https://x.test/a?p=2>; rel="next", <https://x.test/a?p=5>; rel=last');
 * if (links.length !== 2 || links[1].params.rel !== "last") throw new Error();
 * if (links[0].target !== "https://x.test/a?p=2") throw new Error();
 * ```
 */
export function parseLinks(value: string): Link[] {
  const r: Reader = { text: value, at: 0 };
  const out: Link[] = [];
  while (r.at < r.text.length) {
    skip(r, " \t,");
    if (r.text[r.at] !== "<") {
      // Not a link: skip to the next comma outside quotes.
      const before = r.at;
      while (r.at < r.text.length && r.text[r.at] !== ",") {
        if (r.text[r.at] === '"') word(r);
        else r.at++;
      }
      if (r.at === before && r.at < r.text.length) r.at++;
      continue;
    }
    const end = r.text.indexOf(">", r.at);
    if (end < 0) break;
    const target = r.text.slice(r.at + 1, end).trim();
    r.at = end + 1;
    out.push({ target, params: params(r) });
  }
  return out;
}

/**
 * The URL of the first link whose `rel` names `relation` (relation types compare
 * without case; one `rel` may name several, space-separated), resolved against
 * `base` (the URL the response came from); `undefined` when there is none.
 *
 * @example
 * ```ts
 * import { linkRelation } from "./link_header.ts";
 * const header = '</items?page=3>; rel="next last", </items?page=1>; rel=first';
 * const next = linkRelation(header, "next", "http://127.0.0.1:8080/items?page=2");
 * if (next !== "http://127.0.0.1:8080/items?page=3") throw new Error(next);
 * if (linkRelation(header, "prev", "http://127.0.0.1:8080/") !== undefined) throw new Error();
 * ```
 */
export function linkRelation(
  value: string,
  relation: string,
  base?: string,
): string | undefined {
  const wanted = relation.toLowerCase();
  const link = parseLinks(value).find((l) =>
    (l.params.rel ?? "").toLowerCase().split(/[ \t]+/).includes(wanted)
  );
  if (!link) return undefined;
  if (base !== undefined && URL.canParse(link.target, base)) {
    return new URL(link.target, base).href;
  }
  return link.target;
}
