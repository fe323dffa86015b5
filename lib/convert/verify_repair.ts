/**
 * One repair of `--verify`: a step sends, in place of a recorded value, the
 * capture of the response that handed it out, because that response's live
 * value differs. In the `Cookie` header the value comes from the cookie
 * that set it (encoding included), elsewhere from the page or body that
 * handed it out, when both did.
 *
 * @module
 */
import { useProducer } from "./correlate/mod.ts";
import type { Step } from "./model.ts";
import { substitute } from "./verify_template.ts";
import {
  liveKey,
  liveText,
  type Producer,
  recordedByName,
  restore,
  snapshot,
  type Verification,
} from "./verify_state.ts";

/** Where a producer's value is written: the Cookie header, elsewhere, or both from one. */
type Plan = [Producer, "cookie" | "other" | undefined][];

/**
 * Makes `step` send each chosen producer's live value (longest values
 * first, so one inside another is not split); returns what changed.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { applyRepairs } from "./verify_repair.ts";
 * import { liveKey, startVerification } from "./verify_state.ts";
 * const har = JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://a.test/orders" }, response: { status: 201, content: { mimeType: "application/json", text: '{"id":"ord_8f3a2c91"}' } } },
 *   { request: { method: "GET", url: "https://a.test/orders/ord_8f3a2c91" }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } });
 * const prepared = prepareConversion(har, { noCorrelate: true });
 * const v = startVerification(prepared, { baseUrl: "http://127.0.0.1:9", hosts: ["127.0.0.1:9"], env: () => undefined });
 * v.session.close();
 * const [p] = v.producers.get("ord_8f3a2c91")!;
 * v.live.set(liveKey(p), "ord_live");
 * const done = applyRepairs(v, prepared.c.steps[1], new Map([["ord_8f3a2c91", p]]));
 * if (done.length !== 1 || !prepared.c.steps[1].url.includes("${steps.create_order.capture.")) throw new Error(done.join());
 * ```
 */
export function applyRepairs(
  v: Verification,
  step: Step,
  chosen: Map<string, Producer>,
): string[] {
  const variables = new Map(
    [...recordedByName(v.c)].map(([name, value]) => [v.c.sp.envRef(name), value]),
  );
  const done: string[] = [];
  for (const [value, p] of [...chosen].sort((a, b) => b[0].length - a[0].length)) {
    for (const [q, where] of repairPlan(v, step, value, p)) {
      const text = applyOne(v, step, { value, q, where, variables });
      if (text !== undefined) done.push(text);
    }
  }
  return done;
}

/**
 * A value goes back in the Cookie header from the cookie that set it (as it
 * was set, encoding included), elsewhere from the page or body that handed
 * it out, if one did.
 */
function repairPlan(v: Verification, step: Step, value: string, p: Producer): Plan {
  const at = v.c.steps.indexOf(step);
  const usable = (q: Producer) =>
    q.index < at && liveText(v, q) !== undefined && liveText(v, q) !== value;
  const list = v.producers.get(value) ?? [];
  const isCookie = (q: Producer) => q.source.kind === "cookie";
  const cookie = isCookie(p) ? p : list.find((q) => isCookie(q) && usable(q));
  const other = !isCookie(p) ? p : list.find((q) => !isCookie(q) && usable(q));
  return cookie && other ? [[cookie, "cookie"], [other, "other"]] : [[p, undefined]];
}

/** Writes producer `q`'s capture for `value` in the step; `undefined` when nothing sent it. */
function applyOne(
  v: Verification,
  step: Step,
  { value, q, where, variables }: {
    value: string;
    q: Producer;
    where: "cookie" | "other" | undefined;
    variables: Map<string, string>;
  },
): string | undefined {
  const { c } = v;
  const producer = c.steps[q.index];
  const before = snapshot(c, step);
  const secret = c.secrets.has(value);
  const ref = useProducer(c, { step: producer, source: q.source, secret }, step);
  const name = /\.([^.}]+)\}$/.exec(ref)![1];
  const rawRef = ref.replace(/^\$\{/, "${raw:");
  const lit = (t: string) => c.sp.lit(t);
  const n = substitute(step, { value, ref, rawRef, variables, lit, where });
  if (n === 0) {
    restore(c, step, before);
    return undefined;
  }
  v.session.setCapture(producer.name, name, v.live.get(liveKey(q)));
  return `sends ${ref}: ${q.handed.label} of step "${producer.name}" changed live`;
}
