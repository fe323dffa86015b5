/**
 * What a converted step asserts: the recorded status (written by the
 * writer), a `type` check per top-level JSON field (at most 15, nulls
 * skipped), and `equals` only where a re-run must see the same value: values
 * the request itself sent, and stable-looking values (booleans, short
 * lower-case words) that are not ids, times, tokens or counts and that no
 * later request of the flow writes.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import type { Step } from "./model.ts";
import { isStableValue, looksLikeToken } from "./values.ts";
import type { YScalar } from "./yaml_out.ts";

/**
 * Adds the body checks of `step` from its last recorded response.
 *
 * @example
 * ```ts
 * import { addAssertions } from "./assertions.ts";
 * const step = { last: { hasJson: true, json: { state: "new", id: "ord_1a2b3c4d" } }, sent: new Map(), checks: [] };
 * // deno-lint-ignore no-explicit-any
 * addAssertions(step as any, new Set(), () => false);
 * if (JSON.stringify(step.checks) !== '[{"path":["state"],"op":"equals","value":"new"},{"path":["id"],"op":"type","value":"string"}]') {
 *   throw new Error(JSON.stringify(step.checks));
 * }
 * ```
 */
export function addAssertions(
  step: Step,
  secrets: ReadonlySet<string>,
  writtenLater: (key: string, r: HarRecord) => boolean,
): void {
  const r = step.last;
  if (!r.hasJson) return;
  const json = r.json;
  if (Array.isArray(json)) {
    step.checks.push({ path: [], op: "type", value: "array" });
    return;
  }
  if (typeof json !== "object" || json === null) return;
  let count = 0;
  for (const [key, value] of Object.entries(json)) {
    if (value === null || count >= 15) continue;
    count++;
    const type = Array.isArray(value)
      ? "array"
      : typeof value === "object"
      ? "object"
      : typeof value;
    const sent = step.sent.get(key);
    const template = sent?.template;
    const scalarTemplate = template === null || typeof template !== "object";
    if (
      sent && scalarTemplate && sent.raw === value && !String(template).includes("${RANDOM.") &&
      !(typeof value === "string" && secrets.has(value))
    ) {
      step.checks.push({ path: [key], op: "equals", value: template as YScalar });
      continue;
    }
    const secret = typeof value === "string" &&
      (looksLikeToken(key, value) || secrets.has(value));
    // Read back, not sent: pinned only when no later request of the flow writes that field.
    if (!secret && isStableValue(key, value) && !writtenLater(key, r)) {
      step.checks.push({ path: [key], op: "equals", value: value as YScalar });
      continue;
    }
    step.checks.push({ path: [key], op: "type", value: type === "bigint" ? "number" : type });
  }
}
