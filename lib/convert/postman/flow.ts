/**
 * One flow of a converted collection: its requests become steps in
 * collection order, named from the request names; pre-request scripts set
 * values before a request is written, test scripts give its checks and
 * captures, and a later `{{x}}` reads the capture of the step that set it.
 *
 * @module
 */
import { snake, UniqueNames } from "../names.ts";
import { commented, ymap, ymapOf, type YNode } from "../yaml_out.ts";
import { authFields } from "./auth.ts";
import { bodyFields, type BodyOut, bodyValues } from "./body.ts";
import { sentBody } from "./json_comments.ts";
import type { PmRequest } from "./model.ts";
import { assertOf, headersOf, omitEmptyAuth, sentFields, splitSchema } from "./step_parts.ts";
import { stepOptions, unsendable } from "./step_parts.ts";
import type { Sym } from "./script/sym.ts";
import { translateScript, type Translation } from "./script/translate.ts";
import { STEP } from "./script/set_value.ts";
import { SharedMade } from "./shared_made.ts";
import { MadeApart } from "./made_apart.ts";
import { ClockMade } from "./clock_inline.ts";
import { jumpSkips } from "./jump_skip.ts";
import { flowControl, NEXT_STATUS } from "./jump.ts";
import { datasetLoop, eachEnd, eachStart, iterationBound } from "./dataset.ts";
import type { SideRequest } from "./script/side_request.ts";
import { sentGuard } from "./script/response_send.ts";
import { keeping, sendKept } from "./kept_request.ts";
import { SentOnce } from "./sent_once.ts";
import { stepUrl } from "./step_url.ts";
import { withQuery } from "./script/request_query.ts";
import { capturesOf, keptValue, neededCaptures } from "./step_captures.ts";
import { asWritten, notLookedUp } from "./nested_vars.ts";
import { requestReport } from "./request_report.ts";
import { helperChecks } from "./helper_checks.ts";
import { noteRewrites } from "./request_rewrite.ts";
import { keepNotes, type RequestReport, type Shared } from "./flow_state.ts";
import { varName } from "./vars.ts";
import { closeChain, noteRead, openPartlySets } from "./partly_set.ts";
import { madeRow, noteCapture, scriptReader, textOf, texts, writeOf } from "./scope_state.ts";
import type { VarScope } from "./scopes.ts";
export type { Broken, RequestReport, Shared } from "./flow_state.ts";

/**
 * Builds one flow's steps.
 *
 * @example
 * ```ts
 * import { FlowBuilder } from "./flow.ts";
 * import { Variables } from "./vars.ts";
 * const shared = { vars: new Variables([], []), literals: new Map(), capturedBy: new Map(), origins: new Map(),
 *   files: new Set<string>(), notSent: [], unsendable: [], tokens: new Set<string>(), seen: new Set<string>(), broken: [], brokenOpen: new Map() };
 * const b = new FlowBuilder(0, shared);
 * b.add({ name: "Login", folders: [], method: "POST", url: "{{base}}/login", headers: [],
 *   scripts: [{ listen: "test", owner: "Login", source: "pm.environment.set('t', pm.response.json().token);" }] });
 * if (b.steps.length !== 1 || b.resolve("t") !== "${steps.login.capture.t}") throw new Error();
 * ```
 */
export class FlowBuilder {
  readonly steps: YNode[] = [];
  readonly reports: RequestReport[] = [];
  readonly notes: string[] = [];
  /** Postman variables read as flow vars. */
  readonly flowVars = new Set<string>();
  /** Indexes of earlier flows whose captures this flow reads. */
  readonly readsFrom = new Set<number>();

  readonly #names = new UniqueNames();
  readonly #bindings = new Map<string, string>();
  /** Variables a script sets to a value made at run time: flow vars, by their flow expression. */
  readonly #made = new Map<string, string>();
  readonly sharing = new SharedMade(); // made values two variables share (shared_made.ts)
  readonly #apart = new MadeApart(); // made values read before they were made (made_apart.ts)
  readonly clocks = new ClockMade(); // made times, by the steps that made them (clock_inline.ts)
  /** Comments for the next step: requests left out before it. */
  readonly #pending: string[] = [];
  /** The condition the next step runs under: a jump on a status was not taken. */
  #guard: YNode | undefined;
  /** Collection and folder scripts whose untranslated lines a step already shows. */
  readonly #commented = new Set<string>();
  /** A login sent once (sent_once.ts) and what it set. */
  readonly #once = new SentOnce();
  /** What the callbacks of the requests a script sends send in turn, while those are added. */
  #later: (() => void)[] | undefined;
  /** The request being converted, by folder path. */
  #where = "";

  constructor(readonly index: number, readonly shared: Shared) {}

  /** The expression for `{{name}}` here; `written` is the placeholder as the request writes it. */
  resolve(name: string, atUrlStart = false, written?: string): string {
    const bound = notLookedUp(name, written) ?? this.#bindings.get(name);
    noteRead(this.shared, name, this.#where, bound !== undefined);
    if (bound !== undefined) return bound;
    if (this.#made.has(name)) {
      this.flowVars.add(name);
      return `\${vars.${this.#apart.varOf(name)}}`;
    }
    const literal = this.shared.literals.get(name);
    if (literal !== undefined) return literal.replaceAll("${", () => "$${");
    // A value an earlier flow captured or made is the one Newman still holds: one flow with it.
    for (const by of [this.shared.capturedBy.get(name), this.shared.madeBy?.get(name)]) {
      if (by !== undefined && by !== this.index) this.readsFrom.add(by);
    }
    const expr = this.shared.vars.expression(name, atUrlStart, written);
    if (expr.startsWith("${vars.")) this.#apart.readPlain(name, this.flowVars);
    return expr;
  }

  /** A variable as a script's getter of `scope` reads it (none: by precedence); unknown: `undefined`. */
  variable(name: string, scope?: VarScope): Sym | undefined {
    if (name.startsWith("$")) return { k: "gen", text: this.shared.vars.expression(name, false) };
    // A set not translated may have been of any scope: its chain is named broken, as before.
    const broken = this.shared.brokenOpen.has(name);
    const scoped = broken ? null : this.shared.vars.scopes.read(name, scope, this.index);
    if (scoped !== null) return scoped;
    // An unset variable (sent as written) reads `undefined`, as Postman's `get` does.
    const unset = this.#bindings.get(name) === asWritten(`{{${name}}}`);
    if (unset) return { k: "lit", value: undefined };
    const literal = this.shared.literals.get(name);
    if (!this.#bindings.has(name) && literal !== undefined) return { k: "lit", value: literal };
    const known = this.#bindings.has(name) || this.#made.has(name) ||
      this.shared.vars.values.has(name) || this.shared.capturedBy.has(name) ||
      !!this.shared.madeBy?.has(name) || this.shared.vars.isEnv(name, false);
    if (!known) return broken ? undefined : { k: "lit", value: undefined }; // broken: a script set it
    const expr = this.resolve(name);
    return { k: "var", name, expr, ...madeRow(this.#made.get(name)), ...texts(this.shared, expr) };
  }

  add(item: PmRequest): void {
    // A request its scripts send once per element of a list: a `foreach`, the element bound.
    const each = datasetLoop(item);
    const r = each?.request ?? item;
    const where = [...r.folders, r.name].join(" › ");
    this.#where = where;
    if (this.skipped(r, where)) return;
    const why = unsendable(r);
    if (why) {
      this.shared.unsendable.push(`${where} (${why})`);
      this.#pending.push(`not converted: ${where} (${why})`);
      return;
    }
    const comments = [...this.#pending.splice(0), where];
    const guard = this.#guard;
    const { request: sent, sides } = this.preRequest(r, comments, where);
    // What a pre-request script's pm.sendRequest asks Postman sends first, then the request.
    this.#inTurn(sides.map((s) => () => this.#once.send(s, this.#bindings, this.#sender(r, s))));
    this.#where = where;
    const name = this.#names.take(snake(r.name) || r.method.toLowerCase());
    const as = eachStart(each, (s, w) => this.set(s, w), where);
    const { request, auth, omitEmpty } = this.request(sent, comments);
    noteRewrites(r.scripts, where, this.shared, comments, sent.body !== r.body, sent.url !== r.url);
    const tests = r.scripts.filter((s) => s.listen === "test")
      .map((s) => this.translate(s.source, comments, `test script of ${s.owner}`, r));
    for (const t of tests) t.captures = neededCaptures(t.captures, this.shared.read, comments);
    const { checks, schema, extra } = splitSchema(tests.flatMap((t) => t.checks));
    if (extra > 0) {
      comments.push(
        `untranslated: ${extra} more JSON schema checks (flowrun checks one schema per step)`,
      );
    }
    const captures = capturesOf(tests, (n) => keptValue(this.variable(n)), name);
    const loop = flowControl(this.shared, this.index, { tests, where, step: name }, comments);
    if (this.shared.skipTo?.unless && this.shared.skipTo.from === where) {
      captures.set(NEXT_STATUS, "$.status");
    }
    const step = ymap([
      ["name", name],
      ["if", sentGuard(guard, r.sentIf, (n) => this.resolve(n))],
      ["auth", auth],
      ["request", request],
      ["capture", captures.size > 0 ? ymap([...captures]) : undefined],
      // Newman follows redirects; the flow does too (its options), unless Postman was told not to.
      ["options", stepOptions(r.followRedirects === false, omitEmpty)],
      ["loop", loop],
      ["foreach", each?.values.map((v) => v.replaceAll("${", "$${"))],
      ["as", as],
      ["max_iterations", iterationBound(each)],
      ["assert", assertOf(checks, schema)],
      // Newman sends every request whatever failed before it (its `--bail` is the flow's default),
      // and every element of a foreach, whose failed iteration would stop the rest unless `always`.
      ["always", this.steps.length > 0 || each ? true : undefined],
    ]);
    this.steps.push(commented(comments, step));
    this.reports.push(requestReport(where, name, tests, extra, helperChecks(r.scripts), r.scripts));
    this.bind(tests, name, where);
    this.#afterwards(r, tests.flatMap((t) => t.sides ?? []));
    eachEnd(each, (s, w) => this.set(s, w), where);
  }

  /**
   * Sends a script's requests, then what their callbacks send, level by level: Newman sends
   * each `pm.sendRequest` as the script runs and a callback's own when its answer comes.
   */
  #inTurn(sends: (() => void)[]): void {
    for (let level = sends; level.length > 0;) {
      const outer = this.#later;
      this.#later = [];
      for (const send of level) send();
      [level, this.#later] = [this.#later, outer];
    }
  }
  /** Adds the step of a request `r`'s script sends. */
  #sender(r: PmRequest, side: SideRequest): () => void {
    return () => sendKept(r, side, this.shared.kept, (item) => this.add(item), this.#pending);
  }

  /** A test script's requests, each a step just after; in a callback, after its level (`#inTurn`). */
  #afterwards(r: PmRequest, sides: SideRequest[]): void {
    for (const side of sides) {
      const send = this.#sender(r, side);
      this.#later ? this.#later.push(send) : send();
    }
  }

  /** What the pre-request scripts set first; the request as they change it. */
  preRequest(r: PmRequest, comments: string[], where: string) {
    const headers: PmRequest["headers"] = [];
    const [sides, query]: [SideRequest[], string[]] = [[], []];
    let written: { raw: string; stringified?: true } | undefined, url = r.url;
    for (const s of r.scripts.filter((s) => s.listen === "prerequest")) {
      const t = this.translate(s.source, comments, `pre-request script of ${s.owner}`, r);
      if (t.url !== undefined) url = t.url, query.length = 0; // and earlier adds: request_url.ts
      headers.push(...t.headers ?? []), query.push(...t.query ?? []), written = t.body ?? written;
      sides.push(...t.sides ?? []);
      // A set not translated, or of text joined with a response part not yet got, breaks the chain.
      if (t.cleared) this.dropAll(where);
      // What a login sent once set stays: Postman finds it cached and sends no other.
      for (const name of t.dropped) if (!this.#once.keeps(name)) this.drop(name, where);
      for (const set of t.sets) {
        set.kind === "step" ? this.drop(set.name, where) : this.set(set, where);
      }
      for (const c of t.captures) {
        comments.push(`pre-request sets ${c.name} from a response it has not got: not converted`);
      }
    }
    const request = { ...r, url: withQuery(url, query), headers: [...r.headers, ...headers] };
    if (written) request.body = { mode: "raw", language: r.body?.language, ...written };
    return { sides, request };
  }

  /** Later `{{x}}` read what this step's scripts set; `where` is the request, for the summary. */
  bind(tests: Translation[], step: string, where: string): void {
    for (const t of tests) {
      if (t.cleared) this.dropAll(where);
      for (const name of t.dropped) this.drop(name, where);
      for (const c of t.captures) {
        const expr = `\${steps.${step}.capture.${varName(c.name)}}`;
        const value = { k: "var" as const, name: c.name, expr, ...textOf(c) };
        if (this.shared.vars.scopes.write({ ...c, value }, this.index) !== "flat") continue;
        closeChain(this.shared, c.name);
        this.#bindings.set(c.name, expr);
        noteCapture(this.shared, c, expr);
        this.shared.capturedBy.set(c.name, this.index);
        this.shared.madeBy?.delete(c.name);
        this.shared.literals.delete(c.name);
        this.sharing.forget(c.name, this.#made);
      }
      for (const s of t.sets) {
        this.set(
          s.kind === "step" ? { ...s, value: s.value.replaceAll(STEP, step), kind: "expr" } : s,
          where,
        );
      }
      openPartlySets(this.shared, t, where);
    }
  }

  /**
   * A variable a script sets in a way not translated: later reads do not
   * get an older value (Postman's is the new one), and the summary names them.
   */
  drop(name: string, where: string): void {
    closeChain(this.shared, name);
    this.#bindings.delete(name);
    this.sharing.forget(name, this.#made);
    this.shared.literals.delete(name);
    this.shared.capturedBy.delete(name);
    this.shared.madeBy?.delete(name);
    const broken = { name, by: where, readers: [], line: this.shared.droppedLines?.get(name) };
    this.shared.broken.push(broken);
    this.shared.brokenOpen.set(name, broken);
  }

  /** A scope emptied: every variable a script set before is named where later read. */
  dropAll(where: string): void {
    const names = [...this.#bindings.keys(), ...this.shared.literals.keys(), ...this.#made.keys()];
    for (const n of new Set([...names, ...this.shared.capturedBy.keys()])) this.drop(n, where);
  }

  /** A set (it ends a broken chain) as `{{x}}` reads it; an unset: sent as written (scope_state.ts). */
  set(set: Translation["sets"][number], where: string): void {
    const scoped = this.shared.vars.scopes.write(writeOf(set), this.index);
    if (scoped === "drop") {
      // Newman reads the scope under it again: its value when known here, else the chain breaks.
      const back = this.shared.vars.scopes.uncovered(set.name, this.index);
      return back ? this.set(back, where) : this.drop(set.name, where);
    }
    if (scoped !== "flat") return;
    closeChain(this.shared, set.name);
    this.#bindings.delete(set.name);
    this.sharing.forget(set.name, this.#made);
    this.shared.literals.delete(set.name);
    this.shared.madeBy?.delete(set.name);
    if (set.kind === "unset") this.#bindings.set(set.name, asWritten(set.value));
    else if (set.kind === "text") this.shared.literals.set(set.name, set.value);
    else if (set.kind === "expr") this.#bindings.set(set.name, set.value);
    else {
      this.#made.set(set.name, this.sharing.set(set, this.#made, this.shared.vars.values));
      this.shared.madeBy?.set(set.name, this.index);
      this.#apart.made(set.name, [...this.flowVars, ...this.shared.vars.values.keys()]);
    }
    this.clocks.made(set.name, this.#made.get(set.name), this.steps.length);
  }

  /** A flow var's default: the value a script makes, else the collection's or environment's. */
  defaultOf(name: string): string {
    if (this.#apart.own(name) !== undefined) return this.shared.vars.defaultOf(name);
    return this.sharing.out(name) ?? this.#made.get(name) ?? this.shared.vars.defaultOf(name);
  }

  /** Whether a var's default is flow text a script made, not a variable's value. */
  isMade(name: string): boolean {
    return this.#made.has(name) && this.#apart.own(name) === undefined;
  }

  /** The vars made values are kept in apart from their variables' own (read before the script). */
  madeApart(): [string, string][] {
    return [...this.flowVars].filter((n) => this.#made.has(n) && this.#apart.own(n))
      .map((n) => [this.#apart.own(n)!, this.sharing.out(n) ?? this.#made.get(n)!]);
  }

  /** Whether a `setNextRequest` earlier in the run means Newman does not send `r` (jump_skip.ts). */
  skipped(r: PmRequest, where: string): boolean {
    const { skip, guard } = jumpSkips(this.shared, this.index, r, where, this.#pending);
    this.#guard = guard;
    return skip;
  }

  translate(source: string, comments: string[], where: string, r: PmRequest): Translation {
    const inherited = !where.endsWith(` of ${r.name}`);
    const read = scriptReader((n, s) => this.variable(n, s), this.shared.vars.scopes, this.#given);
    const kept = keeping(source, r, this.shared.kept); // `set("x", pm.request)`: kept_request.ts
    const t = translateScript(kept, read, r.name, where.startsWith("pre-"), r);
    keepNotes(this.shared, t, r.name);
    if (t.untranslated.length > 0 && inherited && this.#commented.has(`${where}\n${source}`)) {
      comments.push(`untranslated: the ${where}, as shown at the first step it runs for`);
    } else if (t.untranslated.length > 0) {
      if (inherited) this.#commented.add(`${where}\n${source}`);
      comments.push(`untranslated, from the ${where}:`);
      comments.push(...t.untranslated.map((l) => `  ${this.shared.mask?.(l) ?? l}`));
    }
    return t;
  }

  /** The value the files give `n`, when no step before set it or made it. */
  #given = (n: string) =>
    this.#bindings.has(n) || this.#made.has(n) || this.shared.capturedBy.has(n)
      ? undefined
      : this.shared.vars.values.get(n);

  url(raw: string): string {
    return stepUrl(raw, this.shared, this.#given, (n, atStart, w) => this.resolve(n, atStart, w));
  }

  /** The step's request, and its `auth:` block when the flow format has the kind. */
  request(
    r: PmRequest,
    comments: string[],
  ): { request: YNode; auth?: YNode; omitEmpty?: boolean } {
    const resolve = (n: string, w?: string) => this.resolve(n, false, w);
    const empty: BodyOut = { fields: [], files: [], notes: [] };
    const [known, typed] = bodyValues(this.#made, this.shared.vars);
    const body = r.body ? bodyFields(sentBody(r)!, resolve, known, typed) : empty;
    const auth = r.auth
      ? authFields(r.auth, resolve, this.shared.vars, r.authFrom ?? "collection")
      : { headers: [], query: [], notes: [] };
    if (r.auth?.type === "oauth2" && auth.block) this.shared.tokens.add(JSON.stringify(auth.block));
    const headers = headersOf(
      r,
      resolve,
      auth.headers,
      body.contentType,
      comments,
      (key, scheme, value) => this.shared.vars.headerSecret(key, scheme, value),
    );
    const omitEmpty = omitEmptyAuth(auth.omitEmpty, headers, (v) => this.shared.vars.mayBeEmpty(v));
    const fields = sentFields(r.method, body.fields, comments);
    for (const note of [...body.notes, ...auth.notes]) comments.push(`note: ${note}`);
    for (const f of body.files) this.shared.files.add(f);
    const request = ymap([
      ["method", r.method],
      ["url", this.url(r.url)],
      ["query", ymapOf(auth.query)],
      ["headers", headers.size > 0 ? ymap([...headers]) : undefined],
      ...fields,
    ]);
    return { request, auth: auth.block, omitEmpty };
  }
}
