/**
 * A cookie whose NAME is the instance's own: Syncthing's page sets
 * `CSRF-Token-2EWQW`, the first 5 characters of the device id its answer
 * names in `X-Syncthing-Id`, so a fresh instance sets `CSRF-Token-QK7ZM`. By
 * evidence, never by the name's look: a piece of the name (between `-`,
 * `_` or `.`) that the same answer also hands out inside an opaque value (a
 * header's or a JSON body's) is the instance's; so is one of letters and digits mixed that
 * the server wrote into the same cookie's value too (Fossil's `fossil-<project code>` =
 * `<hash>/<project code>/<user>`). Such a cookie's value and
 * that piece are captured from `Set-Cookie` by a pattern, since a capture by
 * the recorded name finds nothing on another instance. So is a span of the
 * name that spells the host and port the answer came from (Jupyter's
 * `username-127-0-0-1-8888`): the recorded URL is its evidence.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { walk } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import { responseHeaders } from "../handed.ts";
import { isSecretShaped } from "../values.ts";
import { escapeRegExp as escape } from "../../_util/regex_escape.ts";

/** A cookie name with the instance's piece: the text around it and the capture of the piece. */
export interface InstanceName {
  before: string;
  piece: string;
  after: string;
  /** The piece, read from the fresh answer's `Set-Cookie`. */
  producer: Producer;
  /** Where the name was set (for the notes). */
  step: Step;
}

/** The opaque values `r` answered besides its cookies: header values and JSON strings. */
function opaqueValues(r: HarRecord): string[] {
  const values = responseHeaders(r).filter((h) => h.name.toLowerCase() !== "set-cookie")
    .map((h) => h.value);
  if (r.hasJson) walk(r.json, (_p, _k, leaf) => typeof leaf === "string" && values.push(leaf));
  return values.filter(isSecretShaped);
}

/**
 * Whether `piece` of a cookie's name is one its own `value` holds and no word spells (letters
 * and digits mixed, 6 or more): the server wrote its own datum twice. A word the value repeats
 * (`login=…%2Flogin`) is the API's.
 */
function inOwnValue(piece: string, value: string): boolean {
  if (piece.length < 6 || !/\d/.test(piece) || !/[A-Za-z]/.test(piece)) return false;
  let text = value;
  try {
    text = decodeURIComponent(value);
  } catch {
    // A value that is no percent-encoding holds the piece as written, if at all.
  }
  return text.includes(piece);
}

/**
 * The piece of cookie `name` that `step`'s answer hands out elsewhere (or `value`, the cookie's
 * own, holds), with
 * the producers of the cookie's value and of that piece (patterns over
 * `Set-Cookie`); `undefined` when every piece is the API's own.
 *
 * @example
 * ```ts
 * import { instanceName } from "./cookie_names.ts";
 * const last = { url: new URL("http://127.0.0.1:8080/"), headers: [], hasJson: false, raw: { response: { headers: [
 *   { name: "X-App-Id", value: "2EWQWN5-YMCFNVF-6QKU542" },
 * ] } } };
 * // deno-lint-ignore no-explicit-any
 * const found = instanceName({ last } as any, "CSRF-Token-2EWQW");
 * if (found?.name.piece !== "2EWQW" || found.value.source.kind !== "header") throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (instanceName({ last } as any, "csrftoken") !== undefined) throw new Error();
 * // The project code the cookie's value holds too.
 * // deno-lint-ignore no-explicit-any
 * const own = instanceName({ last } as any, "fossil-84ed909103a16e91", "D617%2F84ed909103a16e91%2Fadmin");
 * if (own?.name.piece !== "84ed909103a16e91") throw new Error();
 * ```
 */
export function instanceName(
  step: Step,
  name: string,
  value = "",
): { name: InstanceName; value: Producer } | undefined {
  const own = originSpan(name, step.last.url);
  if (own) return namedBy(step, name, own.start, own.end, true);
  const values = opaqueValues(step.last);
  let at = 0;
  for (const piece of name.split(/[-_.]/)) {
    const start = name.indexOf(piece, at);
    at = start + piece.length;
    if (piece.length < 4 || !/^[A-Za-z0-9]+$/.test(piece)) continue;
    if (!values.some((v) => v.includes(piece)) && !inOwnValue(piece, value)) continue;
    return namedBy(step, name, start, at);
  }
  const digest = digestSpan(name);
  return digest ? namedBy(step, name, digest.start, digest.end) : undefined;
}

/**
 * Where `name` holds a hex digest (32, 40 or 64 lowercase hex digits, the
 * length of an MD5, SHA-1 or SHA-256): DokuWiki's `DW<md5>`, WordPress's
 * `wordpress_logged_in_<md5>` and Drupal's `SESS<sha256>` are named for a
 * hash of the site's address, its port or its secret, so another instance
 * names the cookie otherwise. A digest is 128 bits or more of the server's
 * own making: no word of an API spells one.
 */
function digestSpan(name: string): { start: number; end: number } | undefined {
  const m = /(?<![0-9a-f])(?:[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{32})(?![0-9a-f])/.exec(name);
  if (!m || !/\d/.test(m[0]) || !/[a-f]/.test(m[0])) return undefined;
  return { start: m.index, end: m.index + m[0].length };
}

/**
 * The producers of a name whose `[start, end)` is the instance's, and of its value; `address`
 * when the piece spells the host and port (another instance's port may be longer).
 */
function namedBy(step: Step, name: string, start: number, end: number, address = false) {
  const before = name.slice(0, start);
  const piece = name.slice(start, end);
  const after = name.slice(end);
  const shape = address ? "[^=;,\\s]+" : shapeOf(piece);
  // The piece by its own shape: a loose `[^=;,\s]+` would take another cookie of the same
  // prefix the answer sets first (`wordpress_test_cookie` for `wordpress_<md5>`).
  const around = (group: string) => `${escape(before)}${group}${escape(after)}=`;
  const header = (regex: string): Producer => ({
    step,
    source: { kind: "header", name: "set-cookie", regex },
    secret: false,
  });
  return {
    name: { before, piece, after, producer: header(around(`(${shape})`)), step },
    value: header(`${around(shape)}([^;,\\s]*)`),
  };
}

/**
 * A pattern of `piece`'s shape: hex digits or letters and digits of its
 * length (a digest, a device id's prefix), else any name's characters.
 */
function shapeOf(piece: string): string {
  if (/^[0-9a-f]+$/.test(piece)) return `[0-9a-f]{${piece.length}}`;
  if (/^[A-Za-z0-9]+$/.test(piece)) return `[A-Za-z0-9]{${piece.length}}`;
  return "[^=;,\\s]+";
}

/**
 * Where `name` spells the host and port `url` was answered from (a separator
 * of `.`, `:`, `-` or `_` between their parts), or the port alone as a whole
 * piece: another instance runs elsewhere and names the cookie so.
 */
function originSpan(name: string, url: URL): { start: number; end: number } | undefined {
  const port = url.port;
  if (port === "") return undefined;
  const sep = "[-_.:]";
  const host = url.hostname.split(".").map(escape).join(sep);
  const piece = (body: string) => new RegExp(`(?<=^|${sep})${body}(?=$|${sep})`);
  const m = piece(`${host}${sep}${port}`).exec(name) ?? piece(port).exec(name);
  return m ? { start: m.index, end: m.index + m[0].length } : undefined;
}
