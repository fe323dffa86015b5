/**
 * A pre-request script run for one data row, to learn the URL it leaves the
 * request with: data-driven suites add a search's parameters only for the
 * row's non-empty cells (`if (value && value.trim() !== "") params.push(…)`,
 * then `pm.request.url = url + "?" + params.join("&")`, or
 * `pm.request.url.query.add(…)` under an `if`), so Newman sends each row its
 * own URL, which the symbolic translator cannot say. The row's cells are known
 * when converting, so the script is worked out with them, as the sandbox would,
 * over a small part of JavaScript: locals, functions and arrows, `if`, `for…of`,
 * strings, numbers, lists (`push`, `join`, `forEach`, `map`, `filter`), objects
 * of text keys. A Postman variable (`pm.environment.get("base")`) is its
 * `{{base}}` text, usable only where it is joined into text. Anything else —
 * another `pm.*` call, a method this does not know, a variable's value tested —
 * gives `undefined`: nothing is guessed.
 *
 * @module
 */
import { dotted } from "./eval.ts";
import type { Node } from "./parse.ts";
import {
  binary,
  type Env,
  type Fn,
  isFn,
  join,
  lookup,
  member,
  queryPairs,
  scalarMethod,
  text,
  Tpl,
  Unsaid,
  type Value,
} from "./row_values.ts";

/** What the script leaves the request's URL with for one row. */
export interface RowUrl {
  /** The URL text (Postman's, `{{vars}}` kept) the script wrote, if it wrote one. */
  url?: string;
  /** Query text the script added after it (`k=v` each), in order. */
  added: string[];
}

/** Carries a function's `return` out of its body. */
class Returned {
  constructor(readonly value: Value) {}
}

const GETS = /^pm\.(environment|collectionVariables|globals|variables)\.get$/;
const MAX_STEPS = 20_000;
/**
 * Calls nested deeper than this give up: each interpreted call takes several of V8's frames, and a
 * script recursing without end (`function f(n) { return f(n + 1); }`) overflowed the stack
 * before {@linkcode MAX_STEPS} was reached, a RangeError out of the converter.
 */
const MAX_DEPTH = 200;

/**
 * The URL `program` leaves the request with when `row` is the data row
 * (cells by column name); `undefined` when the script cannot be worked out.
 *
 * @example
 * ```ts
 * import { rowUrl } from "./row_run.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('const v = pm.iterationData.get("q"); if (v) pm.request.url = pm.environment.get("base") + "/s?q=" + v;');
 * if (!p.ok) throw new Error(p.why);
 * if (rowUrl(p.program, { q: "cat" })?.url !== "{{base}}/s?q=cat") throw new Error();
 * if (rowUrl(p.program, { q: "" })?.url !== undefined) throw new Error();
 * const endless = parseScript("function f(n) { return f(n + 1); } f(0);");
 * if (!endless.ok || rowUrl(endless.program, {}) !== undefined) throw new Error();
 * ```
 */
export function rowUrl(program: Node, row: Record<string, unknown>): RowUrl | undefined {
  const run = new Run(row);
  try {
    run.block(program.body, { vars: new Map() });
  } catch (e) {
    if (e instanceof Unsaid || e instanceof Returned) return undefined;
    throw e;
  }
  return run.out;
}

type Handler<T> = (run: Run, n: Node, env: Env) => T;

/** The statements worked out, each by its ESTree type. */
const STATEMENTS: Record<string, Handler<void>> = {
  FunctionDeclaration: () => {},
  EmptyStatement: () => {},
  ExpressionStatement: (run, s, env) => void run.value(s.expression, env),
  VariableDeclaration: (run, s, env) => {
    for (const d of s.declarations) {
      if (d.id.type !== "Identifier") throw new Unsaid();
      env.vars.set(d.id.name, d.init ? run.value(d.init, env) : undefined);
    }
  },
  BlockStatement: (run, s, env) => run.block(s.body, { vars: new Map(), up: env }),
  IfStatement: (run, s, env) => {
    if (run.truthy(run.value(s.test, env))) run.statement(s.consequent, env);
    else if (s.alternate) run.statement(s.alternate, env);
  },
  ForOfStatement: (run, s, env) => {
    const list = run.value(s.right, env);
    const d = s.left.type === "VariableDeclaration" ? s.left.declarations[0]?.id : undefined;
    if (!Array.isArray(list) || d?.type !== "Identifier") throw new Unsaid();
    for (const item of [...list]) {
      run.statement(s.body, { vars: new Map([[d.name, item]]), up: env });
    }
  },
  ReturnStatement: (run, s, env) => {
    throw new Returned(s.argument ? run.value(s.argument, env) : undefined);
  },
};

/** The expressions worked out, each by its ESTree type. */
const EXPRESSIONS: Record<string, Handler<Value>> = {
  Literal: (_, e) => {
    if (e.regex || typeof e.value === "bigint") throw new Unsaid();
    return e.value;
  },
  Identifier: (_, e, env) => {
    if (e.name === "undefined") return undefined;
    // A name nothing declared is the sandbox's own (`pm`, `data`): not worked out here.
    const scope = lookup(env, e.name);
    if (!scope.vars.has(e.name)) throw new Unsaid();
    return scope.vars.get(e.name);
  },
  TemplateLiteral: (run, e, env) =>
    e.quasis.reduce((acc: Value, q: Node, i: number) => {
      const cooked = join(acc, q.value.cooked);
      return i < e.expressions.length ? join(cooked, run.value(e.expressions[i], env)) : cooked;
    }, ""),
  ArrayExpression: (run, e, env) =>
    e.elements.map((x: Node | null) => {
      if (!x || x.type === "SpreadElement") throw new Unsaid();
      return run.value(x, env);
    }),
  ObjectExpression: (run, e, env) => {
    const o: Record<string, Value> = {};
    for (const p of e.properties) {
      if (p.type !== "Property" || p.computed || p.kind !== "init") throw new Unsaid();
      o[p.key.type === "Identifier" ? p.key.name : String(p.key.value)] = run.value(p.value, env);
    }
    return o;
  },
  ArrowFunctionExpression: (run, e, env) => run.fn(e, env),
  FunctionExpression: (run, e, env) => run.fn(e, env),
  UnaryExpression: (run, e, env) => {
    const v = run.value(e.argument, env);
    if (e.operator === "!") return !run.truthy(v);
    if (e.operator !== "typeof" || v instanceof Tpl) throw new Unsaid();
    return Array.isArray(v) ? "object" : typeof v;
  },
  LogicalExpression: (run, e, env) => {
    const left = run.value(e.left, env);
    if (e.operator === "&&") return run.truthy(left) ? run.value(e.right, env) : left;
    if (e.operator === "||") return run.truthy(left) ? left : run.value(e.right, env);
    if (left instanceof Tpl) throw new Unsaid();
    return left ?? run.value(e.right, env);
  },
  ConditionalExpression: (run, e, env) =>
    run.value(run.truthy(run.value(e.test, env)) ? e.consequent : e.alternate, env),
  BinaryExpression: (run, e, env) =>
    binary(e.operator, run.value(e.left, env), run.value(e.right, env)),
  AssignmentExpression: (run, e, env) => run.assign(e, env),
  MemberExpression: (run, e, env) => member(run.value(e.object, env), run.key(e, env)),
  CallExpression: (run, e, env) => run.call(e, env),
};

/** Calls of the sandbox's own worked out, by their dotted name. */
const SANDBOX: Record<string, (run: Run, e: Node, args: () => Value[], env: Env) => Value> = {
  "pm.iterationData.get": (run, _, args) => run.cell(args()[0]),
  "pm.request.url.update": (run, e, _, env) =>
    run.assign({ ...e, left: e.callee.object, operator: "=", right: e.arguments[0] }, env),
  "pm.request.url.query.add": (run, _, args) =>
    void run.out.added.push(...args().flatMap(queryPairs)),
  "console.log": () => undefined,
  "console.info": () => undefined,
  encodeURIComponent: (_, __, args) => encodeURIComponent(plain(args()[0])),
  String: (_, __, args) => plain(args()[0]),
};
SANDBOX["pm.request.addQueryParams"] =
  SANDBOX["pm.request.url.addQueryParams"] =
    SANDBOX["pm.request.url.query.add"];

/** A value as `String` gives it, for one that is not a variable's text, a list or an object. */
function plain(v: Value): string {
  if (v instanceof Tpl || (typeof v === "object" && v !== null)) throw new Unsaid();
  return String(v);
}

class Run {
  out: RowUrl = { added: [] };
  steps = 0;
  depth = 0;
  constructor(readonly row: Record<string, unknown>) {}

  block(body: Node[], env: Env): void {
    // Function declarations are hoisted, as JavaScript does.
    for (const s of body) {
      if (s.type === "FunctionDeclaration") env.vars.set(s.id.name, this.fn(s, env));
    }
    for (const s of body) this.statement(s, env);
  }

  statement(s: Node, env: Env): void {
    if (++this.steps > MAX_STEPS || !Object.hasOwn(STATEMENTS, s.type)) throw new Unsaid();
    STATEMENTS[s.type](this, s, env);
  }

  value(e: Node, env: Env): Value {
    if (++this.steps > MAX_STEPS || !Object.hasOwn(EXPRESSIONS, e.type)) throw new Unsaid();
    return EXPRESSIONS[e.type](this, e, env);
  }

  assign(e: Node, env: Env): Value {
    if (dotted(e.left) === "pm.request.url" && e.operator === "=") {
      this.out = { url: text(this.value(e.right, env)), added: [] };
      return undefined;
    }
    if (e.left.type !== "Identifier" || (e.operator !== "=" && e.operator !== "+=")) {
      throw new Unsaid();
    }
    const right = this.value(e.right, env);
    const scope = lookup(env, e.left.name);
    const v = e.operator === "=" ? right : binary("+", scope.vars.get(e.left.name), right);
    scope.vars.set(e.left.name, v);
    return v;
  }

  key(e: Node, env: Env): string | number {
    if (!e.computed) return e.property.name;
    const k = this.value(e.property, env);
    if (typeof k !== "string" && typeof k !== "number") throw new Unsaid();
    return k;
  }

  call(e: Node, env: Env): Value {
    const args = () => e.arguments.map((a: Node) => this.value(a, env));
    const name = dotted(e.callee) ?? "";
    if (Object.hasOwn(SANDBOX, name)) return SANDBOX[name](this, e, args, env);
    if (GETS.test(name)) return this.variable(name, args()[0]);
    if (e.callee.type === "MemberExpression") {
      const self = this.value(e.callee.object, env);
      const method = this.key(e.callee, env);
      if (typeof self === "string" || typeof self === "number") {
        return scalarMethod(self, method, args());
      }
      if (!Array.isArray(self)) throw new Unsaid();
      return this.listMethod(self, method, args());
    }
    const f = this.value(e.callee, env);
    if (!isFn(f)) throw new Unsaid();
    return this.apply(f, args());
  }

  /** `pm.environment.get("k")` and its kin: the row's cell for `pm.variables`, else `{{k}}`. */
  variable(name: string, k: Value): Value {
    if (typeof k !== "string") throw new Unsaid();
    // `pm.variables` reads the row first, as Postman's data scope is one of its own.
    if (name === "pm.variables.get" && k in this.row) return this.cell(k);
    return new Tpl(`{{${k}}}`);
  }

  listMethod(self: Value[], name: string | number, args: Value[]): Value {
    if (name === "push") return self.push(...args);
    if (name === "includes") return self.includes(args[0]);
    if (name === "join") {
      const sep = args[0] ?? ",";
      return self.reduce((acc: Value, v, i) => join(i === 0 ? acc : join(acc, sep), v ?? ""), "");
    }
    const f = args[0];
    if (!isFn(f) || (name !== "forEach" && name !== "map" && name !== "filter")) {
      throw new Unsaid();
    }
    const out = [...self].map((v, i) => this.apply(f, [v, i]));
    if (name === "map") return out;
    return name === "filter" ? self.filter((_, i) => this.truthy(out[i])) : undefined;
  }

  apply(f: Fn, args: Value[]): Value {
    if (++this.depth > MAX_DEPTH) throw new Unsaid();
    try {
      return this.body(f, { vars: new Map(f.params.map((p, i) => [p, args[i]])), up: f.env });
    } finally {
      this.depth--;
    }
  }

  body(f: Fn, env: Env): Value {
    if (f.body.type !== "BlockStatement") return this.value(f.body, env);
    try {
      this.block(f.body.body, env);
    } catch (r) {
      if (r instanceof Returned) return r.value;
      throw r;
    }
    return undefined;
  }

  fn(e: Node, env: Env): Fn {
    if (e.async || e.generator || e.params.some((p: Node) => p.type !== "Identifier")) {
      throw new Unsaid();
    }
    return { params: e.params.map((p: Node) => p.name), body: e.body, env };
  }

  /** A row's cell: text, a number or a boolean as the data file gives it. */
  cell(k: Value): Value {
    if (typeof k !== "string") throw new Unsaid();
    const v = this.row[k];
    if (v !== undefined && v !== null && typeof v === "object") throw new Unsaid();
    return v as Value;
  }

  truthy(v: Value): boolean {
    if (v instanceof Tpl) throw new Unsaid();
    return Boolean(v);
  }
}
