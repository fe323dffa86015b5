/**
 * Parses a Postman script with acorn, a real JavaScript parser, so the
 * translator sees statements and expressions rather than guessing from
 * text. Bounded: a script longer than {@linkcode MAX_SCRIPT_CHARS} is not
 * parsed, and a parse error or a stack exhausted by deep nesting gives
 * `undefined` (the script is then kept whole as a comment). So does a script
 * Postman's sandbox refuses to compile though JavaScript parses it: a
 * top-level `const` of a name the sandbox gives (sandbox_names.ts), after
 * which Newman runs none of it.
 *
 * @module
 */
import { parse } from "acorn";
import { MAX_SCRIPT_CHARS } from "../limits.ts";
import { withoutEarlyReturns } from "./early_return.ts";
import { redeclaredName } from "./sandbox_names.ts";

export type { Node } from "./node.ts";
import type { Node } from "./node.ts";

/** A parsed script, or why it could not be. */
export type Parsed = { ok: true; program: Node } | { ok: false; why: string };

/**
 * The program of `source`, as a script (Postman's sandbox runs scripts, not
 * modules), with top-level `return` allowed (the sandbox wraps the code in a
 * function).
 *
 * @example
 * ```ts
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("tests['ok'] = responseCode.code === 200;");
 * if (!p.ok || p.program.body.length !== 1) throw new Error();
 * if (parseScript("tests[").ok) throw new Error();
 * const refused = parseScript("const data = pm.response.json();");
 * if (refused.ok || !refused.why.includes('declares "data"')) throw new Error();
 * ```
 */
export function parseScript(source: string): Parsed {
  if (source.length > MAX_SCRIPT_CHARS) {
    return { ok: false, why: `it is longer than ${MAX_SCRIPT_CHARS} characters` };
  }
  try {
    const program = parse(source, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    }) as unknown as Node;
    const taken = redeclaredName(source, program);
    if (taken) {
      return {
        ok: false,
        why:
          `it stops at a SyntaxError in Postman's sandbox: "${taken.text}" declares "${taken.name}", ` +
          "a name the sandbox already gives every script, so Newman runs none of it",
      };
    }
    // A guard clause's `return;` as the `else` it means (early_return.ts).
    return { ok: true, program: withoutEarlyReturns(program) };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, why: "it is nested too deeply" };
    return { ok: false, why: `it does not parse (${(error as Error).message})` };
  }
}
