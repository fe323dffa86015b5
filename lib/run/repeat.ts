/**
 * `--repeat N`: each selected flow run N times, as N flows of the one run,
 * so the scheduler that runs flows `jobs` at a time (`flows.ts`) runs the
 * iterations too — one limit on flow runs at once, one way to interrupt,
 * retry and report them. Iteration `i` of flow `name` is named
 * `name [i/N]`, so every event of a flow run is told apart from those of
 * the iterations running beside it; each iteration evaluates its `vars:`
 * anew, so `${RANDOM.…}` in a name makes it unique per iteration
 * (`${RUN_ID}` alone is the same for the whole run).
 *
 * @module
 */
import { type DeferredFlow, type Flow, isDeferred } from "../model/flow.ts";

/**
 * The flows, each `n` times, iteration-major (every flow's first iteration,
 * then every flow's second, …), so a run's flows are spread evenly over its
 * time and an interrupt leaves every flow with as many iterations. `n` = 1
 * gives the flows as they are.
 *
 * @example
 * ```ts
 * import { repeatFlows } from "./repeat.ts";
 * const flows = [{ file: "a.yaml", name: "a", vars: [], steps: [] }, { file: "b.yaml", name: "b", vars: [], steps: [] }];
 * const names = repeatFlows(flows, 2).map((f) => f.name);
 * if (names.join() !== "a [1/2],b [1/2],a [2/2],b [2/2]") throw new Error(names.join());
 * if (repeatFlows(flows, 1)[0] !== flows[0]) throw new Error();
 * ```
 */
export function repeatFlows(
  flows: readonly (Flow | DeferredFlow)[],
  n: number,
): (Flow | DeferredFlow)[] {
  if (n <= 1) return [...flows];
  const makers = flows.map((flow) => iterations(flow, n));
  const repeated = new Array<Flow | DeferredFlow>(flows.length * n);
  let at = 0;
  for (let i = 1; i <= n; i++) for (const make of makers) repeated[at++] = make(i);
  return repeated;
}

/**
 * Makes iteration `i` of `flow`. A parsed flow's iteration is an object of
 * one number whose prototype is the flow with its iteration's name as a
 * getter (the rest read through it): 100,000 iterations wait for their turn
 * in 6 MB, not the 22 MB of named shallow copies. A data-driven flow's is
 * a named copy, which `expandRows` spreads; a deferred flow's, a deferred
 * flow that names what it loads.
 */
function iterations(flow: Flow | DeferredFlow, n: number): (i: number) => Flow | DeferredFlow {
  if (isDeferred(flow)) {
    return (i) => {
      const name = iterationName(flow.name, i, n);
      return { file: flow.file, name, load: async () => ({ ...await flow.load(), name }) };
    };
  }
  if (flow.rows) return (i) => ({ ...flow, name: iterationName(flow.name, i, n) });
  const named = Object.create(flow, {
    name: {
      get(this: { i: number }) {
        return iterationName(flow.name, this.i, n);
      },
      enumerable: true,
    },
  });
  return (i) => {
    const one = Object.create(named);
    one.i = i;
    return one;
  };
}

/**
 * The name of iteration `i` of `n` of a flow named `name`.
 *
 * @example
 * ```ts
 * import { iterationName } from "./repeat.ts";
 * if (iterationName("checkout", 3, 100) !== "checkout [3/100]") throw new Error();
 * ```
 */
export function iterationName(name: string, i: number, n: number): string {
  return `${name} [${i}/${n}]`;
}

/**
 * Which iteration of `n` a flow result's name is of, and the flow's own
 * name (a data row's suffix, which follows the iteration's, kept);
 * undefined for a name no iteration has (a setup or teardown flow).
 *
 * @example
 * ```ts
 * import { iterationOf } from "./repeat.ts";
 * const of = iterationOf("checkout [3/100] [eu]", 100);
 * if (of?.i !== 3 || of.name !== "checkout [eu]") throw new Error(JSON.stringify(of));
 * if (iterationOf("setup", 100) !== undefined) throw new Error();
 * ```
 */
export function iterationOf(
  name: string,
  n: number,
): { i: number; name: string } | undefined {
  const suffix = suffixOf(n);
  let last: RegExpExecArray | undefined;
  for (const m of name.matchAll(suffix)) last = m;
  if (!last) return undefined;
  const i = Number(last[1]);
  if (!(i >= 1 && i <= n)) return undefined;
  return { i, name: name.slice(0, last.index) + name.slice(last.index + last[0].length) };
}

/** The pattern of an iteration's suffix, made once per run's `n` (every event reads it). */
let suffixes: { n: number; pattern: RegExp } | undefined;
function suffixOf(n: number): RegExp {
  if (suffixes?.n !== n) suffixes = { n, pattern: new RegExp(` \\[(\\d+)/${n}\\]`, "g") };
  return suffixes.pattern;
}
