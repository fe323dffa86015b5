/**
 * `--verify`'s candidates from the recording: for each value a recorded
 * response handed out and a later request sent back, the responses that
 * handed it out (each with the capture that finds it again, by its list
 * element's neighbours rather than its position), and the probes each live
 * response gets. A capture no flow can hold is dropped, with the reason.
 *
 * @module
 */
import { type Correlator, stablePath } from "./correlate/mod.ts";
import type { Source } from "./model.ts";
import { unexpressible } from "./verify_express.ts";
import { byNeighbours } from "./verify_neighbours.ts";
import { type Handed, handedOut } from "./verify_values.ts";

/**
 * A response of the session that handed out a value, and what the live
 * one holds there.
 *
 * @example
 * ```ts
 * import type { Producer } from "./verify_producers.ts";
 * const p: Producer = { index: 0, handed: { value: "v", label: "the cookie \"sid\"", source: { kind: "cookie", name: "sid" } }, source: { kind: "cookie", name: "sid" } };
 * if (p.index !== 0) throw new Error();
 * ```
 */
export interface Producer {
  index: number;
  handed: Handed;
  source: Source;
}

/** Values probed for in one live response, at most. */
const MAX_PROBES_PER_STEP = 200;

/**
 * The producers probed for in each step's response, at most
 * {@linkcode MAX_PROBES_PER_STEP}.
 *
 * @example
 * ```ts
 * import { probesByStep } from "./verify_producers.ts";
 * import type { Producer } from "./verify_producers.ts";
 * const p = { index: 0 } as Producer;
 * if (probesByStep(new Map([["v", [p]]])).get(0)?.[0] !== p) throw new Error();
 * ```
 */
export function probesByStep(producers: Map<string, Producer[]>): Map<number, Producer[]> {
  const probesAt = new Map<number, Producer[]>();
  for (const list of producers.values()) {
    for (const p of list) {
      const at = probesAt.get(p.index) ?? [];
      if (at.length < MAX_PROBES_PER_STEP) at.push(p);
      probesAt.set(p.index, at);
    }
  }
  return probesAt;
}

/**
 * For each recorded value that a response handed out and a later request
 * sent back, the responses that handed it out before any request sent it;
 * a value whose capture no flow can hold goes to `dropped`, with why.
 *
 * @example
 * ```ts
 * import { producersOf } from "./verify_producers.ts";
 * import { prepareConversion } from "./har.ts";
 * import { sentText } from "./verify_values.ts";
 * import { yamlEngine } from "../load/yaml_engine.ts";
 * import { pathEngine } from "../expr/path_engine.ts";
 * await Promise.all([yamlEngine.load(), pathEngine.load()]); // the check loads a flow
 * const har = JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://a.test/orders" }, response: { status: 201, content: { mimeType: "application/json", text: '{"id":"ord_8f3a2c91"}' } } },
 *   { request: { method: "GET", url: "https://a.test/orders/ord_8f3a2c91" }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } });
 * const { c } = prepareConversion(har, { noCorrelate: true });
 * const found = producersOf(c, c.steps.map((s) => sentText(s.first)), new Map());
 * if (found.get("ord_8f3a2c91")?.[0].index !== 0) throw new Error();
 * ```
 */
export function producersOf(
  c: Correlator,
  sent: string[],
  dropped: Map<string, string>,
): Map<string, Producer[]> {
  const out = new Map<string, Producer[]>();
  const expressible = new Map<string, string>();
  c.steps.forEach((step, index) => {
    for (const handed of handedOut(step.last)) {
      const { value } = handed;
      const forms = [value, encodeURIComponent(value)];
      const has = (text: string) => forms.some((f) => text.includes(f));
      if (!sent.slice(index + 1).some(has)) continue;
      const list = out.get(value) ?? [];
      // A value the client sent before any response handed it out was not handed out here (an
      // echo); once a response handed it out, a later one that holds it hands it out again.
      if (list.length === 0 && sent.slice(0, index + 1).some(has)) continue;
      if (list.some((p) => p.index === index)) continue;
      const source: Source = handed.source.kind === "json"
        ? {
          kind: "json",
          path: byNeighbours(c, step.last.json, stablePath(c, step, handed.source.path)),
        }
        : handed.source;
      // A capture no flow can hold (a member name no JSONPath reads) is no candidate.
      const key = JSON.stringify(source);
      if (!expressible.has(key)) expressible.set(key, unexpressible(c.sp, source) ?? "");
      if (expressible.get(key)) {
        dropped.set(value, `${handed.label} of step "${step.name}": ${expressible.get(key)}`);
        continue;
      }
      list.push({ index, handed, source });
      out.set(value, list);
    }
  });
  return out;
}

/**
 * Whether a producer finds its value by its place in a list (`data[26].subject`): a listing whose
 * order differs live (Strapi's permissions) holds another item there, which is no change of the
 * value. `--verify` sends such a value as converted first; the live one is tried if that fails.
 *
 * @example
 * ```ts
 * import { byPosition, type Producer } from "./verify_producers.ts";
 * const at = (path: (string | number)[]) => ({ source: { kind: "json", path } }) as unknown as Producer;
 * if (!byPosition(at(["data", 26, "subject"])) || byPosition(at(["data", "id"]))) throw new Error();
 * ```
 */
export function byPosition(p: Producer): boolean {
  return p.source.kind === "json" && p.source.path.some((part) => typeof part === "number");
}
