/**
 * Step order: listed order, except that a step with `depends_on` runs after
 * the steps it names. The sort is stable: among steps that are ready, the one
 * listed first runs first, so a flow without `depends_on` keeps its order.
 *
 * @module
 */

/** The result of ordering: indexes into the listed steps, or the cycle that prevents it. */
export type OrderResult = { order: number[] } | { cycle: string[] };

/**
 * Orders steps by their dependencies. Unknown names in `dependsOn` are
 * ignored here (the loader reports them).
 *
 * @example
 * ```ts
 * import { orderSteps } from "./order.ts";
 * const result = orderSteps([
 *   { name: "get", dependsOn: ["login"] },
 *   { name: "login", dependsOn: [] },
 * ]);
 * if (!("order" in result) || result.order.join() !== "1,0") throw new Error();
 * const loop = orderSteps([{ name: "a", dependsOn: ["b"] }, { name: "b", dependsOn: ["a"] }]);
 * if (!("cycle" in loop) || loop.cycle.join(" -> ") !== "a -> b -> a") throw new Error();
 * ```
 */
export function orderSteps(
  steps: readonly { name: string; dependsOn: readonly string[] }[],
): OrderResult {
  const index = new Map(steps.map((s, i) => [s.name, i]));
  const deps = steps.map((s) =>
    [...new Set(s.dependsOn)].map((d) => index.get(d)).filter((d): d is number => d !== undefined)
  );
  const done = new Array<boolean>(steps.length).fill(false);
  const order: number[] = [];
  // Each time the first ready step in listed order. The scan starts at the first pending
  // step: linear for a flow whose steps are listed in run order (a converted recording of
  // thousands), quadratic only for depends_on pointing forward, which is rare and short.
  let pending = 0;
  while (order.length < steps.length) {
    while (done[pending]) pending++;
    let next = -1;
    for (let i = pending; i < steps.length && next === -1; i++) {
      if (!done[i] && deps[i].every((d) => done[d])) next = i;
    }
    if (next === -1) return { cycle: findCycle(steps.map((s) => s.name), deps, done) };
    done[next] = true;
    order.push(next);
  }
  return { order };
}

function findCycle(names: string[], deps: number[][], done: boolean[]): string[] {
  // Every pending step waits on a pending step, so walking "waits on" edges must revisit one.
  let at = done.findIndex((d) => !d);
  const path: number[] = [];
  const seen = new Map<number, number>();
  while (!seen.has(at)) {
    seen.set(at, path.length);
    path.push(at);
    at = deps[at].find((d) => !done[d])!;
  }
  return [...path.slice(seen.get(at)!), at].map((i) => names[i]);
}
