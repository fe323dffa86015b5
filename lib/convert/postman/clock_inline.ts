/**
 * A time a script makes (`pm.environment.set("end", new Date().toISOString())`) is read by
 * Newman when the script runs: a pre-request script's, just before its request. A flow var is
 * read once, when the flow starts, before every step: a date search that ends "now" after the
 * posts it looks for would end before the first of them. So a made time that only the requests
 * of the steps whose own scripts made it read, once each, is written in those requests
 * (`${NOW.…}` is read when the request is made) and is no var; a time read anywhere else (a
 * check, a later step, another var) stays one var, the same value at every read, as in Newman.
 *
 * @module
 */
import type { YNode } from "../yaml_out.ts";

/** A made value that is the clock alone: `${NOW.ISO}`, `${NOW.DATETIME_MS+1d}`. */
const CLOCK = /^\$\{NOW\.[A-Z_]+(?:[+-]\d+[smhdw])?\}$/;

/** The steps (by index) whose scripts made each variable a time, by its Postman name. */
export class ClockMade {
  readonly #at = new Map<string, Set<number>>();

  /** `name` was set to `made` by a script of the step at `step` (a time or anything else). */
  made(name: string, made: string | undefined, step: number): void {
    if (!made || !CLOCK.test(made)) return void this.#at.delete(name);
    this.#at.set(name, (this.#at.get(name) ?? new Set()).add(step));
  }

  /** The steps whose scripts made `name` a time; undefined when it is no made time. */
  stepsOf(name: string): ReadonlySet<number> | undefined {
    return this.#at.get(name);
  }
}

/** How many times `ref` is written in the strings of `node`. */
function count(node: YNode | undefined, ref: string): number {
  if (typeof node === "string") return node.split(ref).length - 1;
  if (Array.isArray(node)) return node.reduce((n: number, v) => n + count(v, ref), 0);
  if (node === null || typeof node !== "object") return 0;
  if (node.kind === "commented") return count(node.node, ref);
  return node.entries.reduce((n: number, [, v]) => n + count(v, ref), 0);
}

/** `node` with `ref` written as `value` in its strings. */
function replaced(node: YNode, ref: string, value: string): YNode {
  if (typeof node === "string") return node.replaceAll(ref, () => value);
  if (Array.isArray(node)) return node.map((v) => replaced(v, ref, value));
  if (node === null || typeof node !== "object") return node;
  if (node.kind === "commented") return { ...node, node: replaced(node.node, ref, value) };
  if (node.kind === "flow") {
    return {
      ...node,
      entries: node.entries.map(([k, v]) => [k, replaced(v, ref, value)]),
    } as YNode;
  }
  return { ...node, entries: node.entries.map(([k, v]) => [k, replaced(v, ref, value)]) };
}

/** A step's `request` map, under its comments. */
function requestOf(step: YNode): YNode | undefined {
  const map = typeof step === "object" && step !== null && !Array.isArray(step) &&
      step.kind === "commented"
    ? step.node
    : step;
  const entries = typeof map === "object" && map !== null && !Array.isArray(map) &&
      map.kind === "map"
    ? map.entries
    : [];
  return entries.find(([k]) => k === "request")?.[1];
}

/**
 * The vars left once each made time only its making steps' requests read is written in them
 * (`steps` is changed in place). `vars` are the flow's vars by their flow names, `stepsOf` the
 * steps whose scripts made each a time.
 *
 * @example
 * ```ts
 * import { inlineClocks } from "./clock_inline.ts";
 * const steps: any[] = [
 *   { kind: "map", entries: [["name", "post"], ["request", { kind: "map", entries: [["url", "/p"]] }]] },
 *   { kind: "map", entries: [["name", "find"], ["request", { kind: "map", entries: [["url", "/s?end=${vars.end}"]] }]] },
 * ];
 * const left = inlineClocks(steps, [["end", "${NOW.ISO}"]], (n) => n === "end" ? new Set([1]) : undefined);
 * if (left.length !== 0 || steps[1].entries[1][1].entries[0][1] !== "/s?end=${NOW.ISO}") throw new Error();
 * ```
 */
export function inlineClocks(
  steps: YNode[],
  vars: [string, string][],
  stepsOf: (name: string) => ReadonlySet<number> | undefined,
): [string, string][] {
  return vars.filter(([name, value]) => {
    const at = stepsOf(name);
    if (!at || !CLOCK.test(value)) return true;
    const ref = `\${vars.${name}}`;
    const inVars = vars.some(([, v]) => v.includes(ref));
    const counts = steps.map((s) => count(s, ref));
    const own = counts.every((n, i) =>
      n === 0 || (n === 1 && at.has(i) && count(requestOf(steps[i]), ref) === 1)
    );
    if (inVars || !own || counts.every((n) => n === 0)) return true;
    counts.forEach((n, i) => n > 0 && (steps[i] = replaced(steps[i], ref, value)));
    return false;
  });
}
