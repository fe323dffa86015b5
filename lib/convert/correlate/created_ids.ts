/**
 * Row numbers a create answered with: `POST /todos` → `{"id": 5}`. A number that small is no
 * evidence on its own (a page size, a count), so it is taken only where a later request sends
 * it as the path segment right under the collection that made it (`/todos/5`): REST's own
 * convention, and the place a fresh instance's other number must go. Larger ids and opaque ones
 * are producers everywhere (`producers.ts`).
 *
 * @module
 */
import { safeDecode } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import { isIdKey } from "../values.ts";
import type { Correlator } from "./state.ts";

/**
 * Notes the small ids a create (`POST`, `PUT`; 2xx) answered with: a whole integer under an
 * id-like key at the top of the body or one object down (`{"data": {"id": 5}}`).
 *
 * @example
 * ```ts
 * import { createdIdProducer, noteCreatedIds } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 200, url: new URL("http://a.test/todos"), hasJson: true, json: { id: 5 } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last } as any);
 * if (createdIdProducer(c, "/todos", "5") === undefined) throw new Error();
 * if (createdIdProducer(c, "/pages", "5") !== undefined) throw new Error();
 * ```
 */
export function noteCreatedIds(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || (r.method !== "POST" && r.method !== "PUT")) return;
  if (r.status === undefined || r.status < 200 || r.status > 299) return;
  const under = trimmed(safeDecode(r.url.pathname));
  const body = r.json as Record<string, unknown> | null;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  const note = (path: (string | number)[], key: string, value: unknown) => {
    if (!Number.isInteger(value) || (value as number) < 0 || !isIdKey(key)) return;
    const text = String(value);
    if (!c.members.has(text)) {
      c.members.set(text, {
        producer: { step, source: { kind: "json", path }, secret: false },
        under,
      });
    }
  };
  for (const [key, value] of Object.entries(body)) {
    note([key], key, value);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [inner, v] of Object.entries(value)) note([key, inner], inner, v);
    }
  }
}

/**
 * The response that named member `segment` (a row a create made, a name a listing gave:
 * `listed_names.ts`) when a request sends it right under that response's collection path
 * (`under`, the path before the segment), else undefined.
 */
export function createdIdProducer(
  c: Correlator,
  under: string,
  segment: string,
): Producer | undefined {
  const found = c.members.get(segment) ??
    (/^\d{1,15}$/.test(segment) ? c.members.get(String(Number(segment))) : undefined);
  return found !== undefined && found.under === trimmed(under) ? found.producer : undefined;
}

/** A path without its trailing slashes: `/files/` and `/files` are one collection. */
export function trimmed(path: string): string {
  return path.replace(/\/+$/, "");
}
