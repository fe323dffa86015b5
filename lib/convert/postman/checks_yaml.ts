/**
 * Translated checks as flow YAML: each one line (`- { path: $.json.id,
 * exists: true, name: "User has id" }`), groups with `if`/`checks`/`else`.
 *
 * @module
 */
import { yflow, ymap, type YNode, type YScalar } from "../yaml_out.ts";
import { yamlValue } from "./body.ts";
import type { CheckItem } from "./script/translate.ts";
import { type Cond, NOT_EQUAL_IF_THERE } from "./script/sym.ts";
import { onValue } from "./script/var_condition.ts";
import { CONTAINER } from "./script/returned.ts";
import { PICKED } from "./script/picked_expect.ts";
import { listBounded } from "./bounded_list.ts";
import { ARRAY_MEMBER } from "./script/array_member.ts";

const isScalar = (v: unknown): v is YScalar => v === null || typeof v !== "object";

/**
 * A condition as flowrun's operators: JavaScript truthiness is one `truthy`
 * check (there and not `false`, `null`, `0` or `""`); falsiness is `truthy:
 * false` (a missing value, falsy in JavaScript, fails that check: flowrun has no "or").
 *
 * @example
 * ```ts
 * import { expand } from "./checks_yaml.ts";
 * if (expand({ path: "$.json.ok", op: "truthy", value: true }).length !== 1) throw new Error();
 * if (expand({ path: "$.json.ok", op: "falsy", value: true })[0].value !== false) throw new Error();
 * ```
 */
export function expand(c: Cond): Cond[] {
  const length = lengthForms(c);
  if (length) return isText(c.path) ? [length.text] : length.list;
  if (c.op === "truthy") return [{ path: c.path, op: "truthy", value: true }];
  if (c.op === "falsy") return [{ path: c.path, op: "truthy", value: false }];
  if (c.op === ARRAY_MEMBER) return [{ path: c.path, op: "exists", value: true }];
  // As a group's condition (no group of its own there): a value that is there and not equal.
  return [c.op === NOT_EQUAL_IF_THERE ? { ...c, op: "notEquals" } : c];
}

/** Response parts that are always text: the body, a header, a cookie. */
const isText = (path: string) => /^\$\.(body$|headers\b|cookies\b)/.test(path);

/**
 * A length compared with a number (`lengthGt`, …, from sym.ts), as flowrun
 * can check it: on a string, a pattern on its length (in UTF-16 units, as
 * JavaScript counts); on a list, whether the element past the bound exists.
 */
function lengthForms(c: Cond): { text: Cond; list: Cond[] } | undefined {
  const n = c.value as number;
  const at = (i: number, value: boolean): Cond[] => [
    { path: `${c.path}[${i}]`, op: "exists", value },
  ];
  const text = (pattern: string): Cond => ({ path: c.path, op: "matches", value: pattern });
  switch (c.op) {
    case "lengthGt":
      return { text: text(`^[\\s\\S]{${n + 1},}`), list: at(n, true) };
    case "lengthGte":
      return { text: text(`^[\\s\\S]{${n},}`), list: at(n - 1, true) };
    case "lengthLt":
      return { text: text(`^[\\s\\S]{0,${n - 1}}$`), list: at(n - 1, false) };
    case "lengthLte":
      return { text: text(`^[\\s\\S]{0,${n}}$`), list: at(n, false) };
  }
  return undefined;
}

/**
 * A length check on a part that may be a string or a list (`json.token.length
 * > 10`): a group that checks the one its type says.
 */
function lengthGroup(c: Cond, name?: string): YNode | undefined {
  const length = lengthForms(c);
  if (!length || isText(c.path)) return undefined;
  return ymap([
    ["if", condNode({ path: c.path, op: "type", value: "string" })],
    ["checks", [condNode(length.text, name)]],
    ["else", listBounded(c, length.list).map((l) => condNode(l, name))],
  ]);
}

/**
 * `not.equal(v)`: not equal when the value is there, else that it is not there (a missing one
 * is no `v`); a check of the test's name either way, so the report shows it.
 */
function ifThere(c: Cond, name?: string): YNode | undefined {
  if (c.op !== NOT_EQUAL_IF_THERE) return undefined;
  const there = (value: boolean) => ({ path: c.path, op: "exists", value });
  return ymap([
    ["if", condNode(there(true))],
    ["checks", [condNode({ ...c, op: "notEquals" }, name)]],
    ["else", [condNode(there(false), name)]],
  ]);
}

/** A part `in` reads (returned.ts): a list, else an object; flowrun has no "or" of two types. */
function containerGroup(c: Cond, name?: string): YNode | undefined {
  if (c.op !== CONTAINER) return undefined;
  const type = (value: string) => condNode({ path: c.path, op: "type", value }, name);
  return ymap([
    ["if", condNode({ path: c.path, op: "type", value: "array" })],
    ["checks", [type("array")]],
    ["else", [type("object")]],
  ]);
}

/** A name every list has in Newman's sandbox (array_member.ts): a list, else the member there. */
function arrayMemberGroup(c: Cond, name?: string): YNode | undefined {
  if (c.op !== ARRAY_MEMBER) return undefined;
  const list = { path: c.value as string, op: "type", value: "array" };
  return ymap([
    ["if", condNode(list)],
    ["checks", [condNode(list, name)]],
    ["else", [condNode({ path: c.path, op: "exists", value: true }, name)]],
  ]);
}

/** What a `find` picked (picked_expect.ts): a group over the filter's match, `$` the element. */
function pickedGroup(c: Cond, name?: string): YNode | undefined {
  if (c.op !== PICKED) return undefined;
  const checks = (c.value as Cond[]).map((cond) => ({ cond, ...(name ? { name } : {}) }));
  return ymap([["at", c.path], ["checks", checksYaml(checks)]]);
}

/**
 * Conditions as flowrun writes them, in a group's `if` or a capture's `when`:
 * each expanded into flowrun's operators, all of which must hold.
 *
 * @example
 * ```ts
 * import { conditionsYaml } from "./checks_yaml.ts";
 * if (conditionsYaml([{ path: "$.json.token", op: "truthy", value: true }]).length !== 1) throw new Error();
 * ```
 */
export function conditionsYaml(conds: Cond[]): YNode[] {
  return conds.flatMap(expand).map((c) => condNode(c));
}

function condNode(c: Cond, name?: string): YNode {
  // A condition on a variable's value (var_condition.ts) reads it as a step's `if` does.
  const at = onValue(c) ? "value" : "path";
  const entries: [string, unknown][] = [[at, c.path], [c.op, c.value]];
  if (name !== undefined) entries.push(["name", name]);
  if (entries.every(([, v]) => isScalar(v))) return yflow(entries as [string, YScalar][]);
  return ymap(entries.map(([k, v]) => [k, yamlValue(v)]));
}

/**
 * A filter keeping the first of equal checks that a filter matches something (picked_expect.ts
 * checks it before each member of a find's pick: one test reading three members says it once).
 */
function once(): (item: CheckItem) => boolean {
  const seen = new Set<string>();
  return (item) => {
    if (!("cond" in item) || item.cond.op !== "exists" || !item.cond.path.includes("[?")) {
      return true;
    }
    const key = JSON.stringify([item.cond, item.name]);
    return !seen.has(key) && seen.add(key) !== undefined;
  };
}

/**
 * The YAML list of `items`.
 *
 * @example
 * ```ts
 * import { checksYaml } from "./checks_yaml.ts";
 * import { toYaml, ymap } from "../yaml_out.ts";
 * const list = checksYaml([{ cond: { path: "$.status", op: "equals", value: 200 }, name: "ok" }]);
 * const text = toYaml([], ymap([["json", list]]));
 * if (text !== "json:\n  - { path: $.status, equals: 200, name: ok }\n") throw new Error(text);
 * ```
 */
export function checksYaml(items: CheckItem[]): YNode[] {
  return items.filter(once()).flatMap((item): YNode[] => {
    if ("cond" in item) {
      const group = lengthGroup(item.cond, item.name) ?? ifThere(item.cond, item.name) ??
        containerGroup(item.cond, item.name) ?? pickedGroup(item.cond, item.name) ??
        arrayMemberGroup(item.cond, item.name);
      return group ? [group] : expand(item.cond).map((c) => condNode(c, item.name));
    }
    if ("at" in item) return [ymap([["at", item.at], ["checks", checksYaml(item.checks)]])];
    const conds = conditionsYaml(item.if);
    if (item.checks.length === 0) {
      // Only an else branch: written as the checks that run when the condition does not hold.
      return [ymap([["if", conds.length === 1 ? conds[0] : conds], ["checks", [
        condNode({ path: "$.status", op: "exists", value: true }),
      ]], ["else", checksYaml(item.else)]])];
    }
    return [ymap([
      ["if", conds.length === 1 ? conds[0] : conds],
      ["checks", checksYaml(item.checks)],
      ["else", item.else.length > 0 ? checksYaml(item.else) : undefined],
    ])];
  });
}
