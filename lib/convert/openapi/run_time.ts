/**
 * A query parameter the document calls a time, sent as the time of the run
 * (`${NOW.…}`, read when the request is made) rather than the conversion's
 * moment, stale by the next run, or the placeholder `string`. Etherpad's
 * `createSession` takes `validUntil`, typed `string`, which its summary
 * calls "an unix timestamp in seconds": `validUntil=string` was refused,
 * and so were the 4 calls reading the session it never made. Only the
 * document's words decide, and only where it gives no value of its own:
 *
 * - a text or number whose description (the parameter's, its schema's, or
 *   the sentence of the operation's summary or description that names it)
 *   says `unix`, `epoch` or `POSIX` time, or a timestamp in seconds or
 *   milliseconds, is `${NOW.UNIX}` (`${NOW.UNIX_MS}` when it says
 *   milliseconds): a format of its own (other than `int32`/`int64`), a
 *   pattern or an enum say otherwise, and a text with `format: date-time`
 *   is no number;
 * - a time the name or those words say runs out (`until`, `expires`,
 *   `expiry`, `expiration`, `deadline`, `validUntil`) is an hour after the
 *   request (`${NOW.UNIX+1h}`): a time already past is refused as one, and
 *   an hour outlasts a run. A `date-time` text so named is `${NOW.ISO+1h}`;
 *   any other `date-time` keeps the document's format sample (any time is
 *   one).
 *
 * Only a parameter that is sent (required, or named: `name_named.ts`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { namedBy } from "./name_named.ts";
import type { OpenApiOperation } from "./operations.ts";
import { names } from "./summary_named.ts";

const UNIX = /\b(?:unix|epoch|posix)\b|\btime\s?stamps?\b[^.]*\b(?:milli)?seconds?\b/i;
const MILLIS = /\bmilli(?:second)?s?\b|\bms\b/i;
const RUNS_OUT = /\b(?:until|till|expires?|expiry|expiration|deadline)\b/i;

/** The sentences of the operation's summary and description that name `param`. */
function namingSentences(op: Node, param: string): string[] {
  const text = [op.summary, op.description].filter((t) => typeof t === "string").join(". ");
  return text.split(/(?<=\.)\s+|\n+/).filter((sentence) =>
    sentence.toLowerCase().split(/[^a-z0-9]+/).some((w) => w !== "" && names(w, param))
  );
}

/** Words of a name, lower case and split at its case changes: `validUntil` → valid until. */
function nameText(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ");
}

/**
 * The run's time for query parameter `p` of `op` (see the module), or
 * undefined; a note in `comments` says why.
 *
 * @example
 * ```ts
 * import { runTime } from "./run_time.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const summary = "creates a new session. validUntil is an unix timestamp in seconds";
 * const op = { template: "/createSession", node: { summary } } as unknown as OpenApiOperation;
 * const doc = { paths: { "/createSession": {} } };
 * const p = { name: "validUntil", in: "query", schema: { type: "string" } };
 * const notes: string[] = [];
 * if (runTime(doc, op, p, notes) !== "${NOW.UNIX+1h}" || notes.length !== 1) throw new Error();
 * const at = { name: "at", in: "query", required: true, description: "Unix time in milliseconds" };
 * if (runTime(doc, op, at, []) !== "${NOW.UNIX_MS}") throw new Error();
 * if (runTime(doc, op, { ...at, required: false }, []) !== undefined) throw new Error();
 * ```
 */
export function runTime(
  doc: Node,
  op: OpenApiOperation,
  p: Node,
  comments: string[],
): string | undefined {
  if (p.in !== "query" || typeof p.name !== "string") return undefined;
  if (p.required !== true && namedBy(doc, op, p) === undefined) return undefined;
  const s = deref(doc, p.schema);
  const schema = isNode(s) ? s : {};
  if (givesValue(p, schema)) return undefined;
  const words = [p.description, schema.description].filter((d) => typeof d === "string")
    .concat(namingSentences(op.node, p.name)).join(" ");
  const runsOut = RUNS_OUT.test(`${nameText(p.name)} ${words}`);
  const value = timeOf(schema, words, runsOut);
  if (value === undefined) return undefined;
  const why = value.startsWith("${NOW.ISO") ? "a date-time" : "a unix time";
  const later = runsOut ? " that runs out: an hour on" : "";
  comments.push(
    `query ${p.name}: ${value}, the time of the run (the document calls it ${why}${later})`,
  );
  return value;
}

/** Whether the document gives the parameter a value, or a form, of its own. */
function givesValue(p: Node, schema: Node): boolean {
  const keys = ["example", "examples", "default", "const", "enum", "pattern"];
  return isNode(p.content) || keys.some((k) => Object.hasOwn(schema, k) || Object.hasOwn(p, k));
}

/** The time expression for a schema the words describe (see the module), or undefined. */
function timeOf(schema: Node, words: string, runsOut: boolean): string | undefined {
  const type = schema.type ?? "string";
  if (type === "string" && schema.format === "date-time") {
    return runsOut ? "${NOW.ISO+1h}" : undefined;
  }
  const numeric = ["string", "integer", "number"].includes(String(type));
  const format = schema.format === undefined || /^int(32|64)$/.test(String(schema.format));
  if (!numeric || !format || !UNIX.test(words)) return undefined;
  return `\${NOW.${MILLIS.test(words) ? "UNIX_MS" : "UNIX"}${runsOut ? "+1h" : ""}}`;
}
