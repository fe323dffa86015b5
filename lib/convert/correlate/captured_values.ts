/**
 * The values a flow takes from answers, as recorded. Each differs on
 * another instance, so a list row is never picked by a field holding one:
 * Redis Commander's key tree names each row `<connection id>:<key>`, and
 * the connection id (`R:127.0.0.1:50261:0`, where Redis listened when the
 * journey was recorded) is captured from an earlier answer; a filter
 * `[?@.id == 'R:127.0.0.1:50261:0:invoice:']` matched nothing on a fresh
 * instance. The conversion's row filters (`captures.ts`) and `--verify`'s
 * (`verify_neighbours.ts`) ask {@linkcode holdsCaptured} through `row_name.ts`.
 *
 * @module
 */
import type { JsonPath, Producer } from "../model.ts";
import type { Correlator } from "./state.ts";

/**
 * The shortest captured value a row filter refuses to hold: an instance's id
 * or address, never a short number or word that texts hold by chance.
 */
export const CAPTURED_MIN = 8;

/** The text of the leaf at `path` (keys and indexes) in `body`, when it is a string or number. */
function recordedAt(body: unknown, path: JsonPath): string | undefined {
  let node = body;
  for (const segment of path) {
    if (typeof segment === "object" || typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return typeof node === "string" || typeof node === "number" ? String(node) : undefined;
}

/**
 * Remembers the recorded value `p` hands out, now that a step captures it.
 *
 * @example
 * ```ts
 * import { noteCaptured } from "./captured_values.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const step = { last: { json: { conns: [{ id: "R:127.0.0.1:50261:0" }] } } };
 * // deno-lint-ignore no-explicit-any
 * noteCaptured(c, { step, source: { kind: "json", path: ["conns", 0, "id"] }, secret: false } as any);
 * if (!c.captured.has("R:127.0.0.1:50261:0")) throw new Error();
 * ```
 */
export function noteCaptured(c: Correlator, p: Producer): void {
  if (p.source.kind !== "json") return;
  const recorded = recordedAt(p.step.last.json, p.source.path);
  if (recorded !== undefined) c.captured.add(recorded);
}

/**
 * Whether `value` holds a value the flow captures (of at least
 * {@linkcode CAPTURED_MIN} characters): it is another on a fresh instance.
 *
 * @example
 * ```ts
 * import { holdsCaptured } from "./captured_values.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * c.captured.add("R:127.0.0.1:50261:0");
 * c.captured.add("7");
 * if (!holdsCaptured(c, "R:127.0.0.1:50261:0:invoice:") || holdsCaptured(c, "Order 7")) throw new Error();
 * ```
 */
export function holdsCaptured(c: Correlator, value: string): boolean {
  for (const captured of c.captured) {
    if (captured.length >= CAPTURED_MIN && value.includes(captured)) return true;
  }
  return false;
}
