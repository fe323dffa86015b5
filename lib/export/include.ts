/**
 * An include step, inlined: Artillery has no flows in flows, so the
 * included flow's steps become requests of the including scenario, named
 * as `flowrun run` reports them (`login › post`), in a name space of their
 * own. Its vars are set once per virtual user, except those the include's
 * `with` gives, which read the including flow's values where they are
 * used; its outputs, read as `${steps.login.token}`, stand for what the
 * included flow computes them from. The include step's own checks and
 * captures go on the request whose response they read (`response:`, or
 * the included flow's last request).
 *
 * @module
 */
import type { Step } from "../model/flow.ts";
import { type ArtilleryCapture, artilleryCapture } from "./captures.ts";
import { attachChecks, expectationsOf } from "./expect.ts";
import { jsValue } from "./js_value.ts";
import { secretEnvOf } from "./secret_env.ts";
import { note, type Place, varName } from "./scope.ts";
import type { FlowItem, StepWriter } from "./flow_item.ts";

/** The request item whose response the include step's checks read, or undefined. */
function responseItem(
  items: FlowItem[],
  name: string | undefined,
): Record<string, unknown> | undefined {
  const requests = items.map(({ item }) => Object.values(item)[0])
    .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null && "url" in r);
  return name === undefined ? requests.at(-1) : requests.findLast((r) => r.name === name);
}

/** Puts the include step's own captures and checks on the request they read. */
function includeChecks(step: Step, items: FlowItem[], inner: Place, place: Place): void {
  const captures = step.captures.map((c) => artilleryCapture(c, place))
    .filter((c): c is ArtilleryCapture => c !== undefined);
  const expected = expectationsOf(step.assert, place);
  const count = captures.length + expected.captures.length + expected.expect.length +
    expected.checks.length;
  if (count === 0) return;
  const response = step.include!.response;
  const target = responseItem(
    items,
    response === undefined ? undefined : `${inner.prefix}${response}`,
  );
  if (!target) {
    note(
      place,
      "its checks and captures read a response the included flow does not send: not expressed",
    );
    return;
  }
  attachChecks(target, captures, expected);
}

/**
 * The flow items of an include step at `place`.
 *
 * @example
 * ```ts
 * import { includeItems } from "./include.ts";
 * import { newScope } from "./scope.ts";
 * const request = { method: "GET", url: { source: "http://x.test/", parts: ["http://x.test/"] }, headers: [] };
 * const inner = { name: "a", line: 1, column: 1, captures: [], dependsOn: [], assert: { paths: [] }, request };
 * const flow = { file: "l.yaml", name: "l", vars: [], steps: [inner] };
 * const step = { ...inner, name: "login", include: { file: "l.yaml", flow, with: [] } };
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), included: new Map() };
 * const items = includeItems(step, place, (s, _f, p) => [{ comments: [], item: { get: { name: `${p.prefix}${s.name}`, url: "u" } } }]);
 * if (JSON.stringify(items[0].item) !== '{"get":{"name":"login › a","url":"u"}}') throw new Error();
 * ```
 */
export function includeItems(step: Step, place: Place, write: StepWriter): FlowItem[] {
  const include = step.include!;
  const scope = place.scope;
  const caller = { ...place };
  const inner: Place = {
    scope,
    flow: place.flow,
    flowIndex: scope.namespaces++,
    vars: new Set(include.flow.vars.map((v) => v.name)),
    secretEnv: new Set([...place.secretEnv ?? [], ...secretEnvOf(include.flow)]),
    prefix: `${place.prefix ?? ""}${step.name} › `,
    bound: new Map(include.with.map((w) => [w.name, { value: w.value, place: caller }])),
    included: new Map(),
  };
  for (const v of include.flow.vars) {
    if (!inner.bound!.has(v.name)) {
      scope.perUser.set(varName(inner.flowIndex, v.name), jsValue(v.value, inner));
    }
  }
  const items = include.flow.steps.flatMap((s) => write(s, include.flow, inner));
  place.step = step.name;
  includeChecks(step, items, inner, place);
  const outputs = new Map((include.flow.outputs ?? []).map((o) => [o.name, o.value]));
  place.included?.set(step.name, { place: inner, outputs });
  return items;
}
