/**
 * Checked flows kept between runs (`--cache-dir`), by their text and
 * everything else loading depends on: flowrun's version, the path, the names
 * of the run parameters, the setup flows' outputs and whether the
 * environment is checked. An entry holds all of that in full and is used
 * only when all of it is the same. Loading a 35-line flow cold costs
 * about 0.5 ms, most of it the JIT warming up on the loader; reading it back
 * costs a file read and a `JSON.parse`.
 *
 * Only what comes back exactly is kept: a flow that reads no other file
 * (no include, data file or file body) and holds nothing but plain JSON
 * values (a path json-p3 compiles, for one, is not). Loading also asks the
 * environment whether variables are set (an unset `${ENV.X}` is a problem):
 * the entry lists each name asked and the answer, and is used only while
 * every answer is the same. Those names are asked again on a hit, so the
 * caller's reads (its record of variables read, secrets registered) are as
 * on a miss. A cache never fails a run: an entry that cannot be read or
 * parsed is a miss.
 *
 * An entry is read from a folder others may have written: the folder's
 * entries are sealed with a per-user key (`io/cache_dir.ts`), and an entry
 * that reads back is still used only when it grants nothing its file does
 * not: a token command only with `--allow-commands` and as the file writes
 * it, and only the `${ENV.*}` names and URL hosts the file's text holds.
 *
 * @module
 */
import type { Flow } from "../model/flow.ts";
import type { LoadOptions, LoadResult } from "./load_flow.ts";
import { VERSION } from "../model/version.ts";

/**
 * Where cached flows are kept (the CLI's: a directory). Neither method
 * throws: a failed read is a miss, a failed write is skipped.
 */
export interface FlowCache {
  /** The entry stored under `key`, if any. */
  read(key: string): string | undefined;
  /** Stores an entry under `key`. */
  write(key: string, text: string): void;
}

/**
 * Bumped when a loaded flow changes shape, so entries of older builds are
 * never read. Releases differ by version anyway; from a source checkout, a
 * change to what the loader produces needs this bumped (or the cache
 * directory deleted).
 */
const FORMAT = 3;

/**
 * Everything a file's loading depends on, in one string: flowrun's version,
 * the path, the names of the run parameters, the setup flows' outputs,
 * whether the environment is checked, whether programs may run
 * (`--allow-commands`), and the text. An entry holds it in full and is used
 * only for the same.
 *
 * @example
 * ```ts
 * import { cacheInput } from "./flow_cache.ts";
 * const a = cacheInput("a.yaml", "name: a\n", {});
 * if (!a.endsWith("\0name: a\n")) throw new Error();
 * if (a === cacheInput("a.yaml", "name: a\n", { params: new Map([["X", "1"]]) })) throw new Error();
 * if (a !== cacheInput("a.yaml", "name: a\n", { params: new Map() })) throw new Error();
 * ```
 */
export function cacheInput(file: string, text: string, options: LoadOptions): string {
  const signature = JSON.stringify([
    FORMAT,
    VERSION,
    file,
    [...options.params?.keys() ?? []].sort(),
    options.setup ? [...options.setup].sort() : null,
    options.checkEnv ?? true,
    // Only when given, so the entries of runs without it keep their keys.
    ...(options.allowCommands ? ["allow-commands"] : []),
  ]);
  return `${signature}\0${text}`;
}

/**
 * The key of an entry: a 64-bit hash (hex) of its {@linkcode cacheInput}.
 * Two inputs with the same key are told apart by the entry itself, which
 * holds its input in full, so a collision is only a miss.
 *
 * @example
 * ```ts
 * import { cacheKey } from "./flow_cache.ts";
 * const a = cacheKey("input a");
 * if (!/^[0-9a-f]{16}$/.test(a) || a === cacheKey("input b")) throw new Error(a);
 * ```
 */
export function cacheKey(input: string): string {
  // Two FNV-1a hashes with different starting points: fast, and only ever a hint.
  let x = 0x811c9dc5;
  let y = 0x01000193;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    x = Math.imul(x ^ c, 0x01000193);
    y = Math.imul(y ^ c, 0x5bd1e995);
  }
  return (x >>> 0).toString(16).padStart(8, "0") + (y >>> 0).toString(16).padStart(8, "0");
}

/** What an entry holds. */
interface Entry {
  /** What loading depended on, the text included (see {@linkcode cacheInput}). */
  input: string;
  /** Each environment variable loading asked about, and whether it was set. */
  env: [string, boolean][];
  name: string;
  names: string[];
  flow: Flow;
}

/**
 * The load an entry holds, when it is well-formed, is for `input`, grants
 * nothing the text in `input` does not (a token command only with
 * `allowCommands` and as the text names it; only the text's `${ENV.*}` names
 * and URL hosts), and the environment answers every question loading asked
 * the same way (each is asked again through `env`).
 *
 * @example
 * ```ts
 * import { cachedLoad, cacheEntry, cacheInput } from "./flow_cache.ts";
 * import { loadFlow } from "./load_flow.ts";
 * const text = 'name: a\nsteps:\n  - name: s\n    request: {url: "${ENV.BASE}/x"}\n';
 * const set = (name: string) => name === "BASE" ? "http://x.test" : undefined;
 * const input = cacheInput("a.yaml", text, {});
 * const loaded = loadFlow(text, "a.yaml", { env: set });
 * const entry = cacheEntry(loaded, input, new Map([["BASE", true]]))!;
 * const hit = cachedLoad(entry, input, set);
 * if (JSON.stringify(hit?.flow) !== JSON.stringify(loaded.flow)) throw new Error();
 * if (cachedLoad(entry, input, () => undefined) !== undefined) throw new Error("BASE is unset now");
 * if (cachedLoad(entry, cacheInput("a.yaml", text + "#", {}), set) !== undefined) throw new Error();
 * if (cachedLoad("{", input, set) !== undefined) throw new Error();
 * ```
 */
export function cachedLoad(
  stored: string | undefined,
  input: string,
  env: (name: string) => string | undefined,
  allowCommands = false,
): LoadResult | undefined {
  if (stored === undefined) return undefined;
  let entry: Entry;
  try {
    entry = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (!wellFormed(entry) || entry.input !== input) return undefined;
  const at = input.indexOf("\0");
  // The flow is the file's: its path as the input names it (a signature is JSON, so holds no NUL).
  if (entry.flow.file !== JSON.parse(input.slice(0, at))[2]) return undefined;
  if (grantsMore(entry.flow, input.slice(at + 1), allowCommands)) return undefined;
  for (const [name, set] of entry.env) if ((env(name) !== undefined) !== set) return undefined;
  return { flow: entry.flow, problems: [], name: entry.name, names: entry.names };
}

/** `scheme://authority` in text: the authority (user info, host, port) is the first group. */
const AUTHORITY = /\b[a-z][a-z0-9+.-]*:\/\/([^/\s"'`?#\\]*)/gi;
/** `ENV.NAME` anywhere in text (a `${ENV.NAME}` of the flow is one). */
const ENV_NAME = /ENV\.([A-Za-z_][A-Za-z0-9_]*)/g;
/**
 * What separates the pieces of a string compared with the text: spaces, quotes and YAML's
 * separators (not braces: `${ENV.X}` stays one piece, so a piece of `http://h/${ENV.X}` is no
 * licence for `${ENV.X}` alone).
 */
const PIECE_GAP = /[\s"'`,:#]+/;

/**
 * Whether a flow read back from the cache could do what loading `text` would
 * not allow: run a token command without `allowCommands` or one the text
 * does not name, read an environment variable the text does not name, send
 * to a host (any `scheme://authority` in any of its strings) the text does
 * not name, hold a template (a URL, a var's value, a header) or an
 * expression with a word the text does not hold, or change TLS checks. The seal of the cache's folder is what keeps a forged entry
 * out; this keeps any entry, sealed or not, from granting more than its file.
 * A text that spells these with YAML escapes only costs a miss.
 */
function grantsMore(flow: Flow, text: string, allowCommands: boolean): boolean {
  const licence: Licence = {
    text,
    allowCommands,
    names: new Set(Array.from(text.matchAll(ENV_NAME), (m) => m[1])),
    hosts: new Set(Array.from(text.matchAll(AUTHORITY), (m) => m[1].toLowerCase())),
    pieces: textPieces(text),
  };
  const stack: unknown[] = [flow];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string" && namesOtherHost(v, licence)) return true;
    if (typeof v !== "object" || v === null) continue;
    const record = v as Record<string, unknown>;
    // A template's source is a string as the file writes it: each piece is in the text (a header
    // value, a URL's path), or the entry is not this file's. Its literal parts are
    // pieces of the source (`http://` before `${vars.host}` names no host): only its expressions
    // are looked into.
    if (typeof record.source === "string" && Array.isArray(record.parts)) {
      if (!inText(record.source, licence.pieces)) return true;
      stack.push(record.source, ...record.parts.filter((part) => typeof part !== "string"));
      continue;
    }
    if (
      constNotInText(record, licence) || refNotInText(record, licence) ||
      changesTls(record, licence) || commandNotGranted(record, licence)
    ) return true;
    for (const key in record) stack.push(record[key]);
  }
  return false;
}

/** What a file allows its kept flow: its text, `ENV.NAME`s, hosts (lower case) and pieces. */
interface Licence {
  text: string;
  allowCommands: boolean;
  names: Set<string>;
  hosts: Set<string>;
  pieces: Set<string>;
}

/** Whether a string of the flow sends to a host (`scheme://authority`) the text does not name. */
function namesOtherHost(v: string, licence: Licence): boolean {
  return Array.from(v.matchAll(AUTHORITY)).some((m) => !licence.hosts.has(m[1].toLowerCase()));
}

/** Whether a string or number a value holds as is (a var `host: a.test`, `port: 80`) is not in the text. */
function constNotInText(record: Record<string, unknown>, licence: Licence): boolean {
  return record.kind === "const" && ["string", "number"].includes(typeof record.value) &&
    !inText(String(record.value), licence.pieces);
}

/**
 * Whether a reference reads an environment variable the text does not name, or is an
 * expression not as written in the text (a `${raw:…}` one changes a URL's shape).
 */
function refNotInText(record: Record<string, unknown>, licence: Licence): boolean {
  const ref = record.ref as { kind?: unknown; name?: unknown } | undefined;
  if (ref?.kind === "env" && !licence.names.has(String(ref.name))) return true;
  return ref !== undefined && typeof record.text === "string" &&
    !licence.text.includes(record.text);
}

/** Whether TLS changes: unchecked only as the text says; a kept flow reads no certificate file. */
function changesTls(record: Record<string, unknown>, licence: Licence): boolean {
  if (record.insecure === true && !licence.pieces.has("insecure")) return true;
  return record.caCerts !== undefined || record.clientCert !== undefined;
}

/** Whether a token command runs without `allowCommands`, or an argument not as the file has it. */
function commandNotGranted(record: Record<string, unknown>, licence: Licence): boolean {
  if (record.kind !== "bearer" || !("command" in record)) return false;
  if (!licence.allowCommands || !Array.isArray(record.command)) return true;
  return record.command.some((arg) => !licence.text.includes(String(arg?.source)));
}

function wellFormed(entry: Entry): boolean {
  return entry !== null && typeof entry === "object" && typeof entry.input === "string" &&
    Array.isArray(entry.env) &&
    entry.env.every((e) =>
      Array.isArray(e) && typeof e[0] === "string" && typeof e[1] === "boolean"
    ) &&
    typeof entry.name === "string" && Array.isArray(entry.names) &&
    entry.flow !== null && typeof entry.flow === "object" && typeof entry.flow.file === "string" &&
    Array.isArray(entry.flow.steps) && Array.isArray(entry.flow.vars);
}

/**
 * The entry for a load, or `undefined` when it is not kept: a load with
 * problems, a flow with a data file, or one that does not come back from
 * JSON exactly. `input` is the load's {@linkcode cacheInput}, `env` what it
 * asked the environment.
 *
 * @example
 * ```ts
 * import { cacheEntry, cacheInput } from "./flow_cache.ts";
 * import { loadFlow } from "./load_flow.ts";
 * const text = 'name: a\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n';
 * const input = cacheInput("a.yaml", text, {});
 * if (cacheEntry(loadFlow(text, "a.yaml"), input, new Map()) === undefined) throw new Error();
 * const bad = loadFlow("name: a\n", "a.yaml");
 * if (cacheEntry(bad, cacheInput("a.yaml", "name: a\n", {}), new Map()) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function cacheEntry(
  loaded: LoadResult,
  input: string,
  env: ReadonlyMap<string, boolean>,
): string | undefined {
  const flow = loaded.flow;
  if (!flow || loaded.problems.length > 0 || flow.dataFile || !exactJson(flow)) return undefined;
  const entry: Entry = {
    input,
    env: [...env],
    name: loaded.name ?? flow.name,
    names: loaded.names ?? [],
    flow,
  };
  try {
    return JSON.stringify(entry);
  } catch {
    return undefined;
  }
}

/**
 * A checked flow as JSON text, or `undefined` when it would not come back
 * from `JSON.parse` exactly. A flow waiting for its turn is kept this way
 * (see `loadFlowsDeferred`): reading it back costs a third of parsing and
 * checking its file again.
 *
 * @example
 * ```ts
 * import { flowText } from "./flow_cache.ts";
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow('name: a\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n', "a.yaml");
 * const text = flowText(flow!);
 * if (text === undefined || JSON.stringify(JSON.parse(text)) !== JSON.stringify(flow)) throw new Error();
 * ```
 */
export function flowText(flow: Flow): string | undefined {
  if (!exactJson(flow)) return undefined;
  try {
    return JSON.stringify(flow);
  } catch {
    return undefined;
  }
}

/**
 * The pieces of a flow's text, each also without the flow collection's brackets around it
 * (`{a: b}`, `[gh, auth]` hold `a`, `b`, `gh`, `auth`).
 */
function textPieces(text: string): Set<string> {
  const pieces = new Set<string>();
  for (const piece of text.split(PIECE_GAP)) {
    pieces.add(piece);
    const inner = piece.replace(/^[[{]+/, "");
    pieces.add(inner).add(piece.replace(/[\]}]+$/, "")).add(inner.replace(/[\]}]+$/, ""));
  }
  return pieces;
}

/** Whether each piece of `value` (split as the text was) is one of the text's `pieces`. */
function inText(value: string, pieces: ReadonlySet<string>): boolean {
  return value.split(PIECE_GAP).every((piece) => pieces.has(piece));
}

/**
 * Whether `value` comes back from `JSON.parse(JSON.stringify(value))`
 * deep-equal: only null, booleans, strings, finite numbers but -0, dense
 * plain arrays of such values and plain objects holding such values. A
 * member holding `undefined` is allowed: JSON drops it, and a flow is never
 * read in a way that tells an absent member from an undefined one.
 */
function exactJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) {
      if (!exactScalar(v)) return false;
      continue;
    }
    if (seen.has(v)) continue;
    seen.add(v);
    if (!pushMembers(v, stack)) return false;
  }
  return true;
}

/** Whether a value that is no object (or null) comes back from JSON as it is. */
function exactScalar(v: unknown): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  return typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0);
}

/**
 * Pushes the members of a dense plain array or a plain object onto `stack`;
 * `false` for any other object, or an array with a hole or an `undefined`.
 */
function pushMembers(v: object, stack: unknown[]): boolean {
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return false;
    for (let i = 0; i < v.length; i++) {
      if (!(i in v) || v[i] === undefined) return false;
      stack.push(v[i]);
    }
    return true;
  }
  // (The loader builds flows from object literals: no accessors, symbols or hidden members.)
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  const record = v as Record<string, unknown>;
  for (const key in record) if (record[key] !== undefined) stack.push(record[key]);
  return true;
}
