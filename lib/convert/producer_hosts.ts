/**
 * Hosts off the app's own site whose answers feed the app: a sign-in service on an origin of its
 * own (another port of the same machine, `auth.example.net` beside `app.example.com`) answering the
 * token the app's API then receives. One JSON call to another site otherwise looks like a widget's
 * or a tracker's and is dropped, and with it the token's producer. The evidence is the value
 * itself, never a host's or a path's name: an answer's generated value that a later request to
 * the app sends. An analytics beacon or a font's stylesheet, whose answers feed nothing, stays out.
 *
 * @module
 */
import { isObject, str } from "./_har_fields.ts";
import type { HarRecord } from "./har_model.ts";

/** At most this many values of one answer are looked for (a long listing is no sign-in). */
const MAX_VALUES = 200;

/** At most this many answers of one host are read: a sign-in service answers a few calls. */
const MAX_ANSWERS = 20;

/**
 * A value a server made up: long, with digits and letters, no blank (a token, a session id,
 * a UUID); a word, a name or a date-free number could be sent for other reasons.
 */
const generated = (v: string) =>
  v.length >= 12 && v.length <= 8192 && /\d/.test(v) && /[a-z]/i.test(v) && !/\s/.test(v);

/** The answer's text as recorded (base64 decoded when it is UTF-8), or `undefined`. */
function answerText(r: HarRecord): string | undefined {
  if (r.responseText !== undefined) return r.responseText;
  const response = isObject(r.raw.response) ? r.raw.response : {};
  const content = isObject(response.content) ? response.content : {};
  const text = str(content.text);
  if (text === undefined || str(content.encoding)?.toLowerCase() !== "base64") return text;
  try {
    const bytes = Uint8Array.from(atob(text.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The generated values an answer holds: its JSON strings and its cookies' values. */
function producedValues(r: HarRecord): string[] {
  const out = r.setCookies.map((c) => c.value).filter(generated);
  const text = answerText(r)?.trim() ?? "";
  if (!/^[[{]/.test(text)) return out;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return out;
  }
  const stack: [unknown, number][] = [[json, 0]];
  while (stack.length > 0 && out.length < MAX_VALUES) {
    const [value, depth] = stack.pop()!;
    if (typeof value === "string" && generated(value)) out.push(value);
    else if (typeof value === "object" && value !== null && depth < 8) {
      for (const v of Object.values(value).slice(0, MAX_VALUES)) stack.push([v, depth + 1]);
    }
  }
  return out;
}

/** What a request sends where a value it was handed goes: headers, cookies, URL and body. */
function sentText(r: HarRecord): string {
  return [
    ...r.headers.map((h) => h.value),
    ...r.cookies.map((c) => c.value),
    r.url.pathname,
    r.url.search,
    r.bodyText ?? "",
  ].join("\n");
}

/**
 * The hosts among `candidates` that `isApp` does not own and that answered a generated value a
 * later request to an app host sends (in a header, a cookie, the URL or the body).
 *
 * @example
 * ```ts
 * import { producerHosts } from "./producer_hosts.ts";
 * import { parseHar } from "./har_model.ts";
 * const token = "tk_5f1c2e9a8b7d";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "http://127.0.0.1:9001/session" },
 *     response: { status: 200, content: { mimeType: "application/json", text: JSON.stringify({ token }) } } },
 *   { request: { method: "POST", url: "http://127.0.0.1:9002/collect" },
 *     response: { status: 200, content: { mimeType: "application/json", text: '{"id":"v_8c1f93a0d7e2"}' } } },
 *   { request: { method: "GET", url: "http://127.0.0.1:8080/api/me",
 *       headers: [{ name: "Authorization", value: `Bearer ${token}` }] },
 *     response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } }), []);
 * const hosts = producerHosts(records, (host) => host === "127.0.0.1:8080");
 * if ([...hosts].join() !== "127.0.0.1:9001") throw new Error([...hosts].join());
 * ```
 */
export function producerHosts(
  candidates: readonly HarRecord[],
  isApp: (host: string) => boolean,
): Set<string> {
  const out = new Set<string>();
  const app = candidates.filter((r) => isApp(r.url.host)).sort((a, b) => a.index - b.index);
  if (app.length === 0) return out;
  // What every app request sends, in recording order, as one text: a value sent after a record is
  // one search from where the first app request after it begins, whatever the recording's size.
  const starts: number[] = [];
  let joined = "";
  for (const a of app) {
    starts.push(joined.length);
    joined += `${sentText(a)}\n\u0000\n`;
  }
  const read = new Map<string, number>();
  for (const r of candidates) {
    const host = r.url.host;
    const n = read.get(host) ?? 0;
    if (isApp(host) || out.has(host) || n >= MAX_ANSWERS) continue;
    read.set(host, n + 1);
    const next = firstAfter(app, r.index);
    if (next === app.length) continue;
    if (producedValues(r).some((v) => joined.includes(v, starts[next]))) out.add(host);
  }
  return out;
}

/** The position in `sorted` (by index) of the first record after `index`: a binary search. */
function firstAfter(sorted: readonly HarRecord[], index: number): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid].index > index) high = mid;
    else low = mid + 1;
  }
  return low;
}
