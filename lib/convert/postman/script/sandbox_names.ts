/**
 * The names Postman's sandbox gives every script, and the top-level declaration that takes one
 * again. The sandbox runs a script as the body of a function whose parameters are those names,
 * so a top-level `const data = …` (or `let`, or `class`) declares a parameter twice: a
 * SyntaxError ("Identifier 'data' has already been declared") before the first statement runs.
 * Newman then runs nothing of the script, no test, no set, no request, and reports the error;
 * `var` and `function` may take a parameter's name, and a declaration inside a block or function
 * is its own scope. The list was read by running each declaration in Newman 6.2.1's sandbox: the
 * legacy names are given unless the script starts with the `"use sandbox2";` marker.
 *
 * @module
 */
import type { Node } from "./node.ts";

/** The legacy names: given unless the script opts out with the sandbox2 marker. */
const LEGACY =
  "tests globals environment data request responseCookies responseHeaders responseTime " +
  "responseCode responseBody iteration postman _ CryptoJS atob btoa tv4 xml2Json Backbone cheerio";

/** Every script's names: the sandbox's own, the timers and the JavaScript globals it passes in. */
const ALWAYS = "pm console Buffer setTimeout setInterval setImmediate clearTimeout clearInterval " +
  "clearImmediate Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean DataView " +
  "Date Error EvalError Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array " +
  "JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set " +
  "SharedArrayBuffer String Symbol SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array " +
  "Uint8ClampedArray WeakMap WeakSet decodeURI decodeURIComponent encodeURI encodeURIComponent " +
  "escape isFinite isNaN parseFloat parseInt undefined unescape";

const GIVEN = new Set(`${LEGACY} ${ALWAYS}`.split(" "));
const GIVEN_SANDBOX2 = new Set(ALWAYS.split(" "));

/** The sandbox's markers of a script without the legacy names (its first 15 characters). */
const SANDBOX2 = new Set(['"use sandbox2";', "'use sandbox2';"]);

/** A sandbox-given name `program`'s top level declares again, with the declaration. */
export interface Redeclared {
  /** The name declared. */
  name: string;
  /** The declaration's text, as the script has it: its first line, at most 80 characters. */
  text: string;
}

/**
 * The first top-level `const`, `let` or `class` of `source` (parsed as `program`) that declares a
 * name the sandbox already gives the script; undefined when there is none.
 *
 * @example
 * ```ts
 * import { parse } from "acorn";
 * import { redeclaredName } from "./sandbox_names.ts";
 * const source = "pm.test('ok', () => {});\nconst data = pm.response.json();";
 * const program = parse(source, { ecmaVersion: "latest" }) as never;
 * const r = redeclaredName(source, program);
 * if (r?.name !== "data" || r.text !== "const data = pm.response.json();") throw new Error(JSON.stringify(r));
 * const fine = "var data = 1;\n{ const tests = 2; }\nconst body = 3;";
 * if (redeclaredName(fine, parse(fine, { ecmaVersion: "latest" }) as never)) throw new Error();
 * const opted = "'use sandbox2';\nconst data = 1;";
 * if (redeclaredName(opted, parse(opted, { ecmaVersion: "latest" }) as never)) throw new Error();
 * ```
 */
export function redeclaredName(source: string, program: Node): Redeclared | undefined {
  const given = SANDBOX2.has(source.slice(0, 15)) ? GIVEN_SANDBOX2 : GIVEN;
  for (const statement of program.body as Node[]) {
    const name = declaredNames(statement).find((n) => given.has(n));
    if (name) return { name, text: firstLine(source.slice(statement.start, statement.end)) };
  }
  return undefined;
}

/** `text`'s first line, cut to 80 characters (a declaration may hold a whole schema). */
function firstLine(text: string): string {
  const line = text.split("\n")[0].trimEnd();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** The names a top-level statement binds in the function's own scope: `const`, `let`, `class`. */
function declaredNames(statement: Node): string[] {
  if (statement.type === "ClassDeclaration") return statement.id ? [statement.id.name] : [];
  if (statement.type !== "VariableDeclaration" || statement.kind === "var") return [];
  return (statement.declarations as Node[]).flatMap((d) => patternNames(d.id));
}

/** The identifiers a binding pattern binds (`a`, `{ a, b: c }`, `[a, ...b]`, `a = 1`). */
function patternNames(p: Node | null): string[] {
  if (!p) return [];
  if (p.type === "Identifier") return [p.name];
  if (p.type === "AssignmentPattern") return patternNames(p.left);
  if (p.type === "RestElement") return patternNames(p.argument);
  if (p.type === "ArrayPattern") return (p.elements as (Node | null)[]).flatMap(patternNames);
  if (p.type === "ObjectPattern") {
    return (p.properties as Node[]).flatMap((q) =>
      patternNames(q.type === "Property" ? q.value : q)
    );
  }
  return [];
}
