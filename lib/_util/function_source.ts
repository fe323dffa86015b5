/**
 * A function's source text for the helper thread, under the name the code
 * around it calls it by. The helper gets a task as text
 * (`helper_thread.ts`), and a function written out with `toString()` keeps
 * the name its declaration has where it runs: a bundle (`deno task bundle`)
 * renames a function whose name another module also uses (`evaluate` became
 * `evaluate2`), so text that calls it by its own name found nothing
 * ("evaluate is not defined") and every JSONPath filter failed its check.
 *
 * @module
 */

/**
 * `fn`'s declaration as text, followed by `const name = …` when the
 * declaration's name is another one; the functions it calls must be written
 * out the same way (each under its declared name, which is the one its
 * callers use wherever they run).
 *
 * @example
 * ```ts
 * import { functionSource } from "./function_source.ts";
 * const renamed = function evaluate2(n: number) { return n * 2; };
 * const text = `${functionSource(renamed, "evaluate")}\nreturn evaluate(21);`;
 * if (new Function(text)() !== 42) throw new Error(text);
 * const same = function double(n: number) { return n * 2; };
 * if (functionSource(same, "double") !== same.toString()) throw new Error();
 * ```
 */
export function functionSource(fn: (...args: never[]) => unknown, name: string): string {
  const text = fn.toString();
  if (fn.name === name) return text;
  // A function expression or an arrow has no declared name to call it by: bind it first.
  if (!/^(async\s+)?function\s*\*?\s*[\w$]+\s*\(/.test(text)) return `const ${name} = ${text};`;
  return `${text}\nconst ${name} = ${fn.name};`;
}
