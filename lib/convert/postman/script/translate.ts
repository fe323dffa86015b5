/**
 * Translates a Postman script into what a flow step says: checks (from
 * `tests["…"] = …`, `pm.test`, `pm.expect`, `pm.response.to`), captures
 * (`pm.environment.set("x", <response part>)` and its legacy and
 * collection/global spellings), values set outright, and `if` blocks on the
 * response as check groups. Whatever is not understood is returned as its
 * source lines, for a comment beside the step (untranslated.ts says which
 * lines); every assertion is counted as translated or not.
 *
 * @module
 */
import { forgetChanged } from "./object_member.ts";
import { unfoldAssertionIfs } from "./assertion_if.ts";
import { MAX_SCRIPT_DEPTH } from "../limits.ts";
import type { CheckItem } from "./each.ts";
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import { expectChecks } from "./expect.ts";
import { isNextRequest, nextRequest } from "./next.ts";
import { type Node, parseScript } from "./parse.ts";
import { keepDeclared } from "./kept_declared.ts";
import { type Cond, negate, type Sym, truthy } from "./sym.ts";
import { titleText } from "./title.ts";
import { countAssertions, Untranslated } from "./untranslated.ts";
import { isTestsAssignment, swallowingTry, translateScriptFailed } from "./caught.ts";
import { setsInside } from "./sets_inside.ts";
import { testedIf } from "./tested_if.ts";
import { returnedChecks, splitReturn, testStatements } from "./returned.ts";
import { droppedBy, scopeCall, WRITERS } from "./scope_call.ts";
import { scriptSend, sendsIfFound, unsentInside } from "./response_send.ts";
import { destructured } from "./destructure.ts";
import { guardOf, onValue, testedSoFar, variableCondition } from "./var_condition.ts";
import { emptyTranslation, type Translation } from "./translation.ts";
import { shareable } from "./share.ts";
import { calledAtOnce, promisedSend, wrappedSend } from "./promised_send.ts";
import { parsedAnswer } from "./parse_only.ts";
import { type FallbackBlock, fallbackIf, orSet } from "./fallback_walk.ts";
import { isHelper } from "./helper_call.ts";
import { shifting } from "./moment_shift.ts";
import { assignedValue, forgetAssigned } from "./forget.ts";
import { renameRequired } from "./required.ts";
import { drawnAgain } from "./distinct_draw.ts";
import { walkLoop } from "./loop_walk.ts";
import { caseRun } from "./switch_fold.ts";
import { bodyObject } from "./body_object.ts";
import { ScriptValues, type VariableReader } from "../scopes.ts";

export type { CheckItem } from "./each.ts";
export type { Translation } from "./translation.ts";

class Translator {
  readonly out: Translation = emptyTranslation();
  readonly ctx: EvalContext;
  #sink: CheckItem[] = this.out.checks;
  /** Where the checks of the `pm.test` being walked start in the sink (testedSoFar). */
  #testFrom: number | undefined;
  /** The conditions of the `if` branches being walked; `undefined` for one that cannot be said. */
  #when: (Cond[] | undefined)[] = [];
  /** How many tries whose catch swallows a failure the walk is in, inside its `pm.test`. */
  #caught = 0;
  /** How many branches deep the walk is whose condition a value known now decided. */
  #folded = 0;
  /** The request's name, which `setNextRequest` may name to repeat it. */
  requestName = "";
  /** Whether this is a pre-request script, whose `pm.sendRequest` is a request sent first. */
  preRequest = false;

  /** Variables this script set, as later statements of it read them. */
  readonly #local = new ScriptValues<Sym>();
  /** The script's functions that make `pm.sendRequest` awaitable (promised_send.ts). */
  readonly #wrappers = new Set<string>();

  /** The lines of statements not translated (`out.untranslated`). */
  readonly comments: Untranslated;
  /** The block of `if (!get(x))` being walked for a second source of `x` (fallback_walk.ts). */
  fallback?: FallbackBlock;

  constructor(readonly source: string, readonly before: VariableReader) {
    this.comments = new Untranslated(source, this.out.untranslated);
    this.ctx = { scope: new Map(), tests: new Map(), variable: this.#local.over(before) };
  }

  /** A statement's source lines, for a comment (see untranslated.ts). */
  lines(node: Node): void {
    this.comments.add(node);
  }

  /** A statement not understood; `assertions` of them were checks. */
  skip(node: Node): void {
    const at = this.out.untranslated.length;
    this.lines(node), forgetAssigned(node, this.ctx.scope); // a local it assigns is unknown now
    // The lines its comment shows (the declarations it reads first) name what set each dropped.
    droppedBy(this.out, setsInside(node, WRITERS), this.out.untranslated.slice(at));
    if (!this.preRequest) unsentInside(node, this.out); // a test's pm.sendRequest: named
    this.out.untranslatedAssertions += countAssertions(this.source.slice(node.start, node.end));
  }

  block(body: Node[], name: string | undefined, depth: number): void {
    // `if (pm.response.to.have.header(h) === v)`: the assertion, then the branch always taken.
    for (const statement of unfoldAssertionIfs(body)) this.statement(statement, name, depth + 1);
  }

  statement(node: Node, name: string | undefined, depth: number): void {
    if (depth > MAX_SCRIPT_DEPTH) return this.skip(node);
    if (this.#looped(node, name, depth)) return;
    switch (node.type) {
      case "EmptyStatement":
        return;
      case "BlockStatement":
        return this.block(node.body, name, depth);
      case "VariableDeclaration":
        return shifting(node, this.ctx, () => this.declaration(node));
      case "TryStatement": {
        // The checks a try block sets before anything throws are kept: as written, they all run.
        const caught = swallowingTry(node, this.source) ? 1 : 0;
        this.#caught += caught;
        this.block(node.block.body, name, depth);
        return void (this.#caught -= caught);
      }
      case "IfStatement":
        // `if (!get("token")) { set("token", …) }`: a second source of a value set above.
        return fallbackIf(this, node, depth) ? undefined : this.ifStatement(node, name, depth);
      case "ExpressionStatement":
        return shifting(node, this.ctx, () => this.expression(node, name, depth));
      case "FunctionDeclaration": {
        const wrapper = promisedSend(node);
        if (wrapper) return void this.#wrappers.add(wrapper);
        if (isHelper(node)) return void (this.ctx.functions ??= new Map()).set(node.id.name, node);
      }
    }
    this.skip(node);
  }

  /** A loop (loop_walk.ts), a `switch` on a value known now, or a number drawn until it differs: handled. */
  #looped(node: Node, name: string | undefined, depth: number): boolean {
    if (walkLoop(this, node, name, depth)) return true;
    const run = caseRun(node, this.ctx); // `switch (i)` in a loop's turn: the case it picks
    return run ? (this.block(run, name, depth), true) : drawnAgain(node, this.ctx);
  }

  /** The checks `walk` makes, kept apart from the step's (loop_walk.ts). */
  collect(walk: () => void): CheckItem[] {
    const [outer, inner] = [this.#sink, [] as CheckItem[]];
    this.#sink = inner;
    walk();
    this.#sink = outer;
    return inner;
  }

  /** Checks added where the walk is. */
  emit(items: CheckItem[]): void {
    this.#sink.push(...items);
  }

  /** `const a = …`, `const { a } = …`, `const [a, b] = …`: what each name holds; an object literal kept by name. */
  declaration(node: Node): void {
    for (const d of node.declarations) {
      if (d.id.type === "ObjectPattern" || d.id.type === "ArrayPattern") {
        const names = destructured(d, this.ctx);
        if (!names) return this.skip(node);
        for (const [n, sym] of names) this.comments.declare(n, node), this.ctx.scope.set(n, sym);
        continue;
      }
      if (d.id.type !== "Identifier") return this.skip(node);
      const sent = wrappedSend(d.init, this.#wrappers);
      // `const res = await send(…)`: the request is sent; what it answers is not known here.
      if (sent && this.#send(node, sent)) this.ctx.scope.set(d.id.name, undefined);
      if (sent) continue;
      this.comments.declare(d.id.name, node);
      keepDeclared(this.ctx, node, d);
      // A made value kept in a local is one value, whichever variables are set from it.
      const value = d.init
        ? evaluate(d.init, this.ctx, 0)
        : { k: "lit" as const, value: undefined };
      this.ctx.scope.set(d.id.name, shareable(d.id.name, value));
    }
  }

  /** An `if`'s test as conditions, or a value known now; undefined when it cannot be said. */
  #test(node: Node) {
    const value = evaluate(node.test, this.ctx, 0);
    return truthy(value) ?? variableCondition(node.test, this.ctx) ?? sendsIfFound(node, value);
  }

  ifStatement(node: Node, name: string | undefined, depth: number): void {
    if (isTestsAssignment(node.test)) return testedIf(this, node, name, depth);
    const test = this.#test(node);
    if (typeof test === "boolean") {
      const branch = test ? node.consequent : node.alternate;
      this.#folded++;
      if (branch) this.statement(branch, name, depth);
      this.#folded--;
      return;
    }
    if (!test || test.length === 0) return this.skip(node);
    const outer = this.#sink;
    const checks: CheckItem[] = [];
    const otherwise: CheckItem[] = [];
    this.#sink = checks;
    // A jump or a loop reads the response only: under a variable's value it stays as written.
    const onResponse = !test.some(onValue);
    this.#when.push(onResponse ? test : undefined);
    this.statement(node.consequent, name, depth);
    this.#sink = otherwise;
    const negated = test.length === 1 ? negate(test[0]) : undefined;
    this.#when[this.#when.length - 1] = negated && onResponse ? [negated] : undefined;
    if (node.alternate) this.statement(node.alternate, name, depth);
    this.#when.pop(), forgetAssigned(node, this.ctx.scope); // which branch ran is known at run time
    this.#sink = outer;
    if (checks.length > 0 || otherwise.length > 0) {
      outer.push({ if: test, checks, else: otherwise });
    }
  }

  expression(node: Node, name: string | undefined, depth: number): void {
    const e = wrappedSend(node.expression, this.#wrappers) ?? node.expression;
    const inline = calledAtOnce(e);
    if (inline) return this.block(inline, name, depth);
    if (e.type === "AssignmentExpression") return this.assignment(node, e);
    if (e.type !== "CallExpression" && e.type !== "MemberExpression") return this.skip(node);
    const callee = e.type === "CallExpression" ? dotted(e.callee) : undefined;
    if (callee === "pm.test") return this.pmTest(node, e, depth);
    const when = [...this.#when, ...testedSoFar(this.#sink, this.#testFrom)];
    const to = { out: this.out, local: this.#local, ...guardOf(when) };
    if (orSet(this, e, to, (x, y) => scopeCall(x, this.ctx, y))) return;
    const scope = scopeCall(e, this.ctx, to);
    if (scope) return scope === "comment" ? this.skip(node) : undefined;
    if (isNextRequest(e)) return this.next(node, e);
    if (!this.#send(node, e)) this.expectation(node, e, name);
  }

  /** A request sent or a header added by `e` (request_effect.ts); false when `e` is neither. */
  #send(node: Node, e: Node): boolean {
    const [when, folded] = [this.#when, this.#folded];
    const effect = scriptSend(e, this.ctx, this.source, this.out, when, folded, this.preRequest);
    if (effect === "comment") this.skip(node);
    return effect !== false;
  }

  /** A schema check inside an `if`: flowrun checks a step's schema unconditionally. */
  #schemaUnderCondition(conds: Cond[]): boolean {
    return this.#when.length > 0 && conds.some((c) => c.op === "schema");
  }

  next(node: Node, e: Node): void {
    const when = this.#when.some((w) => w === undefined) ? undefined : this.#when.flat() as Cond[];
    const next = this.out.next ? undefined : nextRequest(e, this.ctx, when, this.requestName);
    if (next) this.out.next = next;
    else this.lines(node);
  }

  /** `x = …` keeps a value for later statements; `tests[…] = …` is a check; a body write sends it. */
  assignment(node: Node, e: Node): void {
    forgetChanged(e.left, this.ctx);
    if (e.left.type === "Identifier" && e.left.name !== "tests") {
      // A sloppy-mode assignment (`article = …` without `var`) makes a global, as `var` would.
      this.comments.declare(e.left.name, node);
      (this.ctx.kept ??= []).push({ name: e.left.name, node: e, assigned: true });
      const value = assignedValue(e, this.ctx); // `=`, and `+=` as `x = x + …`
      this.ctx.scope.set(e.left.name, shareable(e.left.name, value));
      return;
    }
    if (!this.#send(node, e)) this.testsAssignment(node, e); // or a body written: request_body.ts
  }

  /** A `pm.expect(…)` or `pm.response.to…` chain. */
  expectation(node: Node, e: Node, name: string | undefined): void {
    // A failure its try's catch swallows fails nothing, in Newman as in a flow: no check.
    if (this.#caught > 0) return this.lines(node);
    const checks = expectChecks(e, this.ctx);
    if (checks === null) return this.skip(node);
    if (checks === undefined || this.#schemaUnderCondition(checks)) {
      this.lines(node);
      this.out.untranslatedAssertions++;
      return;
    }
    this.out.translated++;
    for (const cond of checks) this.#sink.push({ cond, ...(name ? { name } : {}) });
  }

  testsAssignment(node: Node, e: Node): void {
    const target = e.left;
    const isTests = e.operator === "=" && target.type === "MemberExpression" &&
      target.object.type === "Identifier" && target.object.name === "tests";
    const key = isTests
      ? evaluate(
        target.computed
          ? target.property
          : { ...target.property, type: "Literal", value: target.property.name },
        this.ctx,
        0,
      )
      : undefined;
    if (!isTests || key?.k !== "lit") return this.skip(node);
    const name = String(key.value);
    const conds = truthy(evaluate(e.right, this.ctx, 0));
    if (!Array.isArray(conds) || conds.length === 0 || this.#schemaUnderCondition(conds)) {
      this.lines(node);
      this.out.untranslatedAssertions++;
      return;
    }
    this.ctx.tests.set(name, conds);
    this.out.translated++;
    for (const cond of conds) this.#sink.push({ cond, name });
  }

  pmTest(node: Node, e: Node, depth: number): void {
    // A pm.test catches its own function's failure: a try around it swallows none.
    const caught = this.#caught;
    this.#caught = 0;
    this.#pmTest(node, e, depth);
    this.#caught = caught;
  }

  #pmTest(node: Node, e: Node, depth: number): void {
    const [title, fn] = e.arguments;
    const label = title ? titleText(evaluate(title, this.ctx, 0)) : undefined;
    const name = label === undefined ? undefined : { k: "lit" as const, value: label };
    const isFn = fn && (fn.type === "FunctionExpression" || fn.type === "ArrowFunctionExpression");
    if (name?.k !== "lit" || !isFn) return this.skip(node);
    const { body } = fn;
    const [sunk, lines] = [this.#sink.length, this.out.untranslated.length];
    const counted = () => this.out.translated + this.out.untranslatedAssertions;
    const count = counted();
    const from = this.#testFrom;
    this.#testFrom = sunk;
    this.#testBody(testStatements(body, this.source), String(name.value), depth);
    this.#testFrom = from;
    if (counted() > count) return;
    if (this.#sink.length > sunk) this.out.translated++;
    // No assertion call, and lines left as written: still a test Newman runs, not translated.
    else if (this.out.untranslated.length > lines) this.out.untranslatedAssertions++;
  }

  /** A `pm.test` function's statements; what it returns and what it parses decide it when nothing else does. */
  #testBody(statements: Node[], test: string, depth: number): void {
    const state = () => [this.#sink.length, this.out.untranslated.length, this.out.sides?.length];
    const [before, [run, value]] = [state().join(), splitReturn(statements)];
    this.block(run, test, depth);
    const own = state().join() === before;
    // Postman ignores a returned value: the test fails only when working it out throws.
    const thrown = value && own ? returnedChecks(value.argument, this.ctx) : undefined;
    if (value && !thrown) this.skip(value);
    for (const cond of thrown ?? []) this.#sink.push({ cond, name: test });
    // No check of its own: Newman passes it when the body does not throw, as parsing it may.
    const parsed = own && !thrown?.length ? parsedAnswer(statements) : undefined;
    if (parsed) this.#sink.push({ cond: parsed, name: test });
  }
}

/**
 * The translation of one script. `variable` gives a Postman variable's
 * meaning where the script reads it (`pm.environment.get("x")`); the request `r`'s raw body is
 * what `pm.request.body.raw` reads, its headers what `pm.request.headers.get` reads.
 *
 * @example
 * ```ts
 * import { translateScript } from "./translate.ts";
 * const t = translateScript(
 *   "var data = JSON.parse(responseBody);\n" +
 *     "tests['has token'] = data.hasOwnProperty('token');\n" +
 *     "postman.setEnvironmentVariable('token', data.token);\nfoo();",
 *   () => ({ k: "lit", value: undefined }),
 * );
 * if (t.translated !== 1 || t.captures[0].path !== "$.json.token" || t.untranslated[0] !== "foo();") {
 *   throw new Error(JSON.stringify(t));
 * }
 * ```
 */
export function translateScript(
  source: string,
  variable: VariableReader,
  requestName = "",
  preRequest = false,
  r?: { body?: { raw?: string }; headers?: EvalContext["requestHeaders"] },
): Translation {
  const t = new Translator(source, variable);
  Object.assign(t, { requestName, preRequest });
  Object.assign(t.ctx, { requestName, requestBody: r?.body?.raw, requestHeaders: r?.headers });
  t.ctx.ownBody = bodyObject(r?.body?.raw);
  const parsed = parseScript(source);
  if (!parsed.ok) {
    t.out.untranslated.push(`(not translated: ${parsed.why})`);
    t.lines({ type: "Program", start: 0, end: source.length });
    t.out.untranslatedAssertions = countAssertions(source);
    return t.out;
  }
  try {
    t.block(renameRequired(parsed.program).body, undefined, 0);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return translateScriptFailed(source, "it is nested too deeply");
  }
  return t.out;
}
