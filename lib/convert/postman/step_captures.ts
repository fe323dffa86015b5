/**
 * A step's captures from its test scripts' sets: which are written, and how.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import type { Translation } from "./script/translate.ts";
import { varName } from "./vars.ts";
import { conditionsYaml } from "./checks_yaml.ts";
import type { Sym } from "./script/sym.ts";

/**
 * The captures to write. Postman sets a variable to `undefined` when the
 * response has no such value (`pm.globals.set("x", data.missing)`) and goes
 * on, and sets a guarded one (`if (id !== undefined) …`, Portman's idiom)
 * only when its condition holds, while a flow's capture of a missing value
 * fails the step: one that no request reads (`read`, when known) is left
 * out, with a comment.
 *
 * @example
 * ```ts
 * import { neededCaptures } from "./step_captures.ts";
 * const comments: string[] = [];
 * const kept = neededCaptures([{ name: "id", path: "$.json.id" }, { name: "x", path: "$.json.x" }], new Set(["id"]), comments);
 * if (kept.length !== 1 || comments[0] !== "not captured: x: no request reads it") throw new Error(comments.join());
 * ```
 */
export function neededCaptures(
  captures: Translation["captures"],
  read: Set<string> | undefined,
  comments: string[],
): Translation["captures"] {
  if (!read) return captures;
  return captures.filter((c) => {
    if (c.forSend || read.has(c.of ?? c.name)) return true;
    comments.push(
      c.guarded
        ? `not captured: ${c.name}: set only when the script's condition holds, and no request reads it`
        : `not captured: ${c.name}: no request reads it`,
    );
    return false;
  });
}

/**
 * The step's captures: a path, or the first match of a pick (`list.find(…)`,
 * script/pick.ts). `earlier` is what `{{name}}` reads before step `step` sets it: the value a
 * capture under a condition keeps.
 *
 * @example
 * ```ts
 * import { capturesOf } from "./step_captures.ts";
 * import { toYaml, ymap } from "../yaml_out.ts";
 * const t = { captures: [{ name: "id", path: "$.json[?@.k == 'b'].id", first: true }] };
 * const text = toYaml([], ymap([...capturesOf([t])]));
 * if (!text.includes("first: true")) throw new Error(text);
 * ```
 */
export function capturesOf(
  tests: Pick<Translation, "captures">[],
  earlier: (name: string) => YNode | undefined = () => undefined,
  step = "",
): Map<string, YNode> {
  const captures = new Map<string, YNode>();
  for (const c of tests.flatMap((t) => t.captures)) {
    const source = sourceYaml(c);
    // A second source (the body's token, else a cookie's) is captured first, its own value
    // optional: the capture reads it when its condition does not hold (fallback.ts).
    const alt = c.fallback && varName(`${c.name}_else`);
    if (alt) captures.set(alt, fallbackYaml(c.fallback!));
    // Set only when the response says so, Postman keeps the earlier value otherwise; with none,
    // the capture reads the response as it always did.
    const otherwise = alt
      ? `\${steps.${step}.capture.${alt}}`
      : c.when && !c.of
      ? earlier(c.name)
      : undefined;
    const when = otherwise !== undefined ? conditionsYaml(c.when!) : undefined;
    const plain = !when && c.regex === undefined && !c.first && !c.as && !c.forSend;
    captures.set(
      varName(c.name),
      plain ? c.path : ymap([...source, ["when", when], ["otherwise", otherwise]]),
    );
  }
  return captures;
}

/** Where a capture reads: a path (`first` of a pick), or a regular expression over a header, the body or a path's text. */
function sourceYaml(
  c: Omit<Translation["captures"][number], "name">,
): [string, YNode | undefined][] {
  if (c.regex === undefined) {
    return [
      ["path", c.path],
      ["first", c.first || undefined],
      ["as", c.as],
      ["optional", c.forSend],
    ];
  }
  const member = c.header === undefined && c.path !== "$.body" ? c.path : undefined;
  return [["header", c.header], ["path", member], ["regex", c.regex]];
}

/** A fallback's capture: optional, under its own condition (nothing set before the script). */
function fallbackYaml(f: NonNullable<Translation["captures"][number]["fallback"]>): YNode {
  const when = f.when?.length ? conditionsYaml(f.when) : undefined;
  return ymap([...sourceYaml(f), ["optional", true], ["when", when]]);
}

/**
 * A variable's value as a capture's `otherwise` writes it: a flow expression,
 * or text or a number known now; `undefined` when it has none.
 *
 * @example
 * ```ts
 * import { keptValue } from "./step_captures.ts";
 * if (keptValue({ k: "var", name: "id", expr: "${vars.id}" }) !== "${vars.id}") throw new Error();
 * if (keptValue({ k: "lit", value: "a${b" }) !== "a$${b" || keptValue({ k: "lit", value: undefined })) throw new Error();
 * ```
 */
export function keptValue(v: Sym | undefined): YNode | undefined {
  if (v?.k === "var") return v.expr;
  if (v?.k !== "lit") return undefined;
  if (typeof v.value === "string") return v.value.replaceAll("${", () => "$${");
  return typeof v.value === "number" || typeof v.value === "boolean" ? v.value : undefined;
}
