/**
 * A request's text masked by provenance. A secret that is an ordinary word
 * (a password `admin`) is masked in a request exactly where the runner
 * substituted a secret, not where the flow wrote the word itself (a path
 * `/admin/fail` in a var, a header `x-role: admin`): the request is worked
 * out a second time with each ordinary-word secret that a substitution
 * brought replaced by a marker, and a field whose markers, put back, give
 * what was sent, shows the flow's own text and `***` at each marker. A field
 * that does not (a random value in it, credentials added after) is masked by
 * value, as before. Only values the flow file wrote as constants (a var
 * `route: /admin/fail`) count as the flow's text; whatever came from the
 * environment, a capture, a parameter or a var made of other values is
 * marked, and so is any value that is a secret as a whole.
 *
 * @module
 */
import type { Scope } from "../expr/template.ts";
import { type ResolvedRequest, resolveRequest } from "../http/request.ts";
import { curlCommand, type CurlVia } from "../http/curl.ts";
import type { Flow, Step } from "../model/flow.ts";
import { MASK, type Redactor } from "../secrets/redactor.ts";
import { dropKeySpans } from "../secrets/public_parts.ts";
import { secretsInRequest } from "../secrets/discover.ts";
import { escapeRegExp } from "../_util/regex_escape.ts";

/**
 * A request as reports show it: each field masked by provenance.
 *
 * @example
 * ```ts
 * import type { ShownRequest } from "./request_shown.ts";
 * const marked = { method: "GET", url: "http://x.test/admin", headers: [] };
 * const shown: ShownRequest = { url: marked.url, headers: [], marked, marks: new Map(), mark: (t) => t, masked: (t) => t };
 * if (shown.marks.size !== 0) throw new Error();
 * ```
 */
export interface ShownRequest {
  url: string;
  /** Each header's value, in the order of the request's. */
  headers: string[];
  /** Each header's name, masked where a substitution brought a secret into it (`x-${ENV.PW}`). */
  names?: string[];
  body?: string;
  /** The request with a marker wherever an ordinary-word secret is to be masked (for `curl`). */
  marked: ResolvedRequest;
  /** Each marker and the secret it stands for. */
  marks: Map<string, string>;
  /** Marks every ordinary-word secret of a text (one the flow's text cannot be told in). */
  mark: (text: string) => string;
  /** Masks each marker of a text. */
  masked: (text: string) => string;
}

/** The names of the vars each flow run's vars map holds as the flow file wrote them. */
const written = new WeakMap<ReadonlyMap<string, unknown>, Set<string>>();

/**
 * Notes which of a flow run's vars are the flow file's constants (none that
 * a parameter or an including step gave): their text is the flow's own.
 *
 * @example
 * ```ts
 * import { noteWrittenVars } from "./request_shown.ts";
 * const vars = new Map([["route", "/admin"]]);
 * noteWrittenVars(vars, { vars: [{ name: "route", value: { kind: "const", value: "/admin" } }] }, () => false);
 * ```
 */
export function noteWrittenVars(
  vars: ReadonlyMap<string, unknown>,
  flow: Pick<Flow, "vars">,
  given: (name: string) => boolean,
): void {
  const names = new Set<string>();
  for (const v of flow.vars) if (v.value.kind === "const" && !given(v.name)) names.add(v.name);
  written.set(vars, names);
}

/**
 * The request `step` sent, masked by provenance; undefined when it holds no
 * ordinary-word secret (masking by value shows the same).
 *
 * @example
 * ```ts
 * import { shownRequest } from "./request_shown.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { resolveRequest } from "../http/request.ts";
 * const { flow } = loadFlow('name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test/admin/${ENV.PW:-none}", headers: {x-role: admin}}\n', "f.yaml");
 * const scope = { env: () => "admin", vars: new Map(), steps: new Map(), runId: "r" };
 * const r = new Redactor();
 * r.add("admin");
 * const step = flow!.steps[0];
 * const shown = shownRequest(step, scope, resolveRequest(step.request, scope), r)!;
 * if (shown.url !== "http://x.test/admin/***" || shown.headers[0] !== "admin") throw new Error(shown.url);
 * ```
 */
export function shownRequest(
  step: Step,
  scope: Scope,
  request: ResolvedRequest,
  redactor: Redactor,
  literals: Iterable<string> = [],
): ShownRequest | undefined {
  const texts = [request.url, ...request.headers.flat(), request.body ?? ""];
  const words = [...new Set(texts.flatMap((t) => redactor.ordinaryWordsIn(t)))]
    .sort((a, b) => b.length - a.length);
  if (words.length === 0) return undefined;
  // A word the flow itself writes in a secret place (`authorization: Bearer admin`) is a secret
  // it wrote: masked wherever it stands, as every secret is.
  const marker = new Marker(words);
  let again: ResolvedRequest | undefined;
  try {
    again = resolveRequest(step.request, markedScope(scope, marker, redactor), omitEmpty(step));
  } catch {
    // Whatever fails the second time is masked by value.
  }
  const marked = withAlways(markedRequest(request, again, marker), marker, [...literals]);
  // A mask the redactor puts beside a marker's (a cookie header that is a secret as a whole, up
  // to the word flowrun masked in it) is one mask: `******` would tell only that there were two.
  const show = (t: string, name?: string) =>
    redactor.shown(marker.masked(t), name, marker.unmarked(t)).replace(ADJACENT_MASKS, MASK);
  return {
    url: show(marked.url),
    headers: marked.headers.map(([name, value]) => show(value, marker.unmarked(name))),
    names: marked.headers.map(([name]) => marker.masked(name)),
    ...(marked.body === undefined ? {} : { body: show(marked.body) }),
    marked,
    marks: marker.marks,
    mark: (t) => marker.mark(t),
    masked: (t) => marker.masked(t),
  };
}

function omitEmpty(step: Step): boolean | undefined {
  return step.options?.omitEmptyHeaders;
}

/** Masks side by side. */
const ADJACENT_MASKS = /(?:\*\*\*){2,}/g;

/** Replaces ordinary-word secrets with markers, and markers with what they stand for. */
class Marker {
  readonly marks = new Map<string, string>();
  readonly #of = new Map<string, string>();
  readonly #pattern: RegExp;
  /** The words, longest first, in one pattern: one pass, so no word is looked for in a marker. */
  readonly #words: RegExp;
  /** The words the flow itself sends in a secret place: marked wherever they stand. */
  #always?: RegExp;
  constructor(readonly words: string[]) {
    // Digits only: no encoding (a URL's, JSON's, a form's) changes a marker, and no word (letters)
    // is found in one.
    const nonce = String(Math.random()).slice(2, 14).padEnd(12, "7");
    words.forEach((word, i) => {
      const mark = `9${nonce}${String(i).padStart(3, "0")}9`;
      this.marks.set(mark, word);
      this.#of.set(word, mark);
    });
    this.#pattern = new RegExp(`9${nonce}\\d{3}9`, "g");
    this.#words = wordsPattern(words);
  }
  /** Marks `always` wherever they stand, by {@linkcode markAlways}. */
  setAlways(always: string[]): void {
    this.#always = always.length > 0 ? wordsPattern(always) : undefined;
  }
  /** `text` with every ordinary-word secret a marker. */
  mark(text: string): string {
    return this.#marked(text, this.#words);
  }
  /** `text` with the words the flow sends in secret places marked. */
  markAlways(text: string): string {
    return this.#always ? this.#marked(text, this.#always) : text;
  }
  /** Where a word names a key (`{"password": …}`, `password=`), it is the key: not marked. */
  #marked(text: string, pattern: RegExp): string {
    const spans: [number, number][] = [];
    for (const m of text.matchAll(pattern)) spans.push([m.index, m.index + m[0].length]);
    if (spans.length === 0 || dropKeySpans(text, spans) === 0) return text;
    let out = "";
    let at = 0;
    for (const [start, end] of spans) {
      out += text.slice(at, start) + this.#of.get(text.slice(start, end))!;
      at = end;
    }
    return out + text.slice(at);
  }
  /** `text` with each marker the secret it stands for. */
  unmarked(text: string): string {
    return text.replace(this.#pattern, (m) => this.marks.get(m) ?? m);
  }
  /** `text` with each marker masked. */
  masked(text: string): string {
    return text.replace(this.#pattern, MASK);
  }
}

function wordsPattern(words: string[]): RegExp {
  return new RegExp(words.map(escapeRegExp).join("|"), "g");
}

/**
 * `scope` with ordinary-word secrets marked in every value the flow file did
 * not write as a constant, and in any value that is a secret as a whole.
 */
function markedScope(scope: Scope, marker: Marker, redactor: Redactor): Scope {
  const own = written.get(scope.vars) ?? new Set<string>();
  const deep = (value: unknown, all: boolean): unknown => markDeep(value, all, marker, redactor, 0);
  const vars = new Map<string, unknown>();
  for (const [name, value] of scope.vars) vars.set(name, deep(value, !own.has(name)));
  const steps = new Map<string, ReadonlyMap<string, unknown>>();
  for (const [name, captured] of scope.steps) {
    steps.set(name, new Map([...captured].map(([k, v]) => [k, deep(v, true)])));
  }
  return {
    ...scope,
    env: (name) => deep(scope.env(name), true) as string | undefined,
    vars,
    steps,
    ...(scope.setup ? { setup: deep(scope.setup, true) as ReadonlyMap<string, unknown> } : {}),
  };
}

/** A value with its strings marked (`all`), or only those that are secrets as a whole. */
function markDeep(
  value: unknown,
  all: boolean,
  marker: Marker,
  redactor: Redactor,
  depth: number,
): unknown {
  if (typeof value === "string") {
    return all || redactor.has(value) || redactor.has(value.trim()) ? marker.mark(value) : value;
  }
  if (value === null || typeof value !== "object") return value;
  // Deeper than a flow nests: nothing of it is taken as the flow's own.
  if (depth > 64) return JSON.parse(marker.mark(JSON.stringify(value)));
  const next = (v: unknown) => markDeep(v, all, marker, redactor, depth + 1);
  if (Array.isArray(value)) return value.map(next);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, next(v)]));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k, { value: next(v), enumerable: true, writable: true });
  }
  return out;
}

/**
 * The request as sent with markers: a field worked out again whose markers
 * give back what was sent keeps its markers; any other field (or header
 * added after, by auth or the jar) has every ordinary-word secret marked.
 */
function markedRequest(
  request: ResolvedRequest,
  again: ResolvedRequest | undefined,
  marker: Marker,
): ResolvedRequest {
  const field = (sent: string, redone: string | undefined) =>
    redone !== undefined && marker.unmarked(redone) === sent ? redone : marker.mark(sent);
  const headers = request.headers.map(([name, value], i): [string, string] => {
    // A name the flow wrote with a substitution (`x-${ENV.PW}`) is marked as a value is; one
    // added after (auth's, the jar's) is HTTP's own, its random secrets masked by value.
    const redone = again?.headers[i];
    const same = redone !== undefined && marker.unmarked(redone[0]) === name;
    return [same ? redone[0] : name, field(value, same ? redone[1] : undefined)];
  });
  return {
    ...request,
    url: field(request.url, again?.url),
    headers,
    ...(request.body === undefined ? {} : { body: field(request.body, again?.body) }),
  };
}

/** What the `curl` line of a request shown by provenance needs of the run. */
interface CurlContext {
  redactor: Redactor;
  secretVariables?: ReadonlyMap<string, string>;
  via?: CurlVia;
}

/**
 * The `curl` line of a request masked by provenance: each marker written as
 * the `"$NAME"` of the variable its secret came from, or masked; the flow's
 * own text as it is; `extra` (headers added after the request was shown)
 * masked by value. A body past `max` is left out, as `withDetails` does.
 *
 * @example
 * ```ts
 * import { shownCurl, shownRequest } from "./request_shown.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { resolveRequest } from "../http/request.ts";
 * const { flow } = loadFlow('name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test/admin/${ENV.PW:-none}"}\n', "f.yaml");
 * const scope = { env: () => "admin", vars: new Map(), steps: new Map(), runId: "r" };
 * const redactor = new Redactor();
 * redactor.add("admin");
 * const step = flow!.steps[0];
 * const shown = shownRequest(step, scope, resolveRequest(step.request, scope), redactor)!;
 * const curl = shownCurl(shown, [], 1000, { redactor, secretVariables: new Map([["admin", "PW"]]) });
 * if (curl !== `curl 'http://x.test/admin/'"$PW"`) throw new Error(curl);
 * ```
 */
export function shownCurl(
  shown: ShownRequest,
  extra: readonly [string, string][],
  max: number,
  at: CurlContext,
): string {
  const { marked, marks } = shown;
  const words = new Set(marks.values());
  const names = new Map<string, string>();
  for (const [value, name] of at.secretVariables ?? []) {
    if (!words.has(value)) names.set(value, name);
  }
  for (const [mark, word] of marks) {
    const name = at.secretVariables?.get(word);
    if (name !== undefined) names.set(mark, name);
  }
  const headers = Object.fromEntries([
    ...marked.headers,
    ...extra.map(([name, value]) => [name, shown.mark(value)]),
  ]);
  // Every ordinary word left is the flow's own text: only the other secrets are masked.
  const mask = (text: string) => at.redactor.shown(text);
  const request = { method: marked.method, url: marked.url, headers, via: at.via };
  let command = curlCommand({ ...request, body: marked.body }, names, mask);
  if (command.length > max + 1024) {
    command = `${curlCommand(request, names, mask)} ` +
      `# the body is left out: its line is longer than the report keeps`;
  }
  return at.redactor.shown(shown.masked(command)).replace(ADJACENT_MASKS, MASK);
}

/**
 * `marked` with every word the flow itself sends in a secret place marked wherever it stands: a
 * word still unmarked in a value the request sends in one (`password: password`, a literal
 * `x-api-key: admin`), or in what the flow writes in secret places anywhere (`literals`). That
 * word is a secret the flow wrote, not its text.
 */
function withAlways(marked: ResolvedRequest, marker: Marker, literals: string[]): ResolvedRequest {
  const placed: string[] = [...literals];
  secretsInRequest(marked, (value) => void placed.push(value));
  const always = marker.words.filter((word) => placed.some((value) => value.includes(word)));
  if (always.length === 0) return marked;
  marker.setAlways(always);
  const mark = (text: string) => marker.markAlways(text);
  return {
    ...marked,
    url: mark(marked.url),
    headers: marked.headers.map(([name, value]) => [name, mark(value)]),
    ...(marked.body === undefined ? {} : { body: mark(marked.body) }),
  };
}
