/**
 * Check lists that several steps of a flow repeat word for word (a
 * collection's copied test script) are written once, as a YAML anchor under
 * an `x-checks-N` key, and each step's `assert.json` names it (`- *checks_1`),
 * which the flow format expands in place. The YAML writer has no anchors, so
 * the list is written with a marker that {@linkcode withAnchors} turns into
 * `&checks_1` and `*checks_1` in the text. An `auth:` every step has alike
 * becomes the flow's ({@linkcode hoistAuth}).
 *
 * @module
 */
import type { YMap, YNode } from "../yaml_out.ts";

/** Shorter lists read as well inline: fewer than 3 checks, unless they hold a big group. */
const MIN_SHARED = 3;
const MIN_SHARED_TEXT = 400;
/** A marker no converted value holds (a private-use character). */
const MARK = "\ue001alias:";

const isMap = (n: YNode | undefined): n is YMap =>
  typeof n === "object" && n !== null && !Array.isArray(n) && n.kind === "map";

/** The `assert.json` entry of a step node, to read and replace. */
function jsonEntry(step: YNode): [string, YNode] | undefined {
  const map =
    typeof step === "object" && step !== null && !Array.isArray(step) && step.kind === "commented"
      ? step.node
      : step;
  if (!isMap(map)) return undefined;
  const assert = map.entries.find(([k]) => k === "assert")?.[1];
  if (!isMap(assert)) return undefined;
  return assert.entries.find(([k]) => k === "json");
}

/**
 * The steps with their repeated check lists replaced by a marker, and the
 * lists to write once, as `x-checks-N` entries of the flow.
 *
 * @example
 * ```ts
 * import { shareChecks } from "./shared_checks.ts";
 * import { ymap } from "../yaml_out.ts";
 * const list = () => [1, 2, 3].map((n) => ymap([["path", `$.json.a${n}`], ["exists", true]]));
 * const step = () => ymap([["name", "s"], ["assert", ymap([["json", list()]])]]);
 * const { shared } = shareChecks([step(), step()]);
 * if (shared.length !== 1 || shared[0][0] !== "x-checks-1") throw new Error();
 * ```
 */
export function shareChecks(steps: YNode[]): { shared: [string, YNode][] } {
  const counts = new Map<string, number>();
  const entries = steps.map(jsonEntry);
  for (const e of entries) {
    if (!e || !Array.isArray(e[1])) continue;
    const key = JSON.stringify(e[1]);
    if (e[1].length < MIN_SHARED && key.length < MIN_SHARED_TEXT) continue;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  const shared: [string, YNode][] = [];
  for (const e of entries) {
    const key = e && Array.isArray(e[1]) ? JSON.stringify(e[1]) : undefined;
    if (!e || key === undefined || (counts.get(key) ?? 0) < 2) continue;
    let name = names.get(key);
    if (!name) {
      name = `checks_${names.size + 1}`;
      names.set(key, name);
      shared.push([`x-checks-${names.size}`, e[1]]);
    }
    e[1] = [`${MARK}${name}`];
  }
  return { shared };
}

/**
 * The flow's text with the markers made YAML anchors and aliases.
 *
 * @example
 * ```ts
 * import { withAnchors } from "./shared_checks.ts";
 * const text = "x-checks-1:\n  - a\nsteps:\n  - json: [\ue001alias:checks_1]\n";
 * if (withAnchors(text) !== "x-checks-1: &checks_1\n  - a\nsteps:\n  - json: [*checks_1]\n") throw new Error();
 * ```
 */
export function withAnchors(text: string): string {
  return text
    .replace(/^x-checks-(\d+):$/gm, "x-checks-$1: &checks_$1")
    .replaceAll(MARK, "*");
}

/** A step node's map, under its comments. */
function stepMap(step: YNode): YMap | undefined {
  const map =
    typeof step === "object" && step !== null && !Array.isArray(step) && step.kind === "commented"
      ? step.node
      : step;
  return isMap(map) ? map : undefined;
}

/**
 * The `auth:` every step of a flow has alike, taken off the steps to be the
 * flow's own (one place to read and change it); `undefined` when the steps
 * differ or some have none.
 *
 * @example
 * ```ts
 * import { hoistAuth } from "./shared_checks.ts";
 * import { ymap } from "../yaml_out.ts";
 * const step = () => ymap([["name", "s"], ["auth", ymap([["basic", ymap([["username", "u"]])]])]]);
 * const steps = [step(), step()];
 * if (hoistAuth(steps) === undefined || JSON.stringify(steps).includes("basic")) throw new Error();
 * ```
 */
export function hoistAuth(steps: YNode[]): YNode | undefined {
  const maps = steps.map(stepMap);
  const blocks = maps.map((m) => m?.entries.find(([k]) => k === "auth")?.[1]);
  const first = blocks[0];
  if (steps.length < 2 || first === undefined) return undefined;
  const key = JSON.stringify(first);
  if (!blocks.every((b) => b !== undefined && JSON.stringify(b) === key)) return undefined;
  for (const m of maps) if (m) m.entries = m.entries.filter(([k]) => k !== "auth");
  return first;
}
