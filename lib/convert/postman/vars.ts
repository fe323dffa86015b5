/**
 * Where each Postman variable comes from in the flow: a flow var with the
 * collection's (or the environment's) value as its default, or an
 * environment variable (`${ENV.NAME}`) for what is secret or differs per
 * environment (credentials, base URLs), which the summary lists to set.
 * Dynamic variables (`{{$guid}}`, `{{$timestamp}}`) become flowrun's
 * generated values of the shape Postman sends (`dynamic.ts`).
 *
 * @module
 */
import { isSecretName } from "../../secrets/names.ts";
import { envName } from "../names.ts";
import { ownEnvName } from "../shell_env.ts";
import type { PmPair } from "./model.ts";
import { resolveNested } from "./nested_vars.ts";
import { dynamicValue } from "./dynamic.ts";
import { ScopeState } from "./scope_state.ts";
import { rowKinds } from "./script/data_row.ts";
import type { VarScope } from "./scopes.ts";

/** A variable the flow reads from the environment. */
export interface EnvNeed {
  name: string;
  secret: boolean;
  /** What to set it to: the collection's or environment's value (not for secrets), or what it holds. */
  hint: string;
}

const URLISH = /(url|uri|host|base|domain|server|endpoint|origin)$/i;

/**
 * A host (and port, and path) written without a scheme, as Postman users
 * write `{{host}}` = `127.0.0.1:8080`; Postman sends it with `http://`.
 *
 * @example
 * ```ts
 * import { isSchemelessHost } from "./vars.ts";
 * if (!isSchemelessHost("127.0.0.1:8080") || !isSchemelessHost("localhost:3000/api")) throw new Error();
 * if (isSchemelessHost("http://a.test") || isSchemelessHost("s3cr3tT0ken")) throw new Error();
 * ```
 */
export function isSchemelessHost(value: string): boolean {
  return /^(localhost|[\w-]+(\.[\w-]+)+|\[[\da-f:.]+\])(:\d{1,5})?(\/[^\s{}$]*)?$/i.test(value);
}

/**
 * A flow var name for a Postman variable: characters flowrun does not allow become `_`.
 *
 * @example
 * ```ts
 * import { varName } from "./vars.ts";
 * if (varName("collection-var") !== "collection-var" || varName("my var.1") !== "my_var_1") throw new Error();
 * if (varName("1st") !== "_1st") throw new Error();
 * ```
 */
export function varName(name: string): string {
  const out = name.replace(/[^A-Za-z0-9_-]/g, "_");
  return /^[A-Za-z_]/.test(out) ? out : `_${out}`;
}

/**
 * The variables of a collection and environment, and how the flows read them.
 *
 * @example
 * ```ts
 * import { Variables } from "./vars.ts";
 * const v = new Variables([{ key: "page", value: "1" }], [{ key: "baseUrl", value: "https://dev.test" }]);
 * if (v.expression("page", false) !== "${vars.page}" || v.expression("baseUrl", true) !== "${ENV.BASE_URL}") {
 *   throw new Error();
 * }
 * const c = new Variables([{ key: "pw", value: "s3cret" }, { key: "passwordMinLength", value: "8" }], [], [], new Set(["pw"]));
 * if (c.expression("pw", false) !== "${ENV.PW}" || !c.env.get("PW")?.secret) throw new Error();
 * if (c.expression("passwordMinLength", false) !== "${vars.passwordMinLength}") throw new Error();
 * const left = new Variables([{ key: "tok", value: "" }], [], [], new Set(["tok"]));
 * if (left.expression("tok", false) !== "${ENV.TOK:-}") throw new Error(); // sent empty unless set
 * ```
 */
export class Variables {
  readonly values = new Map<string, string>();
  /** Captures a condition may leave at the variable's earlier value (`when` … `otherwise`). */
  readonly kept = new Set<string>();
  readonly env = new Map<string, EnvNeed>();
  /** Names the environment file gives (for the vars file). */
  readonly fromEnvironment = new Set<string>();
  /** Variables neither the collection nor the environment gives a value. */
  readonly unset = new Set<string>();
  /** Postman's generated values flowrun does not send in Postman's shape (`{{$randomDateFuture}}`). */
  readonly randomized = new Set<string>();
  /** Variables a script of the collection sets (`pm.environment.set("x", …)`), by name. */
  readonly scriptSet = new Set<string>();
  /** Variables at a URL's start whose value is a host without a scheme: sent with `http://`. */
  readonly schemeless = new Set<string>();
  /** Which scope holds each variable, for the getters that read one scope only. */
  readonly scopes = new ScopeState((n) => this.isSecret(n));
  readonly #envNames = new Map<string, string>();
  /** Each credential the collection writes out that the flow reads from a variable, and that variable. */
  readonly hidden = new Map<string, string>();
  /** Variables a request sends beside credentials, with those credentials (credentials.ts). */
  companions = new Map<string, Set<string>>();
  /** The data file's columns (`-d`): flow vars each row gives, never environment variables. */
  readonly dataColumns = new Set<string>();
  /** The data file's columns a row gives a value other than text (`123`, `true`). */
  readonly typedColumns = new Set<string>();
  /** Columns holding a row's query as sent (row_query.ts): put in a URL as written. */
  readonly urlColumns = new Set<string>();

  /**
   * Postman's precedence, lowest first: globals, collection (and folders),
   * environment. `credentials` are the variables the collection uses as
   * credentials (credentials.ts): the secrets, with the environment's values
   * of type `secret`.
   */
  constructor(
    collection: PmPair[],
    environment: PmPair[],
    globals: PmPair[] = [],
    readonly credentials: Set<string> = new Set(),
  ) {
    const files = [[globals, "global"], [collection, "collection"], [environment, "environment"]];
    for (const [pairs, scope] of files as [PmPair[], VarScope][]) {
      for (const p of pairs.filter((p) => !p.disabled)) {
        this.values.set(p.key, p.value);
        this.scopes.file(p.key, scope, p.value);
        if (scope === "environment") this.fromEnvironment.add(p.key);
      }
    }
    for (const p of [...globals, ...environment]) if (p.type === "secret") credentials.add(p.key);
    // A value naming another variable is a secret when a variable it names is.
    resolveNested(this.values, (n) => this.isSecret(n));
  }

  /**
   * The columns of the run's data file, Newman's `data` scope, above the environment: each row
   * gives their values, so their defaults are empty (a credential in the file stays there).
   */
  addData(columns: readonly string[], rows: readonly Record<string, unknown>[] = []): void {
    for (const [name, kind] of rowKinds(columns, rows, varName)) {
      this.scopes.rows.set(name, { kind, expr: `\${vars.${varName(name)}}` });
    }
    for (const name of columns) {
      const value = (r: Record<string, unknown>) => r[varName(name)];
      if (rows.some((r) => value(r) != null && typeof value(r) !== "string")) {
        this.typedColumns.add(name);
      }
      this.dataColumns.add(name);
      this.values.set(name, "");
      this.scopes.file(name, "data", "");
    }
  }

  /** Whether `{{name}}` is one of Postman's generated values (`{{$guid}}`, `{{$randomInt}}`). */
  isGenerated(name: string): boolean {
    return dynamicValue(name) !== undefined;
  }

  /** Whether the variable is read from the environment rather than a flow var. */
  isEnv(name: string, atUrlStart: boolean): boolean {
    if (this.dataColumns.has(name)) return false;
    const value = this.values.get(name) ?? "";
    // One only a script gives a value is a flow var, sent as written until then: an environment
    // variable nobody can set beforehand would stop the whole run before anything is sent.
    if (!this.values.has(name) && this.scriptSet.has(name)) return false;
    return this.isSecret(name) || this.isAsked(name) || URLISH.test(name) ||
      /^https?:\/\//i.test(value) || atUrlStart;
  }

  /**
   * The values the files give the variables that are secrets, to mask wherever the converter
   * quotes a script's lines.
   *
   * @example
   * ```ts
   * import { Variables } from "./vars.ts";
   * const v = new Variables([{ key: "password", value: "Pa55word!" }], []);
   * v.credentials.add("password");
   * if (v.secretValues().join() !== "Pa55word!") throw new Error();
   * ```
   */
  secretValues(): string[] {
    return [...this.values].filter(([n, v]) => v !== "" && this.isSecret(n)).map(([, v]) => v);
  }

  /**
   * Whether the variable is a secret, never written to a file: by where the
   * collection uses it (a credential), never by its name or its value's
   * shape. Only one neither a file nor a script gives a value, which the user
   * supplies, is asked for as a secret when its name says credential
   * (`{{password}}`).
   */
  isSecret(name: string): boolean {
    if (this.dataColumns.has(name)) return false;
    // A secret the file leaves empty that a script sets (a login's token): no value to keep out.
    if (this.credentials.has(name)) return !!this.values.get(name) || !this.scriptSet.has(name);
    return !this.values.get(name) && !this.scriptSet.has(name) && isSecretName(name);
  }

  /**
   * Whether the user fills `name` with a credential: the files leave it empty, no script sets it,
   * and a request sends it beside a secret left empty so too (a login's user name beside its
   * password). It is asked for with the secret, and sent empty when not given, as Newman does.
   *
   * @example
   * ```ts
   * import { Variables } from "./vars.ts";
   * const v = new Variables([], [{ key: "user", value: "" }, { key: "pw", value: "" }], [], new Set(["pw"]));
   * v.companions.set("user", new Set(["pw"]));
   * if (!v.isAsked("user") || v.expression("user", false) !== "${ENV.USER_VALUE:-}") throw new Error();
   * ```
   */
  isAsked(name: string): boolean {
    const left = (n: string) =>
      this.values.get(n) === "" && !this.scriptSet.has(n) && !this.dataColumns.has(n);
    const of = this.companions.get(name);
    return !!of && left(name) && [...of].some((c) => left(c) && this.isSecret(c));
  }

  /**
   * Whether `text` is empty when sent: its `{{x}}` all variables a file defines as empty and no
   * script sets, so Newman sends it empty (and leaves out a bearer header with no token).
   *
   * @example
   * ```ts
   * import { Variables } from "./vars.ts";
   * const v = new Variables([{ key: "t", value: "" }, { key: "u", value: "x" }], []);
   * if (!v.sentEmpty("") || !v.sentEmpty("{{t}}") || v.sentEmpty("{{u}}") || v.sentEmpty("{{none}}")) throw new Error();
   * ```
   */
  sentEmpty(text: string): boolean {
    return text.replace(
      /\{\{\s*([^{}]+?)\s*\}\}/g,
      (whole, name: string) =>
        this.values.get(name) === "" && !this.scriptSet.has(name) && !this.dataColumns.has(name)
          ? ""
          : whole,
    ) === "";
  }

  /**
   * Whether a flow expression (a token as the step sends it) may render empty when run as
   * printed: its only parts are an environment variable with an empty fallback (a credential
   * left empty, `${ENV.API_TOKEN:-}`) and flow vars whose default is empty (one a script sets
   * only later reads its collection value, empty, until then).
   *
   * @example
   * ```ts
   * import { Variables } from "./vars.ts";
   * const v = new Variables([{ key: "t", value: "" }, { key: "u", value: "x" }], []);
   * if (!v.mayBeEmpty("${ENV.API_TOKEN:-}") || !v.mayBeEmpty("${vars.t}")) throw new Error();
   * if (v.mayBeEmpty("${vars.u}") || v.mayBeEmpty("${ENV.API_TOKEN}") || v.mayBeEmpty("abc")) throw new Error();
   * if (v.mayBeEmpty("${steps.login.capture.token}")) throw new Error();
   * ```
   */
  mayBeEmpty(expression: string): boolean {
    const emptyVars = new Set(
      [...this.values].filter(([, value]) => value === "").map(([name]) => varName(name)),
    );
    return expression.replace(
      /\$\{ENV\.[A-Za-z_][A-Za-z0-9_]*:-\}|\$\{vars\.([A-Za-z0-9_-]+)\}/g,
      (whole, flowVar?: string) => flowVar === undefined || emptyVars.has(flowVar) ? "" : whole,
    ) === "";
  }

  /**
   * The variable whose value is a host Postman sends with `http://` that a
   * URL's flow text starts with (`${ENV.HOST:-…}/…`, `${vars.host}/…`), as
   * written or through a value a script joined (`host + "/items/" + id`).
   *
   * @example
   * ```ts
   * import { Variables } from "./vars.ts";
   * const v = new Variables([{ key: "host", value: "127.0.0.1:8080" }, { key: "page", value: "2" }], []);
   * const url = `${v.expression("host", true)}/items`;
   * if (v.schemelessAt(url) !== "host" || v.schemelessAt("${vars.page}/x") !== undefined) throw new Error(url);
   * ```
   */
  schemelessAt(url: string): string | undefined {
    const env = url.match(/^\$\{ENV\.([A-Za-z_][A-Za-z0-9_]*)/)?.[1];
    const flowVar = url.match(/^\$\{vars\.([A-Za-z0-9_-]+)\}/)?.[1];
    if (env === undefined && flowVar === undefined) return undefined;
    for (const [name, value] of this.values) {
      if (!isSchemelessHost(value)) continue;
      if (env !== undefined && this.#envNames.get(name) === env) return name;
      if (flowVar !== undefined && varName(name) === flowVar) return name;
    }
    return undefined;
  }

  /** How a variable no value is given for was first written (`{{ x | upcase }}`): Postman sends that. */
  readonly written = new Map<string, string>();

  /**
   * The expression for `{{name}}` when no step of the flow set it; `written`
   * is the placeholder as the request writes it.
   */
  expression(name: string, atUrlStart: boolean, written?: string): string {
    const dynamic = dynamicValue(name);
    if (dynamic) {
      if (!dynamic.shaped) this.randomized.add(name);
      return dynamic.text;
    }
    if (!this.isEnv(name, atUrlStart)) {
      // An environment variable is in "Set before running"; a flow var without a value is named apart.
      if (!this.values.has(name)) {
        this.unset.add(name);
        if (written !== undefined && !this.written.has(name)) this.written.set(name, written);
      }
      return `\${vars.${varName(name)}}`;
    }
    const fallback = this.fallback(name);
    return `\${ENV.${this.envVar(name)}${fallback === undefined ? "" : `:-${fallback}`}}`;
  }

  /**
   * A URL (or a host without a scheme) the collection itself gives (not the
   * environment, whose values go to the env file; never a secret) is the fallback, so the suite runs as
   * the collection did until the variable is set.
   */
  fallback(name: string): string | undefined {
    const value = this.values.get(name);
    // A secret a file defines as empty (a key left for the user to fill) may be set, and is sent
    // empty when it is not, as Newman sends it: the run as printed never refuses to start.
    if (value === "" && (this.isSecret(name) || this.isAsked(name))) return "";
    if (value === undefined || this.fromEnvironment.has(name) || this.isSecret(name)) {
      return undefined;
    }
    return /^https?:\/\/[^\s{}$]+$/i.test(value) || isSchemelessHost(value) ? value : undefined;
  }

  /**
   * Whether a flow reads the variable from the process environment (`${ENV.NAME}`).
   *
   * @example
   * ```ts
   * import { Variables } from "./vars.ts";
   * const v = new Variables([], [{ key: "scheme", value: "http" }]);
   * if (v.readsEnv("scheme")) throw new Error();
   * v.expression("scheme", true);
   * if (!v.readsEnv("scheme")) throw new Error();
   * ```
   */
  readsEnv(name: string): boolean {
    return this.#envNames.has(name);
  }

  /** The environment variable for a Postman variable, recorded for the summary. */
  envVar(name: string): string {
    const known = this.#envNames.get(name);
    if (known) return known;
    const env = ownEnvName(envName(name) || "VALUE");
    this.#envNames.set(name, env);
    const secret = this.isSecret(name);
    const value = this.values.get(name);
    const hint = value === undefined
      ? `{{${name}}}`
      : value === ""
      ? `{{${name}}}${secret || this.isAsked(name) ? ", empty unless set" : ""}`
      : secret
      ? `{{${name}}}, a secret`
      : this.fallback(name) !== undefined
      ? `${value} unless set`
      : value;
    this.env.set(env, { name: env, secret, hint });
    return env;
  }

  /**
   * An environment variable for a value written in the collection itself
   * (an auth credential), the value not kept: wherever else the collection
   * writes `value`, the flow reads the variable too (`hidden`).
   */
  secretEnv(base: string, hint: string, value?: string): string {
    // One variable per value: two credentials written differently are two (`COOKIE`, `COOKIE_2`).
    const held = (env: string) => [...this.hidden].find(([, e]) => e === env)?.[0];
    const other = (env: string) =>
      this.env.get(env)!.hint !== hint || (!!value && (held(env) ?? value) !== value);
    let env = ownEnvName(base);
    for (let n = 2; this.env.has(env) && other(env); n++) env = `${ownEnvName(base)}_${n}`;
    this.env.set(env, { name: env, secret: true, hint });
    if (value && !this.hidden.has(value)) this.hidden.set(value, env);
    return env;
  }

  /** {@linkcode secretEnv} for a credential written into a secret header, after its scheme. */
  headerSecret(key: string, scheme: string, value: string): string {
    const hint = `the ${
      scheme ? `${scheme} ` : ""
    }${key} header written in the collection, a secret`;
    return this.secretEnv(envName(key), hint, value);
  }

  /**
   * The default of a flow var: its value, or, when none is given, the
   * placeholder as written, which Postman sends as it is (text of another
   * template language, a variable read before a script sets it).
   */
  defaultOf(name: string): string {
    return this.values.get(name) ?? this.written.get(name) ?? `{{${name}}}`;
  }
}
