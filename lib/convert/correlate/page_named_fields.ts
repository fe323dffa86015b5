/**
 * A form field sent under a name its page made up (page_named_controls.ts):
 * the name is read from the fresh page, as a hidden token's value is, so the
 * server finds the field under the name it wrote for this session. A suffix
 * the page adds to the made-up stem (`…-ext`) is kept as recorded.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { valueKey } from "../json.ts";
import { madeUpStem } from "../page_named_controls.ts";
import { useProducer } from "./captures.ts";
import type { Correlator } from "./state.ts";

/**
 * The template of field name `name` when an earlier page named a control with
 * its made-up stem; `undefined` otherwise (the name is sent as recorded).
 *
 * @example
 * ```ts
 * import { pageNamedField } from "./page_named_fields.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * // deno-lint-ignore no-explicit-any
 * if (pageNamedField(c, "topicId", { uses: new Set() } as any) !== undefined) throw new Error();
 * ```
 */
export function pageNamedField(c: Correlator, name: string, step: Step): string | undefined {
  if (!c.linking) return undefined;
  const stem = madeUpStem(name);
  if (stem === undefined) return undefined;
  const producer = c.producers.get(valueKey(stem));
  // From a page (`regex`) or from HTML inside a JSON answer's member (`json` with its regex).
  const fromPage = producer?.source.kind === "regex" ||
    (producer?.source.kind === "json" && producer.source.regex !== undefined);
  if (!producer || !fromPage || producer.step === step) return undefined;
  return useProducer(c, producer, step) + c.sp.lit(name.slice(stem.length));
}
