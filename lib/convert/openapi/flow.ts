/**
 * One flow of a converted document: a step per operation (in `stepOrder`), its URL under
 * `${ENV.BASE_URL}` and the base path, required parameters with values (optional ones named in a
 * comment), credentials (an `auth:` block once for the flow, else per step: `auth_place.ts`), body,
 * `status` and `openapi:` checks. A path parameter whose producer (`producers.ts`) is a step of the
 * flow is its capture (`POST /pets` → `GET /pets/{petId}`), a credential the login's token; one of
 * no source and no example a var to fill in. Every step runs after a failure (`always`): a server
 * often answers other than its document says, which must not hide the rest; one reading a capture
 * runs only when it exists (`if: exists`), skipped, saying so, when its producer failed.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { UniqueNames, varName } from "../names.ts";
import { commented, toYaml, type YMap, ymap, ymapOf, type YNode } from "../yaml_out.ts";
import type { StepAuth } from "./auth.ts";
import { placeAuth } from "./auth_place.ts";
import { clientNaming } from "./client_ids.ts";
import { madeGuard } from "./made_guard.ts";
import { bodyComments, stepBody } from "./body.ts";
import { namedInBody, namingCreate, withBodyNamed, withRpcNamed } from "./body_names.ts";
import { ExampleMaker } from "./examples.ts";
import { itemParam, sends } from "./name_named.ts";
import { runTime } from "./run_time.ts";
import { clientNames, type OpenApiOperation } from "./operations.ts";
import { documentPath } from "./fixed_segment.ts";
import { ownServer, wholeUrlWhat } from "./own_server.ts";
import { credentialParam } from "./param_places.ts";
import { LBRACE_VAR, lbraceVars, literal, paramValue, simpleText, toYNode } from "./params.ts";
import type { SetupSteps } from "./setup_steps.ts";
import type { Shared } from "./shared.ts";
import { captureSource, fillListed, latestHolder, thenAll } from "./producers.ts";
import { accepted, allJson, expected, statusNode } from "./responses.ts";
import { ownNameKeys, ownNames } from "./own_names.ts";
import { asEventStream, stepOptions } from "./stream_answer.ts";
import { fromLogin, sentCookie, type SessionBuilder, withXsrf } from "./flow_session.ts";
import { ownQuery, RUN_VAR_NAMES, runVarsOf } from "./run_values.ts";
import { runPassword } from "./short_password.ts";
import { BODY_FILLS } from "./body_fills.ts";
import { serialOf } from "./serial.ts";
import { sendAnswerJwt } from "./session_token.ts";
import { paramLimit, uuidKey, withinLimit } from "./length_limits.ts";
import { sendsCookie, withBaseOrigin } from "./browser_origin.ts";
import { runValues } from "./login_account.ts";
import { accountParam } from "./identity_param.ts";
import { withVarComments } from "./var_comments.ts";
import { type OwnItem, withOwnItem } from "./second_producer.ts";
import { sendOwnMember, sentMember } from "./own_listed.ts";
import { echoesRequest } from "./echoed_answer.ts";
import { strictListing } from "./skippable_create.ts";
import { orSubject } from "./account_subject.ts";

// The spec says these parameters are ignored: the flow's own settings send them.
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const exists = (value: string) => ymap([["value", value], ["exists", true]]);

/** Builds one flow. */
export class FlowBuilder {
  /** Each step with its comments and auth, made into list items once the flow's auth is placed. */
  readonly #steps: { node: YMap; comments: string[]; auth: StepAuth }[] = [];
  readonly #names = new UniqueNames();
  readonly #vars: [string, YNode, string][] = [];
  readonly #varOf = new Map<string, string>();
  /** The vars of the run's own made-up names (`#ownName`), never a number's placeholder. */
  readonly #made = new Set<string>();
  readonly #varNames = new UniqueNames();
  /** Each operation's step, and each step's node. */
  protected readonly stepOf = new Map<OpenApiOperation, string>();
  readonly #nodeOf = new Map<string, YMap>();
  /** What each step captures: key → source. */
  readonly #captures = new Map<string, Map<string, YNode>>();
  /** The run vars (`RUN_VARS`) the bodies read. */
  protected readonly runVars = new Set<string>();

  constructor(readonly file: string, readonly shared: Shared, readonly setup?: SetupSteps) {
    const reserved = ["RUN_ID", "TRACE_ID", "ENV", "RANDOM", "vars", "steps", LBRACE_VAR];
    for (const name of [...reserved, ...RUN_VAR_NAMES]) this.#varNames.take(name);
  }

  /**
   * Adds the step of one operation (after its own copy of `own`: second_producer.ts); its comments.
   * None for the run's sign-in, which its setup flow sends once (sign_in_once.ts).
   */
  add(op: OpenApiOperation, own?: OwnItem): string[] {
    if (this.setup?.ops.has(op)) return this.stepOf.set(op, this.setup.stepOf(op)) && [];
    return own ? withOwnItem(this.stepOf, own, (o) => this.add(o), op) : this.#add(op);
  }

  #add(op: OpenApiOperation): string[] {
    const { doc } = this.shared;
    const name = this.#names.take(op.name);
    const summary = typeof op.node.summary === "string" ? ` — ${op.node.summary}` : "";
    const comments = [`${op.method} ${documentPath(op)}${summary}`]; // the path a reader searches
    const maker = new ExampleMaker(doc, "request");
    // The captures this step reads: it runs only when they exist.
    const [guards, ifs]: [string[], YNode[]] = [[], []];
    const url = this.#url(op, maker, name, comments, guards);
    const auth = fromLogin(this.#session(), op, guards, ifs);
    const { query, headers, cookies } = this.#params(op, maker, comments, auth.places, guards);
    const creds = auth.credentials;
    comments.push(...creds.comments);
    const bodiless = op.method === "GET" || op.method === "HEAD";
    if (bodiless && op.node.requestBody !== undefined) {
      comments.push(`the document gives ${op.method} a request body: left out, flowrun sends none`);
    }
    const { login, params } = this.shared.inferred;
    const body = stepBody(doc, maker, op, name, login?.register === op);
    // Made per run; a login no sign-up precedes signs in as the user's account (login_account.ts).
    body.fields = runValues(body.fields, this.shared, op, this.runVars, maker.samples);
    body.fields = ownNames(doc, op, body.fields, ownNameKeys(doc, op, params));
    // What a listing finds the run's own item by, when this create answers no id (own_listed.ts).
    body.fields = sendOwnMember(doc, op, body.fields, params, (k, v) => this.#ownName(op, k, k, v));
    // An item it names in its body (`ip` of `/autoprimaries/{ip}`): the run's var, as in its paths.
    body.fields = withBodyNamed(doc, op, body.fields, (p, k) => this.#ownName(op, p, p, k, !!k));
    body.fields = withRpcNamed(doc, op, body.fields, (n) => this.#ownName(op, n, `:${n}`));
    fillListed(doc, op.node, body, guards, thenAll(this.stepOf, params), this.#captured.bind(this));
    const fill = { op, body, guards, ifs, stepOf: this.stepOf, capture: this.capture.bind(this) };
    for (const f of BODY_FILLS) f(this.shared, fill);
    comments.push(...bodyComments(body));
    for (const file of body.files) {
      this.shared.files.push(file);
      this.shared.placeholders.push({ file: file.path, what: file.what });
    }
    const request = ymap([
      ["method", op.method],
      ["url", url],
      ["query", ymapOf([...query, ...creds.query])],
      ["headers", ymapOf([...headers, ...creds.headers, ...body.headers])],
      ["cookies", ymapOf([...cookies, ...creds.cookies, ...this.setup?.cookies(op) ?? []])],
      ...body.fields,
    ]);
    const conditions = [...guards.map(exists), ...ifs, ...this.conditions(op)];
    const step = ymap([
      ["name", name],
      ["request", request],
      ["options", stepOptions(doc, op.node, comments)],
      ["assert", this.assertion(op)],
      ["always", true],
      ["if", conditions.length > 1 ? conditions : conditions[0]],
    ]);
    if (!step.entries.some(([k]) => k === "assert")) {
      comments.push("the document names no 2xx response: the status is not checked");
    }
    this.stepOf.set(op, name);
    this.#nodeOf.set(name, asEventStream(doc, op.node, withXsrf(this.#session(), op, step)));
    this.#steps.push({ node: step, comments, auth });
    return comments;
  }

  /** What the session's blocks read of this builder (flow_session.ts). */
  #session(): SessionBuilder {
    const { shared, stepOf, runVars, setup } = this;
    return { shared, stepOf, runVars, setup, capture: this.capture.bind(this) };
  }

  /** `${steps.<step>.capture.<key>}`, the capture added to that step. */
  protected capture(step: string, key: string, source: YNode): string {
    const fromSetup = this.setup?.capture(step, key, source);
    if (fromSetup) return fromSetup;
    const captures = this.#captures.get(step) ?? new Map<string, YNode>();
    this.#captures.set(step, captures);
    const same = (a: YNode | undefined) => JSON.stringify(a) === JSON.stringify(source);
    let name = key;
    for (let n = 2; captures.has(name) && !same(captures.get(name)); n++) name = `${key}_${n}`;
    captures.set(name, source);
    return `\${steps.${step}.capture.${name}}`;
  }

  /** More conditions of `op`'s step: none (the setup's sign-up has one: sign_in_once.ts). */
  protected conditions = (_op: OpenApiOperation): YNode[] => [];

  /** The step's checks: its documented status and, for JSON, its schema. */
  assertion(op: OpenApiOperation): YNode | undefined {
    const { documentRef, doc } = this.shared;
    const found = expected(doc, op.node);
    if (found.statuses.length === 0) return undefined;
    // A login's answer shown only by what its request sends describes nothing the server makes
    // (echoed_answer.ts): its token is read by name, and the answer is not checked against it.
    const echoed = this.shared.inferred.login?.op === op && echoesRequest(doc, op);
    const openapi = allJson(doc, found.responses) && !echoed ? documentRef : undefined;
    return ymap([["status", statusNode(found)], ["openapi", openapi]]);
  }

  /**
   * The step's URL: under BASE_URL, also for an operation with its own server (an upload host, as
   * Box's and GitHub's: said in a comment); a var to fill in when that server is no URL or the path
   * is none (DigitalOcean's `/<upload_url>`, a presigned URL another answer gives).
   */
  #url(
    op: OpenApiOperation,
    maker: ExampleMaker,
    step: string,
    comments: string[],
    guards: string[],
  ): string {
    const own = ownServer(op.node);
    const pseudo = /[<>]/.test(op.template);
    if (own?.usable !== false && !pseudo) {
      // Under BASE_URL still: a run against staging must not reach the production upload host.
      if (own) comments.push(`the document serves it from ${own.url}: point BASE_URL there`);
      return `\${ENV.BASE_URL}${this.shared.basePath}${this.#path(op, maker, guards)}`;
    }
    const name = this.#varNames.take(`${step}_url`);
    const what = wholeUrlWhat(op, own, pseudo);
    this.#fillIn(name, toYNode(`https://example.invalid${encodeURI(op.template)}`), what);
    return `\${vars.${name}}`;
  }

  /** The path with each parameter: a capture, the document's example, or a placeholder var. */
  #path(op: OpenApiOperation, maker: ExampleMaker, guards: string[]): string {
    // Literal text is sent as written, encoded where a URL must be (a space: %20); a "$" before
    // a parameter as %24, or "$" and "${vars.x}" would join into the escape "$${".
    const parts = op.template.split(/(\{[^}]*\})/);
    const text = (part: string) => encodeURI(part).replace(/\$+$/, (m) => "%24".repeat(m.length));
    return parts.map((part, i) => i % 2 === 0 ? text(part) : part).join("").replace(
      /\{([^}]*)\}/g,
      (_, param: string) => {
        const captured = this.#captured(op, param);
        if (captured) {
          guards.push(captured);
          return captured;
        }
        const own = accountParam(this.shared, op, param, this.runVars);
        if (own) return own;
        const p = op.params.find((x) => x.in === "path" && x.name === param);
        const { value, given } = p
          ? paramValue(this.shared.doc, maker, p, op.node)
          : { value: "string", given: false };
        if (given) return encodeURIComponent(simpleText(value));
        const flowOps = [op, ...this.stepOf.keys()];
        // A name is text: a number or a switch at the item's path is not the run's own name.
        const text = typeof value === "string";
        // The name another collection's create sends in its body (named_collection.ts).
        const sent = this.shared.inferred.params.get(op)?.find((l) =>
          text && l.param === param && l.from === "client"
        );
        const ownName = text && !sent && clientNames(flowOps, op, param);
        const limit = paramLimit(this.shared.doc, p);
        const made = uuidKey(value); // a key its schema formats as a UUID (length_limits.ts)
        if (ownName) return `\${vars.${this.#ownName(op, param, param, made, false, limit)}}`;
        const create = sent?.producer ??
          (text ? namingCreate(this.shared.doc, flowOps, op, param) : undefined);
        const key = sent?.path[0] ?? param;
        const kept = create && namedInBody(this.shared.doc, create).get(key)?.kept;
        if (create) {
          guards.push(...madeGuard(this.stepOf.get(create), (...c) => this.capture(...c)));
        }
        if (create) return `\${vars.${this.#ownName(create, key, key, kept, !!kept)}}`;
        return `\${vars.${this.#placeholder(op, param, value)}}`;
      },
    );
  }

  /** `${steps.<producer>.capture.<param>}` when the producer of the path's (or query's) parameter is a step. */
  #captured(op: OpenApiOperation, param: string, place: unknown = "path"): string | undefined {
    if (place !== (op.template.includes(`{${param}}`) ? "path" : "query")) return undefined;
    const link = this.shared.inferred.params.get(op)?.find((l) => l.param === param);
    const step = link && this.stepOf.get(latestHolder(this.shared.doc, link, this.stepOf.keys()));
    // An item found by what its create sent is never the listing's first instead.
    const made = link?.after && this.#nodeOf.get(this.stepOf.get(link.after)!);
    const sent = link?.match && sentMember(made, link.match);
    if (!link || step === undefined || (link.match && !sent) || link.from === "client") return;
    const key = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(param) ? param : "id";
    const listed = strictListing(link, made, this.#nodeOf.get(step)); // skippable_create.ts
    return this.capture(step, key, orSubject(this.#session(), link, captureSource(listed, sent)));
  }

  /**
   * A var of the run's own value for an item the client names at its create (`appName-…`, within
   * `limit`, a path's `maxLength`: length_limits.ts), made anew each run, the same in every step.
   */
  #ownName(
    op: OpenApiOperation,
    param: string,
    key = param,
    value?: string,
    kept = false,
    limit?: number,
  ): string {
    const known = this.#varOf.get(key);
    if (known) return known;
    const name = this.#varNames.take(varName(param));
    this.#varOf.set(key, name);
    this.#made.add(name);
    const said = kept ? "the document's value" : "the run's own";
    const why = `${said}: the client names what ${op.method} ${op.template} makes`;
    this.#vars.push([name, value ?? withinLimit(name, limit) ?? `${name}-\${RANDOM.HEX_8}`, why]);
    return name;
  }

  #placeholder(op: OpenApiOperation, param: string, value: unknown): string {
    // A number or a switch is never the run's made-up text of the same word (an untyped `{id}` one
    // update names itself, an integer `{id}` another reads): it is a placeholder of its own.
    const made = typeof value !== "string" && this.#made.has(this.#varOf.get(param) ?? "");
    const key = made ? `${param}\0${typeof value}` : param;
    const known = this.#varOf.get(key);
    if (known) return known;
    const name = this.#varNames.take(varName(param));
    this.#varOf.set(key, name);
    const what =
      `path parameter ${param} of ${op.method} ${op.template}: the ${param} of one that exists`;
    this.#fillIn(name, toYNode(typeof value === "object" ? simpleText(value) : value), what);
    return name;
  }

  /** A var the user fills in, listed in the summary's placeholders. */
  #fillIn(name: string, value: YNode, what: string): void {
    this.#vars.push([name, value, `fill in: ${what}`]);
    this.shared.placeholders.push({ file: this.file, what: `vars.${name} (${what})` });
  }

  /** A query value from the flow: the run's name of an id the client names, a capture (waited for), the run's time. */
  #queryLinked(op: OpenApiOperation, p: Node, guards: string[], comments: string[]) {
    const name = String(p.name);
    const naming = p.in === "query" && clientNaming(this.shared.inferred.params, op, name);
    // Keyed by its create too: GET and POST twins of a create each name their own.
    if (naming) return `\${vars.${this.#ownName(naming.producer, naming.param, naming.key)}}`;
    const captured = this.#captured(op, name, p.in);
    if (captured) guards.push(captured);
    return captured ?? runTime(this.shared.doc, op, p, comments);
  }

  /** The parameters sent; none where a scheme of `places` sends its credential (that is its value). */
  #params(
    op: OpenApiOperation,
    maker: ExampleMaker,
    comments: string[],
    places: StepAuth["places"],
    guards: string[],
  ) {
    const query: [string, YNode][] = [];
    const headers: [string, string][] = [];
    const cookies: [string, string][] = [];
    const optional: string[] = [];
    for (const p of op.params) {
      if (p.in === "path") continue;
      const name = String(p.name);
      const placed = credentialParam(p, places, this.shared.auth, comments);
      if (placed) {
        const list = p.in === "query" ? query : p.in === "cookie" ? cookies : headers;
        if (placed.send) list.push(placed.send);
        continue;
      }
      const linked = this.#queryLinked(op, p, guards, comments);
      if (linked) {
        query.push([name, linked]);
        continue;
      }
      if (!sends(this.shared.doc, op, p, comments)) {
        optional.push(`${p.in} ${p.name}`);
        continue;
      }
      const { value } = paramValue(this.shared.doc, maker, itemParam(this.shared.doc, op, p));
      if (p.in === "query") query.push(...ownQuery(p, value, this.runVars, maker.samples));
      else if (p.in === "cookie") cookies.push([name, sentCookie(this.#session(), op, p, value)]);
      else if (p.in !== "header" || RESERVED_HEADERS.has(name.toLowerCase())) continue;
      else if (TOKEN.test(name)) headers.push([name, literal(simpleText(value))]);
      else comments.push(`header "${name}" is no HTTP header name: left out`);
    }
    if (optional.length > 0) comments.push(`optional, left out: ${optional.join(", ")}`);
    this.shared.optional += optional.length;
    return { query, headers: [...headers, ...accepted(this.shared.doc, op.node)], cookies };
  }

  /** The flow's text. */
  text(name: string, header: string[], outputs?: YNode): string {
    const session = sendAnswerJwt(this.shared, this.stepOf, this.#steps, this.capture.bind(this));
    for (const [step, captures] of this.#captures) {
      const node = this.#nodeOf.get(step);
      if (!node) continue;
      const at = node.entries.findIndex(([k]) => k === "assert");
      node.entries.splice(at < 0 ? node.entries.length : at, 0, ["capture", ymap([...captures])]);
    }
    const password = runPassword(this.shared.doc);
    const made = runVarsOf(this.runVars, password).map(([k, v]) => [k, this.setup?.shared(k) ?? v]);
    const note = "made per run (a fresh account each run and flow): never a literal credential";
    this.#vars.unshift(...made.map(([k, v]): [string, YNode, string] => [k, v, note]));
    const placed = placeAuth(this.#steps.map((s) => s.auth));
    const steps = this.#steps.map(({ node, comments, auth: own }, i) => {
      const { auth, notes } = placed.steps[i];
      if (auth !== undefined) node.entries.splice(1, 0, ["auth", auth]);
      if (session || sendsCookie(own)) withBaseOrigin(node); // a cookie's CSRF check: browser_origin.ts
      return commented([...comments, ...notes], node);
    });
    this.#vars.unshift(...lbraceVars([steps, this.#vars]));
    const vars = ymapOf(this.#vars.map(([k, v]) => [k, v] as [string, YNode]));
    const { serial, notes } = serialOf(this.stepOf.keys(), this.shared.inferred);
    const flow = ymap([
      ["name", name],
      ["serial", serial],
      ["vars", vars],
      ["options", session],
      ["auth", placed.flow],
      ["steps", steps],
      ["outputs", outputs],
    ]);
    return withVarComments(toYaml([...header, ...notes], flow), this.#vars, placed.flowNotes);
  }
}
