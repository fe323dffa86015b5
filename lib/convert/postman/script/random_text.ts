/**
 * A function a script declares to make random text, as sign-up collections
 * make a fresh account name on every run: a loop that appends a character
 * picked with `Math.random()` from a literal alphabet, as many times as a
 * count says, then returns what it appended.
 *
 * ```js
 * function randomString(length) {
 *   let chars = 'abcdefghijklmnopqrstuvwxyz0123456789', result = '';
 *   for (let i = 0; i < length; i++) result += chars.charAt(Math.floor(Math.random() * chars.length));
 *   return result;
 * }
 * ```
 *
 * A call with a known count is a made value of that length whose characters
 * the alphabet holds, so the server gets text the script could have made:
 * `${RANDOM.HEX_n}` where the alphabet has every hex digit, `${RANDOM.DIGITS_n}`
 * where it has every decimal digit, `${RANDOM.ALPHA_n}` where it has every
 * lowercase letter (a letters-only alphabet, as a name a server checks for
 * letters is made), `${RANDOM.UPPER_n}` where it has every capital letter and
 * not every lowercase one (a code of capitals). Any other alphabet (a few
 * letters), or a count known only when the script runs, is not said.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

/** What makes the text: its alphabet, and the parameter (its index) or number that counts. */
interface RandomText {
  alphabet: string;
  count: { param: number } | { value: number };
}

const HEX = "0123456789abcdef";
const DIGITS = "0123456789";
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const CAPITALS = LETTERS.toUpperCase();
/** The generators' own bounds (docs/expressions.md). */
const MAX_HEX = 4096;
const MAX_DIGITS = 15;

/** Whether `n` (or a node under it) matches `test`. */
function some(n: Node, test: (n: Node) => boolean): boolean {
  const stack: Node[] = [n];
  for (let seen = 0; stack.length > 0 && seen < 10_000; seen++) {
    const at = stack.pop()!;
    if (test(at)) return true;
    for (const child of Object.values(at)) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return false;
}

const isName = (n: Node | undefined, name: string) => n?.type === "Identifier" && n.name === name;
const isRandom = (n: Node) =>
  n.type === "CallExpression" && n.callee.type === "MemberExpression" &&
  isName(n.callee.object, "Math") && isName(n.callee.property, "random");
/** `i++`, `++i`, `i += 1`. */
const steps = (n: Node | undefined, counter: string) =>
  (n?.type === "UpdateExpression" && n.operator === "++" && isName(n.argument, counter)) ||
  (n?.type === "AssignmentExpression" && n.operator === "+=" && isName(n.left, counter) &&
    n.right.type === "Literal" && n.right.value === 1);

/** The statements of a loop's body. */
const statements = (body: Node): Node[] => body.type === "BlockStatement" ? body.body : [body];

/**
 * The loop's counter, its bound, and the statements that are neither its test nor its step.
 * `names` holds what the function's declarations hold, for a `while` loop's counter.
 */
function loopShape(
  loop: Node,
  names: Map<string, Node>,
): { bound: Node; body: Node[] } | undefined {
  const test = loop.test;
  if (test?.type !== "BinaryExpression" || test.operator !== "<") return undefined;
  if (test.left.type !== "Identifier") return undefined;
  const counter = test.left.name;
  const zero = (n: Node | undefined) => n?.type === "Literal" && n.value === 0;
  if (loop.type === "ForStatement") {
    const init = loop.init?.type === "VariableDeclaration" && loop.init.declarations.length === 1
      ? loop.init.declarations[0]
      : undefined;
    if (!isName(init?.id, counter) || !zero(init.init) || !steps(loop.update, counter)) {
      return undefined;
    }
    return { bound: test.right, body: statements(loop.body) };
  }
  if (loop.type !== "WhileStatement" || !zero(names.get(counter))) return undefined;
  const body = statements(loop.body);
  const step = body.filter((s) => s.type === "ExpressionStatement" && steps(s.expression, counter));
  if (step.length !== 1) return undefined;
  return { bound: test.right, body: body.filter((s) => !step.includes(s)) };
}

/**
 * How `fn` makes random text, or `undefined` when it is no such function.
 *
 * @example
 * ```ts
 * import { randomTextOf } from "./random_text.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("function r(n) { var a = 'abc0123456789def', s = ''; for (var i = 0; i < n; i++) { s += a.charAt(Math.floor(Math.random() * a.length)); } return s; }");
 * if (!p.ok) throw new Error(p.why);
 * const made = randomTextOf(p.program.body[0]);
 * if (made?.alphabet !== "abc0123456789def" || JSON.stringify(made.count) !== '{"param":0}') throw new Error(JSON.stringify(made));
 * ```
 */
export function randomTextOf(fn: Node): RandomText | undefined {
  if (fn.type !== "FunctionDeclaration" || fn.async || fn.generator) return undefined;
  if (!fn.params.every((p: Node) => p.type === "Identifier")) return undefined;
  const body: Node[] = fn.body.body;
  const parts = declared(body.slice(0, -1));
  const returned = body.at(-1);
  if (!parts || returned?.type !== "ReturnStatement") return undefined;
  if (returned.argument?.type !== "Identifier") return undefined;
  const { names, loops } = parts;
  const out = returned.argument.name;
  const start = names.get(out);
  if (loops.length !== 1 || start?.type !== "Literal" || start.value !== "") return undefined;
  const shape = loopShape(loops[0], names);
  const appended = shape && randomAppended(shape.body, out);
  const alphabet = appended && alphabetOf(appended, names);
  return alphabet === undefined ? undefined : countOf(fn, shape!.bound, alphabet);
}

/** What the loop's one statement, `out += …random…`, appends; `undefined` for any other body. */
function randomAppended(body: Node[], out: string): Node | undefined {
  const append = body.length === 1 ? body[0].expression : undefined;
  if (append?.type !== "AssignmentExpression" || append.operator !== "+=") return undefined;
  return isName(append.left, out) && some(append.right, isRandom) ? append.right : undefined;
}

/** The names a function's leading declarations give and its loops; `undefined` for anything else. */
function declared(statements: Node[]): { names: Map<string, Node>; loops: Node[] } | undefined {
  const names = new Map<string, Node>();
  const loops: Node[] = [];
  for (const s of statements) {
    if (s.type === "ForStatement" || s.type === "WhileStatement") loops.push(s);
    else if (s.type !== "VariableDeclaration") return undefined;
    else {
      for (const d of s.declarations) {
        if (d.id.type !== "Identifier" || !d.init) return undefined;
        names.set(d.id.name, d.init);
      }
    }
  }
  return { names, loops };
}

/** The alphabet: a text literal the appended character is read from, written there or declared. */
function alphabetOf(appended: Node, names: Map<string, Node>): string | undefined {
  const text = (n: Node | undefined) =>
    n?.type === "Literal" && typeof n.value === "string" && n.value.length > 1
      ? n.value
      : undefined;
  let alphabet: string | undefined;
  some(appended, (n) => {
    alphabet ??= text(n) ?? (n.type === "Identifier" ? text(names.get(n.name)) : undefined);
    return alphabet !== undefined;
  });
  return alphabet;
}

/** How many characters: the parameter the loop counts to, or a number written there. */
function countOf(fn: Node, bound: Node, alphabet: string): RandomText | undefined {
  const param = fn.params.findIndex((p: Node) => isName(bound, p.name));
  if (param >= 0) return { alphabet, count: { param } };
  if (bound.type === "Literal" && typeof bound.value === "number") {
    return { alphabet, count: { value: bound.value } };
  }
  return undefined;
}

/**
 * What a call of such a function makes: a random text of its length from a
 * generator whose characters the alphabet holds; `undefined` when none fits.
 *
 * @example
 * ```ts
 * import { randomTextCall } from "./random_text.ts";
 * const made = { alphabet: "abcdefghijklmnopqrstuvwxyz0123456789", count: { param: 0 } };
 * if (randomTextCall(made, [{ k: "lit", value: 5 }])?.k !== "gen") throw new Error();
 * if (randomTextCall({ ...made, alphabet: "ABC" }, [{ k: "lit", value: 5 }]) !== undefined) throw new Error();
 * const capitals = randomTextCall({ ...made, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ" }, [{ k: "lit", value: 4 }]);
 * if (capitals?.k !== "gen" || capitals.text !== "${RANDOM.UPPER_4}") throw new Error();
 * const letters = randomTextCall({ ...made, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" }, [{ k: "lit", value: 7 }]);
 * if (letters?.k !== "gen" || letters.text !== "${RANDOM.ALPHA_7}") throw new Error();
 * ```
 */
export function randomTextCall(made: RandomText, args: (Sym | undefined)[]): Sym | undefined {
  const arg = "param" in made.count ? args[made.count.param] : undefined;
  const n = "value" in made.count ? made.count.value : arg?.k === "lit" ? arg.value : undefined;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) return undefined;
  const holds = (chars: string) => [...chars].every((c) => made.alphabet.includes(c));
  if (holds(HEX) && n <= MAX_HEX) return { k: "gen", text: `\${RANDOM.HEX_${n}}` };
  if (holds(DIGITS) && n <= MAX_DIGITS) return { k: "gen", text: `\${RANDOM.DIGITS_${n}}` };
  if (holds(LETTERS) && n <= MAX_HEX) return { k: "gen", text: `\${RANDOM.ALPHA_${n}}` };
  // Capitals only (no lowercase letter, so not the line above): codes, coupons, vouchers.
  if (holds(CAPITALS) && n <= MAX_HEX) return { k: "gen", text: `\${RANDOM.UPPER_${n}}` };
  return undefined;
}
