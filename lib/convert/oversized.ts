/**
 * A read whose recorded answer is larger than the runner reads by default: n8n's editor reads
 * its node catalog (`GET /types/nodes.json`, 14.6 MB decoded). Replayed, the step fails at the
 * `--max-body` cap and every later step is skipped, though nothing can be captured from it
 * (recorders keep no text that large). The evidence is the recorded decoded size
 * (`content.size`, which chrome-har writes); an answer of unknown size (-1) is kept.
 *
 * @module
 */
import { DEFAULT_MAX_BODY_BYTES } from "../http/body_limits.ts";
import type { HarRecord } from "./har_model.ts";

/**
 * Whether `r` is a read (GET or HEAD) whose recorded answer is larger than the runner's default
 * body cap: a write is kept whatever it answers, since what it changes matters.
 *
 * @example
 * ```ts
 * import { isOversizedRead } from "./oversized.ts";
 * const r = (method: string, size: number) => ({ method, raw: { response: { content: { size } } } });
 * // deno-lint-ignore no-explicit-any
 * const judge = (method: string, size: number) => isOversizedRead(r(method, size) as any);
 * if (!judge("GET", 14_581_902) || judge("GET", 600_000) || judge("GET", -1)) throw new Error();
 * if (judge("POST", 14_581_902)) throw new Error("a write is kept");
 * ```
 */
export function isOversizedRead(r: HarRecord): boolean {
  if (r.method !== "GET" && r.method !== "HEAD") return false;
  const response = (r.raw.response ?? {}) as Record<string, unknown>;
  const size = ((response.content ?? {}) as Record<string, unknown>).size;
  return typeof size === "number" && Number.isFinite(size) && size > DEFAULT_MAX_BODY_BYTES;
}
