/**
 * A read whose recorded answer is larger than the runner reads by default: n8n's editor reads
 * its node catalog (`GET /types/nodes.json`, 14.6 MB decoded). Replayed, the step fails at the
 * `--max-body` cap and every later step is skipped, though nothing can be captured from it
 * (recorders keep no text that large). The evidence is the recorded decoded size
 * (`content.size`, which chrome-har writes). Playwright wrote -1 (unknown) and no text for the
 * same read, keeping only the bytes on the wire (`bodySize`, 1.3 MB of brotli): a body sent as
 * is decodes to its wire bytes, and a compressed one at most as many times larger as the
 * recording's own compressed answers of known size grew (n8n's: up to 19 times). Without such an
 * answer nothing says how large it decodes, and the read is kept.
 *
 * @module
 */
import { DEFAULT_MAX_BODY_BYTES } from "../http/body_limits.ts";
import type { HarRecord } from "./har_model.ts";
import { responseHeaders } from "./handed.ts";

/** The most each `Content-Encoding` of a recording grew a body: decoded size over wire bytes. */
export type Expansion = ReadonlyMap<string, number>;

/** Each record's recording's {@linkcode Expansion}, noted by {@linkcode noteExpansion}. */
const noted = new WeakMap<HarRecord, Expansion>();

/**
 * Notes how much the recording of `records` grew its bodies ({@linkcode expansionOf}), which
 * {@linkcode isOversizedRead} reads for each of them: the evidence is the whole recording's.
 *
 * @example
 * ```ts
 * import { isOversizedRead, noteExpansion } from "./oversized.ts";
 * const r = (size: number, bodySize: number) => ({
 *   method: "GET",
 *   raw: { response: { bodySize, content: { size }, headers: [{ name: "Content-Encoding", value: "br" }] } },
 * });
 * const records = [r(111_021, 5_891), r(-1, 1_338_925)];
 * // deno-lint-ignore no-explicit-any
 * noteExpansion(records as any);
 * // deno-lint-ignore no-explicit-any
 * if (!isOversizedRead(records[1] as any)) throw new Error();
 * ```
 */
export function noteExpansion(records: readonly HarRecord[]): void {
  const expansion = expansionOf(records);
  for (const r of records) noted.set(r, expansion);
}

/**
 * Whether `r` is a read (GET or HEAD) whose recorded answer is larger than the runner's default
 * body cap, or, its decoded size unknown, could be by its wire bytes grown as `expansion` says
 * (by default what {@linkcode noteExpansion} noted of its recording):
 * a write is kept whatever it answers, since what it changes matters.
 *
 * @example
 * ```ts
 * import { isOversizedRead } from "./oversized.ts";
 * const r = (method: string, size: number, bodySize = -1, encoding?: string) => ({
 *   method,
 *   raw: { response: {
 *     bodySize,
 *     content: { size },
 *     headers: encoding ? [{ name: "Content-Encoding", value: encoding }] : [],
 *   } },
 * });
 * // deno-lint-ignore no-explicit-any
 * const judge = (expansion: Map<string, number>, ...a: [string, number, number?, string?]) => isOversizedRead(r(...a) as any, expansion);
 * const none = new Map<string, number>();
 * if (!judge(none, "GET", 14_581_902) || judge(none, "GET", 600_000) || judge(none, "GET", -1)) throw new Error();
 * if (judge(none, "POST", 14_581_902)) throw new Error("a write is kept");
 * // Unknown size: sent as is, its wire bytes are its size; compressed, grown as the recording's grew.
 * if (!judge(none, "GET", -1, 11_000_000) || judge(none, "GET", -1, 1_300_000, "br")) throw new Error();
 * if (!judge(new Map([["br", 19]]), "GET", -1, 1_300_000, "br")) throw new Error();
 * if (judge(new Map([["br", 19]]), "GET", -1, 5_000, "br")) throw new Error();
 * ```
 */
export function isOversizedRead(
  r: HarRecord,
  expansion: Expansion = noted.get(r) ?? new Map(),
): boolean {
  if (r.method !== "GET" && r.method !== "HEAD") return false;
  const size = decodedSize(r);
  if (size !== undefined) return size > DEFAULT_MAX_BODY_BYTES;
  const content = (answer(r).content ?? {}) as Record<string, unknown>;
  const wire = wireBytes(r);
  if (typeof content.text === "string" || wire === undefined) return false;
  const encoding = encodingOf(r);
  const growth = encoding === "" ? 1 : expansion.get(encoding);
  return growth !== undefined && wire * growth > DEFAULT_MAX_BODY_BYTES;
}

/**
 * How much each `Content-Encoding` grew the recording's answers whose decoded size and wire
 * bytes it kept: the largest ratio per encoding.
 *
 * @example
 * ```ts
 * import { expansionOf } from "./oversized.ts";
 * const r = (size: number, bodySize: number) => ({
 *   raw: { response: { bodySize, content: { size }, headers: [{ name: "content-encoding", value: "br" }] } },
 * });
 * // deno-lint-ignore no-explicit-any
 * const grown = expansionOf([r(111_021, 5_891), r(3_000, 1_000), r(-1, 1_338_925)] as any);
 * if (Math.round(grown.get("br")!) !== 19) throw new Error();
 * ```
 */
export function expansionOf(records: readonly HarRecord[]): Expansion {
  const out = new Map<string, number>();
  for (const r of records) {
    const encoding = encodingOf(r);
    const size = decodedSize(r);
    const wire = wireBytes(r);
    if (encoding === "" || size === undefined || wire === undefined) continue;
    out.set(encoding, Math.max(out.get(encoding) ?? 0, size / wire));
  }
  return out;
}

const answer = (r: HarRecord) => (r.raw.response ?? {}) as Record<string, unknown>;

/** A count the recorder wrote: a finite number above zero, else unknown. */
const positive = (n: unknown) =>
  typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;

/** The recorded decoded size (`content.size`); -1 and anything but a number are unknown. */
function decodedSize(r: HarRecord): number | undefined {
  const size = ((answer(r).content ?? {}) as Record<string, unknown>).size;
  return typeof size === "number" && Number.isFinite(size) && size >= 0 ? size : undefined;
}

/** The answer's body bytes on the wire (`bodySize`). */
const wireBytes = (r: HarRecord) => positive(answer(r).bodySize);

/** The answer's `Content-Encoding`, lower case; "" when sent as is. */
function encodingOf(r: HarRecord): string {
  const header = responseHeaders(r).find((h) => h.name.toLowerCase() === "content-encoding");
  const value = header?.value.trim().toLowerCase() ?? "";
  return value === "identity" ? "" : value;
}
