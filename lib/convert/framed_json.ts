/**
 * JSON inside text that is not JSON: a short frame before it, as real-time
 * protocols and guarded APIs write their bodies and messages. Engine.IO and
 * Socket.IO (`0{"sid":…}`, `42["event",{…}]`, `430[{…}]`, packets joined by
 * the record separator `\x1e` in a polling answer), and the guards against
 * JSON hijacking (`)]}'`, `while(1);`, `for(;;);`). The values found there
 * are read back from a fresh answer by a regular expression over its text,
 * since no JSONPath reads past the frame.
 *
 * @module
 */
import { walk } from "./json.ts";
import { escapeRegExpSlash } from "../_util/regex_escape.ts";

/** A string value found in framed JSON, with a pattern whose one group reads it again. */
export interface FramedValue {
  key: string;
  value: string;
  pattern: string;
}

/** A frame before JSON: a packet type and id, or a hijacking guard. */
const FRAME = /^(?:\d{1,12}|\)\]\}',?\s*|while\s*\(1\);\s*|for\s*\(;;\);\s*)(?=[[{])/;

/**
 * The string values under object keys in the framed JSON of `text` (none
 * when it holds none), each with a pattern over the text: over `text` as it
 * is, or (`escaped`) over `text` written inside a JSON string, as a
 * websocket step's report body holds a text message. A key written more
 * than once in the text is left out: its pattern could read the wrong one.
 *
 * @example
 * ```ts
 * import { framedValues } from "./framed_json.ts";
 * const [sid] = framedValues('0{"sid":"D1BAlQB1kuHItfhK","pingInterval":25000}', false);
 * if (sid.value !== "D1BAlQB1kuHItfhK" || !new RegExp(sid.pattern).test('0{"sid":"x"}')) throw new Error();
 * const [t] = framedValues('430[{"ticket":"til6qvviu"}]', true);
 * const body = JSON.stringify({ messages: ['430[{"ticket":"abc123"}]'] });
 * if (new RegExp(t.pattern).exec(body)?.[1] !== "abc123") throw new Error(t.pattern);
 * if (framedValues('{"a":"b"}', false).length !== 0) throw new Error("plain JSON is not framed");
 * ```
 */
export function framedValues(
  text: string,
  escaped: boolean,
  counts: ReadonlyMap<string, number> = stringKeyCounts(text),
): FramedValue[] {
  const found: FramedValue[] = [];
  for (const part of text.split("\x1e")) {
    const frame = FRAME.exec(part);
    if (!frame) continue;
    let json: unknown;
    try {
      json = JSON.parse(part.slice(frame[0].length));
    } catch {
      continue;
    }
    walk(json, (_path, key, leaf) => {
      if (typeof leaf !== "string" || key === "" || /^\d+$/.test(key)) return;
      // The pattern reads up to the next quote or escape: a value holding one is not read whole.
      if (/["\\]/.test(leaf) || counts.get(key) !== 1) return;
      found.push({ key, value: leaf, pattern: keyPattern(key, escaped) });
    });
  }
  return found;
}

/**
 * How many times each key is written with a string value (`"key": "…"`) in `text`: one pass,
 * however many values are asked about (a polling answer may hold thousands of packets).
 *
 * @example
 * ```ts
 * import { stringKeyCounts } from "./framed_json.ts";
 * const counts = stringKeyCounts('42["a",{"id":"x","n":1}]\x1e42["b",{"id":"y"}]');
 * if (counts.get("id") !== 2 || counts.has("n")) throw new Error();
 * ```
 */
export function stringKeyCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"\s*:\s*"/g)) {
    counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  return counts;
}

/** `"key":"(…)"`, optionally as written inside a JSON string (each `"` as `\"`). */
function keyPattern(key: string, escaped: boolean): string {
  const q = escaped ? '\\\\"' : '"';
  const name = escapeRegExpSlash(key);
  return `${q}${name}${q}:\\s*${q}([^"\\\\]*)${q}`;
}
