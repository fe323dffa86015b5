import assert from "node:assert/strict";
import { type OrderResult, orderSteps } from "../../lib/load/order.ts";

/** Steps from `name: dep dep` specs, for compact test tables. */
function steps(...specs: string[]): { name: string; dependsOn: string[] }[] {
  return specs.map((spec) => {
    const [name, ...dependsOn] = spec.split(/\s+/).filter((s) => s !== "");
    return { name, dependsOn };
  });
}

/** The step names in run order; fails the test on a cycle. */
function names(input: { name: string }[], result: OrderResult): string[] {
  assert.ok("order" in result, `unexpected cycle ${JSON.stringify(result)}`);
  return result.order.map((i) => input[i].name);
}

function cycleOf(result: OrderResult): string {
  assert.ok("cycle" in result, `expected a cycle, got ${JSON.stringify(result)}`);
  return result.cycle.join(" -> ");
}

Deno.test("orderSteps keeps the listed order when no step has depends_on", () => {
  const input = steps("c", "a", "b");
  const result = orderSteps(input);
  assert.deepEqual(result, { order: [0, 1, 2] });
});

Deno.test("orderSteps returns an empty order for no steps", () => {
  assert.deepEqual(orderSteps([]), { order: [] });
});

Deno.test("orderSteps moves a step after the step it depends on", () => {
  const input = steps("get login", "login");
  assert.deepEqual(orderSteps(input), { order: [1, 0] });
  assert.deepEqual(names(input, orderSteps(input)), ["login", "get"]);
});

Deno.test("orderSteps leaves a dependency that is already earlier in place", () => {
  const input = steps("login", "get login", "put login");
  assert.deepEqual(orderSteps(input), { order: [0, 1, 2] });
});

Deno.test("orderSteps resolves a chain listed backwards", () => {
  const input = steps("c b", "b a", "a");
  assert.deepEqual(names(input, orderSteps(input)), ["a", "b", "c"]);
});

Deno.test("orderSteps orders a diamond with each step after all its dependencies", () => {
  const input = steps("d b c", "c a", "b a", "a");
  // Among ready steps the first listed wins: after a, c (listed before b) runs first.
  assert.deepEqual(names(input, orderSteps(input)), ["a", "c", "b", "d"]);
});

Deno.test("orderSteps runs the earliest listed ready step first", () => {
  const input = steps("x", "late first", "y", "first", "z");
  // "late" waits for "first"; the others keep their listed order around it.
  assert.deepEqual(names(input, orderSteps(input)), ["x", "y", "first", "late", "z"]);
});

Deno.test("orderSteps lets a freed step go before later independent steps", () => {
  const input = steps("b a", "a", "c");
  assert.deepEqual(names(input, orderSteps(input)), ["a", "b", "c"]);
});

Deno.test("orderSteps ignores unknown names in depends_on", () => {
  const input = steps("a ghost", "b a missing");
  assert.deepEqual(orderSteps(input), { order: [0, 1] });
});

Deno.test("orderSteps ignores a repeated dependency", () => {
  const input = steps("b a a", "a");
  assert.deepEqual(names(input, orderSteps(input)), ["a", "b"]);
});

Deno.test("orderSteps reports a cycle of two as a closed list", () => {
  const result = orderSteps(steps("a b", "b a"));
  assert.deepEqual(result, { cycle: ["a", "b", "a"] });
});

Deno.test("orderSteps reports a cycle of three in dependency order", () => {
  assert.equal(cycleOf(orderSteps(steps("a b", "b c", "c a"))), "a -> b -> c -> a");
  assert.equal(cycleOf(orderSteps(steps("a c", "b a", "c b"))), "a -> c -> b -> a");
});

Deno.test("orderSteps reports a step that depends on itself", () => {
  assert.deepEqual(orderSteps(steps("ok", "self self")), { cycle: ["self", "self"] });
});

Deno.test("orderSteps reports only the cycle, not the steps waiting on it", () => {
  // "start" waits on the cycle but is not part of it.
  const result = orderSteps(steps("first", "start a", "a b", "b a", "after"));
  assert.deepEqual(result, { cycle: ["a", "b", "a"] });
});

Deno.test("orderSteps reports a cycle even when unknown deps are present", () => {
  assert.equal(cycleOf(orderSteps(steps("a ghost b", "b a"))), "a -> b -> a");
});
