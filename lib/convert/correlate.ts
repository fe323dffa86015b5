/**
 * The correlating stage of `convert har`: each step's request is written as
 * a template, with the values a recording cannot replay replaced. Tokens,
 * ids and cookies a response produced become captures of that response's
 * step; secrets with no recorded source become required environment
 * variables; values the server expects fresh become generated ones. Steps are
 * built in session order, since a value's source is the first response that
 * held it.
 *
 * @module
 */
import { isSecretHeader, isSecretName } from "../secrets/mod.ts";
import { addAssertions } from "./assertions.ts";
import { encodedJson } from "./encoded.ts";
import { HandedOut } from "./handed.ts";
import { FILE_PLACEHOLDER, multipartBoundary } from "./har_input.ts";
import type { HarRecord } from "./har_model.ts";
import {
  type EnvVar,
  type JsonPath,
  MAX_WALK_DEPTH,
  parseBody,
  type Producer,
  safeDecode,
  type Source,
  type Step,
  TooDeepJson,
  valueKey,
  walk,
} from "./model.ts";
import {
  authStepName,
  captureName,
  envName,
  isAuthPath,
  operationName,
  resourceNoun,
  shortName,
  singular,
  snake,
  stepName,
  UniqueNames,
} from "./names.ts";
import { cleanHeaders, isAnalyticsCookie } from "./noise.ts";
import { locationParams, planOauth } from "./oauth.ts";
import { pageValues } from "./pages.ts";
import { FRESH_HEADER, type Group } from "./polls.ts";
import { Spelling } from "./spelling.ts";
import {
  formSource,
  multipartParts,
  PLACEHOLDER_TEXT,
  placeholderPath,
  sentFileName,
} from "./uploads.ts";
import {
  isCredentialCookie,
  isCursorKey,
  isSecretShaped,
  isUuid,
  looksLikeId,
  looksLikeToken,
  mixRunId,
} from "./values.ts";
import { yflow, type YMap, ymap, type YNode, type YScalar } from "./yaml_out.ts";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

const AUTH = /^([A-Za-z][\w-]*)\s+(\S+)$/;

/** Fields that name a list element, tried first when one must be told apart from the others. */
const NAME_KEY = /^(name|title|slug|key|code|label|handle|username|login|email|sku)$/i;

/** A fresh value shaped like the recorded one: a UUID, or random hex of the same length. */
function freshValue(recorded: string): string {
  if (isUuid(recorded)) return "${RANDOM.UUID}";
  if (/^[0-9a-f]{1,4096}$/i.test(recorded)) return `\${RANDOM.HEX_${recorded.length}}`;
  return "${RANDOM.UUID}";
}

/**
 * A urlencoded body's fields, decoded, repeated names gathered in first-seen
 * order; `undefined` when the text is not a clean encoding (a bare name, a
 * stray `%`), which is then sent as recorded.
 */
function formFields(
  pairs: readonly (readonly (string | undefined)[])[],
): [string, string[]][] | undefined {
  const fields = new Map<string, string[]>();
  for (const [k, v] of pairs) {
    if (k === undefined || v === undefined) return undefined;
    let name: string, value: string;
    try {
      name = decodeURIComponent(k.replaceAll("+", " "));
      value = decodeURIComponent(v.replaceAll("+", " "));
    } catch {
      return undefined;
    }
    fields.set(name, [...(fields.get(name) ?? []), value]);
  }
  return fields.size > 0 ? [...fields] : undefined;
}

/** The state of correlation over one session; its `steps`, `env`, `vars` and `notes` are the result. */
export class Correlator {
  readonly sp: Spelling;
  readonly steps: Step[] = [];
  readonly stepNames = new UniqueNames();
  readonly varNames = new UniqueNames();
  readonly vars: [string, string][] = [];
  readonly origins = new Map<string, string>();
  readonly producers = new Map<string, Producer>();
  /** The token producers alone, searched inside longer strings (`Bearer …`, cookies). */
  readonly tokens: [string, Producer][] = [];
  /** Cookie producers by `name=value`: what the `Cookie` header sends back as it was set. */
  readonly cookieProducers = new Map<string, Producer>();
  readonly responseSeen = new Set<string>();
  readonly sentSeen = new Set<string>();
  readonly generated = new Map<string, string>();
  readonly uuidCounts = new Map<string, number>();
  readonly env = new Map<string, EnvVar>();
  readonly envByValue = new Map<string, string>();
  readonly secrets = new Set<string>();
  readonly loginRecords = new Set<HarRecord>();
  readonly replaced = { tokens: 0, secrets: 0, ids: 0, generated: 0 };
  /** For each body key, the last position in the session where a write sent it. */
  readonly lastWritten = new Map<string, number>();
  /** Each kept record's position in the session. */
  readonly position = new Map<HarRecord, number>();
  /** Cookies recorded responses set, by host: what the browser held. */
  readonly jar = new Map<string, Map<string, string>>();
  /** Requests recorded without their cookies that were given the jar's. */
  jarFilled = 0;
  /** Requests that sent Authorization and cookies no recorded response set. */
  droppedCookies = 0;
  /** Steps that exchange an OAuth authorization code. */
  readonly oauthSteps = new Set<Step>();
  /** Recorded PKCE verifiers and challenges, OAuth states and nonces → the vars sent instead. */
  readonly oauthFresh = new Map<string, string>();
  /** Origins of the kept requests: a URL of one sent as a value follows its base URL. */
  readonly apiOrigins = new Set<string>();
  /** Limits met while converting the steps, for the summary and the flow's header. */
  readonly notes: string[] = [];
  /** ETags and URLs responses handed out, sent back whole. */
  readonly handed = new HandedOut();
  /** `If-Match` values no recorded response handed out, by step. */
  readonly strayIfMatch: string[] = [];
  /** Files uploads send, by path relative to the flow: recorded content or a placeholder. */
  readonly files = new Map<string, string>();
  /** Upload steps and the files they send, for one note. */
  readonly uploads: {
    step: string;
    path: string;
    placeholder: boolean;
    omitted: boolean;
    form?: { page: string; typed: string[] };
  }[] = [];

  /** Whether values are taken from responses; off only for `--no-correlate` (a debugging aid). */
  readonly linking: boolean;

  constructor(spelling: "a" | "b", linking = true) {
    this.sp = new Spelling(spelling);
    this.linking = linking;
  }

  /**
   * The path with each list index that a field of the element tells apart
   * replaced by a filter on that field: a fresh instance lists its items in
   * another order, so `items[2]` would pick another one.
   */
  stablePath(step: Step, path: JsonPath): JsonPath {
    let node: unknown = step.last.json;
    return path.map((segment, i) => {
      const here = node;
      node = (node as Record<string | number, unknown> | null)?.[segment as string | number];
      if (typeof segment !== "number" || !Array.isArray(here) || i === path.length - 1) {
        return segment;
      }
      return this.discriminator(here, node, path[i + 1]) ?? segment;
    });
  }

  /** A short text field of `item` that no other element of `list` shares, ids and secrets aside. */
  discriminator(
    list: unknown[],
    item: unknown,
    next: JsonPath[number],
  ): { key: string; value: string } | undefined {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return undefined;
    // A value the flow itself sends as a template (Widget ${RUN_ID}, a generated id) finds
    // the element it created on every run: the filter holds the same template.
    const fields = Object.entries(item as Record<string, unknown>);
    const preferred = fields.filter(([k]) => NAME_KEY.test(k));
    for (const [key, value] of [...preferred, ...fields]) {
      if (
        key === next || typeof value !== "string" || value === "" || value.length > 100 ||
        looksLikeId(key, value) || isUuid(value) || looksLikeToken(key, value) ||
        this.secrets.has(value) || value.includes("${")
      ) continue;
      const same = list.filter((e) =>
        typeof e === "object" && e !== null && (e as Record<string, unknown>)[key] === value
      );
      if (same.length === 1) return { key, value: this.generated.get(value) ?? value };
    }
    return undefined;
  }

  /** A required environment variable holding `value` (the same value keeps one name). */
  secretEnv(base: string, value: string, about: string): string {
    this.secrets.add(value);
    const known = this.envByValue.get(`${base}\n${value}`);
    if (known) return known;
    let name = base;
    for (let n = 2; this.env.has(name); n++) name = `${base}_${n}`;
    this.env.set(name, { about });
    this.envByValue.set(`${base}\n${value}`, name);
    return name;
  }

  // ---- producers and captures

  useProducer(p: Producer, user: Step): string {
    const source: Source = p.source.kind === "json"
      ? { kind: "json", path: this.stablePath(p.step, p.source.path) }
      : p.source;
    const sourceKey = JSON.stringify(source);
    let name = p.step.captureByPath.get(sourceKey);
    if (!name) {
      const keys = source.kind === "json"
        ? source.path.filter((x): x is string => typeof x === "string")
        : [source.kind === "header" && source.query ? source.query : source.name];
      name = p.step.captureNames.take(captureName(keys, p.step.noun));
      p.step.captureByPath.set(sourceKey, name);
      p.step.captures.push([name, source]);
    }
    user.uses.add(p.step.name);
    if (p.secret) this.replaced.tokens++;
    else this.replaced.ids++;
    return this.sp.capRef(p.step.name, name);
  }

  producerFor(value: unknown): Producer | undefined {
    return this.producers.get(valueKey(value));
  }

  /** Replaces every token a response produced inside longer text; escapes the rest. */
  withTokens(text: string, user: Step): string {
    let out = "";
    let rest = text;
    for (;;) {
      let best: { at: number; value: string; p: Producer } | undefined;
      for (const [value, p] of this.tokens) {
        const at = rest.indexOf(value);
        if (at !== -1 && (!best || at < best.at)) best = { at, value, p };
      }
      if (!best) return out + this.sp.lit(rest);
      out += this.sp.lit(rest.slice(0, best.at)) + this.useProducer(best.p, user);
      rest = rest.slice(best.at + best.value.length);
    }
  }

  // ---- request parts

  /** A string sent in a body, query value or header value under `key`. */
  stringValue(
    key: string,
    value: string,
    step: Step,
    where: { body: boolean; mutating: boolean; login: boolean; credentials: boolean },
  ): string {
    const p = this.producerFor(value);
    if (p) return this.useProducer(p, step);
    const fresh = this.oauthFresh.get(value);
    if (fresh) {
      this.replaced.generated++;
      return fresh;
    }
    // An OAuth redirect_uri must equal the one the provider knows: the instance's own URL.
    const app = /redirect_ur[il]$/i.test(key) ? this.appUrl(value) : undefined;
    if (app) return app;
    // An OAuth authorization code (and its PKCE verifier) works once: a replay needs a new one.
    if (value !== "" && /^(code|code_verifier)$/.test(key) && this.oauthSteps.has(step)) {
      this.replaced.secrets++;
      const note =
        `Step "${step.name}" exchanges an OAuth authorization code, which cannot be replayed: set OAUTH_CODE (and OAUTH_CODE_VERIFIER for PKCE) from a fresh authorization, or log in another way.`;
      if (!this.notes.includes(note)) this.notes.push(note);
      return this.sp.envRef(
        this.secretEnv(
          key === "code" ? "OAUTH_CODE" : "OAUTH_CODE_VERIFIER",
          value,
          key === "code"
            ? "a fresh OAuth authorization code (a recorded one cannot be replayed)"
            : "the PKCE code_verifier that goes with OAUTH_CODE",
        ),
      );
    }
    if (value !== "" && isSecretName(key)) {
      const prefix = where.login ? "LOGIN" : envName(step.name);
      const field = envName(key);
      const base = field.startsWith(`${prefix}_`) ? field : `${prefix}_${field}`;
      this.replaced.secrets++;
      return this.sp.envRef(
        this.secretEnv(
          where.body ? base : field,
          value,
          `the "${key}" ${where.body ? "field" : "parameter"} sent by step "${step.name}"`,
        ),
      );
    }
    const gen = this.generated.get(value);
    if (gen) {
      this.replaced.generated++;
      return gen;
    }
    if (isUuid(value) && !this.responseSeen.has(valueKey(value))) {
      return this.freshUuid(key, value);
    }
    if (
      where.body && where.mutating && !where.login && !where.credentials &&
      !this.responseSeen.has(valueKey(value)) && !/\$$/.test(value.replace(/\d+$/, ""))
    ) {
      const mixed = mixRunId(key, value, (t) => this.sp.lit(t));
      if (mixed) {
        this.replaced.generated++;
        this.generated.set(value, mixed);
        return mixed;
      }
    }
    return this.withTokens(value, step);
  }

  bodyValue(
    value: unknown,
    key: string,
    step: Step,
    where: { body: boolean; mutating: boolean; login: boolean; credentials: boolean },
  ): YNode {
    if (Array.isArray(value)) return value.map((v) => this.bodyValue(v, key, step, where));
    if (typeof value === "object" && value !== null) {
      return ymap(
        Object.entries(value).map(([k, v]) => [k, this.bodyValue(v, k, step, where)]),
      );
    }
    if (typeof value === "string") return this.stringValue(key, value, step, where);
    if (typeof value === "number") {
      const p = this.producerFor(value);
      return p ? this.useProducer(p, step) : value;
    }
    return value as YScalar;
  }

  /** The base-URL var of an origin, declared at its first use. */
  baseRef(origin: string): string {
    let base = this.origins.get(origin);
    if (!base) {
      const n = this.origins.size;
      const name = this.varNames.take(n === 0 ? "base_url" : `base_url_${n + 1}`);
      const env = n === 0 ? "BASE_URL" : `BASE_URL_${n + 1}`;
      this.env.set(env, { about: `the API's base URL`, fallback: origin });
      this.vars.push([name, this.sp.envRef(env, origin)]);
      base = this.sp.varRef(name);
      this.origins.set(origin, base);
    }
    return base;
  }

  /**
   * A URL of the API sent as a value (an OAuth `redirect_uri`): its base URL
   * var and the rest, so it follows the instance the flow runs against;
   * `undefined` for any other value.
   */
  appUrl(value: string): string | undefined {
    const m = /^https?:\/\/[^/?#]+(?=$|[/?#])/.exec(value);
    if (!m || !URL.canParse(value)) return undefined;
    const origin = new URL(value).origin;
    if (m[0].toLowerCase() !== origin || !this.apiOrigins.has(origin)) return undefined;
    return `${this.baseRef(origin)}${this.sp.lit(value.slice(m[0].length))}`;
  }

  url(r: HarRecord, step: Step): string {
    const base = this.baseRef(r.url.origin);
    const whole = this.handed.urlOf(r);
    if (whole) return this.wholeUrl(whole, r, step, base);
    let previous = "";
    const path = r.url.pathname.split("/").map((segment) => {
      if (segment === "") return "";
      const decoded = safeDecode(segment);
      const p = this.producerFor(decoded) ??
        (/^\d+$/.test(decoded) ? this.producerFor(Number(decoded)) : undefined);
      if (p) return this.useProducer(p, step);
      const gen = this.generated.get(decoded);
      if (gen) {
        this.replaced.generated++;
        return gen;
      }
      if (isUuid(decoded) && !this.responseSeen.has(valueKey(decoded))) {
        return this.freshUuid(`${singular(snake(previous)) || "resource"}_id`, decoded);
      }
      previous = decoded;
      return this.withTokens(segment, step);
    }).join("/");
    const query = r.url.search.slice(1).split("&").filter((q) => q !== "").map((pair) => {
      const eq = pair.indexOf("=");
      if (eq === -1) return this.withTokens(pair, step);
      const name = safeDecode(pair.slice(0, eq));
      const value = safeDecode(pair.slice(eq + 1));
      const where = { body: false, mutating: false, login: false, credentials: false };
      // JSON inside the value (GraphQL GET `variables=`): its ids correlated, re-encoded.
      const inner = encodedJson(
        value,
        (k, v) => this.innerValue(k, v, step),
        (t) => this.sp.lit(t),
      );
      if (inner !== undefined) return `${this.sp.lit(pair.slice(0, eq))}=${inner}`;
      const replaced = this.stringValue(name, value, step, where);
      const unchanged = replaced === this.sp.lit(value);
      return `${this.sp.lit(pair.slice(0, eq))}=${
        unchanged ? this.withTokens(pair.slice(eq + 1), step) : replaced
      }`;
    });
    return `${base}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  }

  headers(r: HarRecord, step: Step): [string, string][] {
    const out: [string, string][] = [];
    const cookieValues = new Set(
      r.cookies.filter((c) =>
        !isAnalyticsCookie(c.name) && c.value.length >= 4 && isCredentialCookie(c.name, c.value)
      ).map((c) => c.value),
    );
    const cleaned = cleanHeaders(r.headers);
    // Some producers (chrome-har, when DevTools sent the request's extra info late) record a
    // request without the cookies the browser sent: it sent the ones earlier responses set.
    const held = this.jar.get(r.url.host);
    if (
      r.cookies.length === 0 && held && held.size > 0 && !cleaned.some((h) => h.name === "cookie")
    ) {
      r.cookies = [...held].map(([name, value]) => ({ name, value }));
      cleaned.unshift({ name: "cookie", value: "" });
      this.jarFilled++;
    }
    for (const { name, value } of cleaned) {
      if (name === "cookie") {
        const cookie = this.cookie(r, step);
        if (cookie) out.push([name, cookie]);
        continue;
      }
      if (name === "authorization" || name === "proxy-authorization") {
        out.push([name, this.authorization(name, value, step)]);
        continue;
      }
      const p = this.producerFor(value);
      if (p) {
        out.push([name, this.useProducer(p, step)]);
        continue;
      }
      // Values the server expects fresh on every request: never a required variable,
      // even when the name looks secret (Idempotency-Key ends in "key").
      if (FRESH_HEADER.test(name)) {
        this.replaced.generated++;
        out.push([name, freshValue(value)]);
        continue;
      }
      const csrf = /csrf|xsrf/i.test(name);
      if (isSecretHeader(name) || isSecretName(name) || csrf || cookieValues.has(value)) {
        const tokenised = this.withTokens(value, step);
        if (tokenised !== this.sp.lit(value)) {
          out.push([name, tokenised]);
          continue;
        }
        const base = name === "x-api-key"
          ? "API_KEY"
          : csrf
          ? "CSRF_TOKEN"
          : envName(name.replace(/^x-/, ""));
        this.replaced.secrets++;
        out.push([
          name,
          this.sp.envRef(this.secretEnv(base, value, `the value of the "${name}" header`)),
        ]);
        continue;
      }
      out.push([name, this.withTokens(value, step)]);
    }
    const ifMatch = this.ifMatch(r, step);
    if (ifMatch) out.push(["if-match", ifMatch]);
    return out;
  }

  authorization(name: string, value: string, step: Step): string {
    const m = AUTH.exec(value.trim());
    const scheme = m?.[1];
    const credential = m ? m[2] : value.trim();
    this.secrets.add(value);
    this.secrets.add(credential);
    const p = this.producerFor(credential);
    if (p) return `${scheme ? `${scheme} ` : ""}${this.useProducer(p, step)}`;
    const inside = this.withTokens(value, step);
    if (inside !== this.sp.lit(value)) return inside;
    if (scheme?.toLowerCase() === "basic") {
      const decoded = (() => {
        try {
          return atob(credential);
        } catch {
          return undefined;
        }
      })();
      if (decoded?.includes(":")) this.secrets.add(decoded.slice(decoded.indexOf(":") + 1));
      this.replaced.secrets++;
      const env = this.secretEnv(
        name === "authorization" ? "BASIC_AUTH" : "PROXY_BASIC_AUTH",
        credential,
        "base64 of user:password for the Basic Authorization header",
      );
      return `${scheme} ${this.sp.envRef(env)}`;
    }
    this.replaced.tokens++;
    const env = this.secretEnv(
      name === "authorization" ? "API_TOKEN" : "PROXY_TOKEN",
      credential,
      `the ${scheme ? `${scheme} ` : ""}credential of the ${name} header`,
    );
    return `${scheme ? `${scheme} ` : ""}${this.sp.envRef(env)}`;
  }

  cookie(r: HarRecord, step: Step): string | undefined {
    const parts: string[] = [];
    const rest: string[] = [];
    const bearer = r.headers.some((h) => h.name.toLowerCase() === "authorization");
    for (const c of r.cookies) {
      if (isAnalyticsCookie(c.name)) continue;
      const credential = isCredentialCookie(c.name, c.value);
      if (credential) this.secrets.add(c.value);
      const p = this.cookieProducers.get(`${c.name}=${c.value}`) ?? this.producerFor(c.value);
      if (p) parts.push(`${this.sp.lit(c.name)}=${this.useProducer(p, step)}`);
      // A preference or an anonymous id a script set is sent as recorded, never required.
      else if (!credential) parts.push(this.sp.lit(`${c.name}=${c.value}`));
      else rest.push(`${c.name}=${c.value}`);
    }
    // The browser attaches every cookie it holds; a request that authenticates with its
    // Authorization header does not need the ones from before the recording.
    if (rest.length > 0 && bearer) {
      this.droppedCookies++;
      rest.length = 0;
    }
    if (rest.length > 0) {
      this.replaced.secrets++;
      const env = this.secretEnv(
        "SESSION_COOKIE",
        rest.join("; "),
        `the Cookie header of a logged-in session ("${
          rest.map((c) => c.slice(0, c.indexOf("="))).join("=…; ")
        }=…")`,
      );
      parts.push(this.sp.envRef(env));
    }
    return parts.length > 0 ? parts.join("; ") : undefined;
  }

  // ---- steps

  /** Marks records whose response holds a token a later request sends: they are logins. */
  findLogins(records: HarRecord[]): void {
    records.forEach((r, i) => {
      if (!r.hasJson) return;
      const tokens: string[] = [];
      walk(r.json, (_path, key, leaf) => {
        if (looksLikeToken(key, leaf)) tokens.push(leaf as string);
      });
      if (tokens.length === 0) return;
      const later = records.slice(i + 1).some((l) => {
        const sent = `${l.url.href}\n${l.headers.map((h) => h.value).join("\n")}\n${
          l.bodyText ?? ""
        }`;
        return tokens.some((t) => sent.includes(t));
      });
      if (later) this.loginRecords.add(r);
    });
  }

  /** Remembers which body keys each write sends, so state the flow changes later is not pinned. */
  noteWrites(records: HarRecord[]): void {
    records.forEach((r, i) => {
      this.position.set(r, i);
      if (!["POST", "PUT", "PATCH", "DELETE"].includes(r.method) || !r.bodyText) return;
      let body: unknown;
      try {
        body = parseBody(r.bodyText);
      } catch {
        body = Object.fromEntries(new URLSearchParams(r.bodyText));
      }
      walk(body, (path) => {
        for (const key of path) if (typeof key === "string") this.lastWritten.set(key, i);
      });
    });
  }

  /** Whether a later request of the session writes `key`: its value here is not for `equals`. */
  writtenLater(key: string, r: HarRecord): boolean {
    return (this.lastWritten.get(key) ?? -1) > (this.position.get(r) ?? Infinity);
  }

  /** How often each UUID is sent (URL, body): one sent twice must keep one value. */
  countUuids(records: HarRecord[]): void {
    for (const r of records) {
      const sent = `${safeDecode(r.url.pathname)} ${safeDecode(r.url.search)} ${r.bodyText ?? ""}`;
      for (const m of sent.matchAll(UUID)) {
        this.uuidCounts.set(m[0], (this.uuidCounts.get(m[0]) ?? 0) + 1);
      }
    }
  }

  /**
   * A UUID the client made (no earlier response held it): `${RANDOM.UUID}`
   * where it is sent once, else a var generated once per run and used at
   * every place the recording sent it.
   */
  freshUuid(key: string, value: string): string {
    this.replaced.generated++;
    const known = this.generated.get(value);
    if (known) return known;
    if ((this.uuidCounts.get(value) ?? 0) < 2) return "${RANDOM.UUID}";
    const name = this.varNames.take(snake(key) || "uuid");
    this.vars.push([name, "${RANDOM.UUID}"]);
    const ref = this.sp.varRef(name);
    this.generated.set(value, ref);
    return ref;
  }

  /** Replaces the client-made UUIDs inside text (a multipart body, say). */
  freshUuidsIn(text: string, user: Step): string {
    let out = "";
    let at = 0;
    for (const m of text.matchAll(UUID)) {
      if (this.responseSeen.has(valueKey(m[0])) || this.producerFor(m[0])) continue;
      out += this.withTokens(text.slice(at, m.index), user) + this.freshUuid("uuid", m[0]);
      at = m.index! + m[0].length;
    }
    return out + this.withTokens(text.slice(at), user);
  }

  isIdSegment(decoded: string): boolean {
    return this.producerFor(decoded) !== undefined || this.generated.has(decoded) ||
      /^\d+$/.test(decoded) || isUuid(decoded) || looksLikeId("id", decoded) &&
        /\d/.test(decoded);
  }

  addStep(records: HarRecord[], loop?: Step["loop"]): void {
    const first = records[0];
    const last = records[records.length - 1];
    const segments = first.url.pathname.split("/").filter((s) => s !== "").map(safeDecode);
    const isId = (s: string) => this.isIdSegment(s);
    const login = this.loginRecords.has(first) ||
      (first.method === "POST" && isAuthPath(first.url.pathname));
    const page = first.method === "GET" && /html/.test(first.mimeType)
      ? `open_${snake(segments.filter((s) => !isId(s)).at(-1) ?? "") || "home"}`
      : undefined;
    const name = this.stepNames.take(
      shortName(
        page ?? authStepName(first, login) ?? operationName(first) ??
          stepName(first.method, segments, isId),
      ),
    );
    const step: Step = {
      name,
      records,
      first,
      last,
      noun: login ? "login" : resourceNoun(segments, isId),
      method: first.method,
      url: "",
      headers: [],
      sent: new Map(),
      captures: [],
      captureNames: new UniqueNames(),
      captureByPath: new Map(),
      uses: new Set(),
      checks: [],
      loop,
    };
    step.url = this.url(first, step);
    step.headers = this.headers(first, step);
    this.body(first, step, login);
    this.remember(first);
    addAssertions(step, this.secrets, (key, r) => this.writtenLater(key, r));
    this.produce(step);
    this.steps.push(step);
  }

  body(r: HarRecord, step: Step, login: boolean): void {
    const contentType = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ??
      r.bodyMime ?? "";
    if (/^multipart\//i.test(contentType)) return this.multipart(r, step, contentType);
    const text = r.bodyText;
    if (text === undefined || text === "") return;
    if (/grant_type"?\s*[=:]\s*"?authorization_code|code_verifier/.test(text)) {
      this.oauthSteps.add(step);
    }
    const mutating = ["POST", "PUT", "PATCH"].includes(r.method);
    let json: unknown;
    let isJson = false;
    if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
      try {
        json = parseBody(text);
        isJson = typeof json === "object" && json !== null;
      } catch (error) {
        isJson = false;
        if (error instanceof TooDeepJson) {
          this.notes.push(
            `The request body of step "${step.name}" nests deeper than ${MAX_WALK_DEPTH} levels: it is kept as recorded, with no values replaced.`,
          );
        }
      }
    }
    if (isJson) {
      let credentials = false;
      walk(json, (_p, key, leaf) => {
        if (leaf !== "" && leaf !== null && isSecretName(key)) credentials = true;
      });
      const where = { body: true, mutating, login, credentials };
      step.body = this.bodyValue(json, "", step, where);
      if (!Array.isArray(json) && step.body && typeof step.body === "object") {
        for (const [k, v] of (step.body as YMap).entries) {
          step.sent.set(k, { raw: (json as Record<string, unknown>)[k], template: v });
        }
      }
      return;
    }
    if (/x-www-form-urlencoded/i.test(contentType)) {
      let credentials = false;
      const pairs = text.split("&").filter((p) => p !== "").map((pair) => {
        const eq = pair.indexOf("=");
        return eq === -1 ? [pair, undefined] as const : [pair.slice(0, eq), pair.slice(eq + 1)];
      });
      for (const [k] of pairs) if (isSecretName(safeDecode(k))) credentials = true;
      const where = { body: true, mutating, login, credentials };
      // As `form:`, each value is encoded when sent: `&`, `+`, `%`, `=`, `#` and spaces survive.
      const form = formFields(pairs);
      if (form) {
        step.form = ymap(form.map(([k, values]) => {
          const t = values.map((v) => this.stringValue(k, v, step, where));
          return [k, t.length === 1 ? t[0] : t];
        }));
        return;
      }
      step.body = pairs.map(([k, v]) => {
        if (v === undefined) return this.withTokens(k, step);
        const value = safeDecode(v);
        const replaced = this.stringValue(safeDecode(k), value, step, where);
        return `${this.sp.lit(k)}=${
          replaced === this.sp.lit(value) ? this.withTokens(v, step) : replaced
        }`;
      }).join("&");
      return;
    }
    step.body = this.withTokens(text, step);
  }

  /**
   * A multipart body becomes a `multipart:` map: text fields as templates,
   * each file read from a file beside the flow (`uploads/<name>`, the
   * recorded name kept), holding the recorded content or, since browsers
   * never keep an upload's bytes, a placeholder. The runner writes the
   * boundary and content type. A body that does not parse is sent as text.
   */
  multipart(r: HarRecord, step: Step, contentType: string): void {
    const text = r.bodyText ?? "";
    // Chromium keeps no part of a body that holds a file: one file field is the best guess.
    const omitted = text.trim() === "";
    const parts = omitted
      ? [{ name: "file", fileName: "upload.bin" }]
      : multipartParts(text, multipartBoundary(contentType));
    if (!parts) {
      step.body = this.freshUuidsIn(text, step);
      return;
    }
    const where = { body: true, mutating: true, login: false, credentials: false };
    const entries: [string, YNode][] = [];
    for (const part of parts) {
      if (entries.some(([name]) => name === part.name)) continue;
      if (part.fileName === undefined) {
        entries.push([part.name, this.stringValue(part.name, part.value ?? "", step, where)]);
        continue;
      }
      const path = placeholderPath(part.fileName);
      const content = part.content ?? "";
      const placeholder = content === "" || content === FILE_PLACEHOLDER;
      if (!this.files.has(path)) this.files.set(path, placeholder ? PLACEHOLDER_TEXT : content);
      this.uploads.push({ step: step.name, path, placeholder, omitted, form: formSource(r) });
      const fields: [string, YScalar][] = [["file", path]];
      if (part.contentType) fields.push(["content_type", part.contentType]);
      const sent = sentFileName(part.fileName);
      if (sent !== undefined) fields.push(["filename", sent]);
      entries.push([part.name, yflow(fields)]);
    }
    step.multipart = ymap(entries);
    step.headers = step.headers.filter(([name]) => name !== "content-type");
  }

  /** A request URL that a response handed out whole: the capture, after the base if relative. */
  wholeUrl(
    whole: { step: Step; source: Source; absolute: boolean },
    r: HarRecord,
    step: Step,
    base: string,
  ): string {
    const producer: Producer = { step: whole.step, source: whole.source, secret: false };
    // Its signature and other opaque parameters are secrets: masked in comments, never sent.
    for (const [, v] of r.url.searchParams) if (isSecretShaped(v)) this.secrets.add(v);
    const ref = this.useProducer(producer, step).replace(/^\$\{/, "${raw:");
    return whole.absolute ? ref : `${base}${ref}`;
  }

  /** `If-Match` from the `ETag` of the response before it; one no response gave is kept, noted. */
  ifMatch(r: HarRecord, step: Step): string | undefined {
    const found = this.handed.ifMatch(r);
    if (!found) return undefined;
    if (!found.producer) {
      this.strayIfMatch.push(step.name);
      return this.sp.lit(found.value);
    }
    return this.useProducer({ ...found.producer, secret: false }, step);
  }

  /** A value inside an encoded one (JSON in a query value): a capture, or `undefined` to keep it. */
  innerValue(key: string, value: unknown, step: Step): string | undefined {
    if (typeof value !== "string" && typeof value !== "number") return undefined;
    const p = this.producerFor(value) ??
      (typeof value === "string" && /^\d+$/.test(value)
        ? this.producerFor(Number(value))
        : undefined);
    if (p) return this.useProducer(p, step);
    const gen = typeof value === "string" ? this.generated.get(value) : undefined;
    if (gen && /^\$\{[^}]+\}$/.test(gen)) return gen;
    if (typeof value === "string" && isUuid(value) && !this.responseSeen.has(valueKey(value))) {
      return this.freshUuid(key, value);
    }
    return undefined;
  }

  /** Remembers what the client sent, so a response echoing it is not taken as its source. */
  remember(r: HarRecord): void {
    for (const s of r.url.pathname.split("/")) this.sentSeen.add(valueKey(safeDecode(s)));
    for (const [, v] of r.url.searchParams) this.sentSeen.add(valueKey(v));
    if (r.bodyText) {
      try {
        walk(parseBody(r.bodyText), (_p, _k, leaf) => this.sentSeen.add(valueKey(leaf)));
      } catch {
        // Not JSON: form values were remembered through the generated map, if at all.
      }
    }
  }

  /**
   * Whether the value under `k` so far comes from a cookie. A page or JSON
   * body that hands out the same value (a double-submit CSRF token in a
   * `<meta>` and in a cookie) is the better source for everything but the
   * `Cookie` header: a server may percent-encode a cookie (`+`, `/`, `=` of
   * base64), so the cookie's text is not always the value the page's script
   * sends, even when the recorded one happened to need no encoding.
   */
  fromCookie(k: string): boolean {
    return this.producers.get(k)?.source.kind === "cookie";
  }

  /** Makes `producer` the source of `value`, in place of a cookie that handed it out first. */
  setProducer(k: string, value: string, producer: Producer): void {
    const old = this.producers.get(k);
    const p = old?.secret ? { ...producer, secret: true } : producer;
    this.producers.set(k, p);
    const at = old ? this.tokens.findIndex(([, t]) => t === old) : -1;
    if (at !== -1) this.tokens.splice(at, 1);
    if (p.secret) this.tokens.push([value, p]);
  }

  /** The browser's cookie store after `host` set (or deleted) `cookie`. */
  private holdCookie(host: string, cookie: { name: string; value: string }): void {
    const held = this.jar.get(host) ?? new Map<string, string>();
    this.jar.set(host, held);
    if (cookie.value === "" || cookie.value === "deleted") held.delete(cookie.name);
    else held.set(cookie.name, cookie.value);
  }

  /**
   * What an unlinked conversion keeps of a response: the cookies the browser
   * held and which values are secrets (so none is written), but no producer.
   */
  produceNothing(step: Step): void {
    const r = step.last;
    for (const c of r.setCookies) {
      this.holdCookie(r.url.host, c);
      if (c.value.length >= 4 && isCredentialCookie(c.name, c.value)) this.secrets.add(c.value);
    }
    if (r.responseText !== undefined && /html/.test(r.mimeType)) {
      for (const v of pageValues(r.responseText)) {
        if (v.secret && isSecretShaped(v.value)) this.secrets.add(v.value);
      }
    }
    if (!r.hasJson) return;
    walk(r.json, (_p, key, leaf) => {
      if (looksLikeToken(key, leaf)) this.secrets.add(leaf as string);
      this.responseSeen.add(valueKey(leaf));
    });
  }

  produce(step: Step): void {
    if (!this.linking) return this.produceNothing(step);
    const r = step.last;
    // A cookie the response set is session state: later requests carry it by a capture.
    for (const c of r.setCookies) {
      this.holdCookie(r.url.host, c);
      const k = valueKey(c.value);
      if (c.value.length < 4 || isAnalyticsCookie(c.name) || this.producers.has(k)) continue;
      // A preference or anonymous cookie is carried whole, never searched for or masked.
      const secret = isCredentialCookie(c.name, c.value);
      const producer: Producer = { step, source: { kind: "cookie", name: c.name }, secret };
      this.cookieProducers.set(`${c.name}=${c.value}`, producer);
      this.producers.set(k, producer);
      if (!secret) continue;
      this.tokens.push([c.value, producer]);
      this.secrets.add(c.value);
    }
    // A page's CSRF token, form token, config key or data- id: found again in the fresh page
    // by a pattern. Ids are matched whole; secrets also inside longer text, and masked.
    if (r.responseText !== undefined && /html/.test(r.mimeType)) {
      for (const v of pageValues(r.responseText)) {
        const k = valueKey(v.value);
        if (this.producers.has(k) && !this.fromCookie(k)) continue;
        // A path, a URL or a word (`/dashboard`, `authenticity_token`) is a constant, not a secret.
        const secret = v.secret && isSecretShaped(v.value);
        if (!secret && !looksLikeId(v.name, v.value)) continue;
        const producer: Producer = {
          step,
          source: { kind: "regex", name: v.name, pattern: v.pattern },
          secret,
        };
        this.setProducer(k, v.value, producer);
        if (!secret) continue;
        this.secrets.add(v.value);
      }
    }
    this.handed.note(step);
    // An OAuth provider hands out the authorization code only in its redirect's Location.
    for (const [name, value] of locationParams(r)) {
      const k = valueKey(value);
      if (this.producers.has(k) || this.sentSeen.has(k)) continue;
      const producer: Producer = {
        step,
        source: { kind: "header", name: "location", query: name },
        secret: true,
      };
      this.producers.set(k, producer);
      this.tokens.push([value, producer]);
      this.secrets.add(value);
    }
    if (!r.hasJson) return;
    walk(r.json, (path, key, leaf) => {
      const k = valueKey(leaf);
      const secret = looksLikeToken(key, leaf);
      // A cursor is handed out whole, whatever its alphabet (base64 padding included).
      const cursor = isCursorKey(key) && typeof leaf === "string" && leaf.length >= 8;
      if (
        (secret || cursor || looksLikeId(key, leaf)) &&
        (!this.producers.has(k) || this.fromCookie(k)) && !this.sentSeen.has(k)
      ) {
        const producer: Producer = { step, source: { kind: "json", path }, secret };
        this.setProducer(k, leaf as string, producer);
      }
      if (secret) this.secrets.add(leaf as string);
    });
    walk(r.json, (_p, _k, leaf) => this.responseSeen.add(valueKey(leaf)));
  }
}

/**
 * Builds the steps of a session from its groups of records; with `linking`
 * off (`--no-correlate`) no value is taken from a response.
 *
 * @example
 * ```ts
 * import { correlate } from "./correlate.ts";
 * import { loadBodies, parseHar } from "./har_model.ts";
 * const json = (v: unknown) => ({ mimeType: "application/json", text: JSON.stringify(v) });
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://a.test/orders" }, response: { status: 201, content: json({ id: "ord_8f3a2c91" }) } },
 *   { request: { method: "GET", url: "https://a.test/orders/ord_8f3a2c91" }, response: { status: 200, content: json({}) } },
 * ] } }), []);
 * loadBodies(records, []);
 * const c = correlate(records, records.map((r) => ({ records: [r] })), "a");
 * if (c.steps[1].url !== "${vars.base_url}/orders/${steps.create_order.capture.order_id}") throw new Error(c.steps[1].url);
 * ```
 */
export function correlate(
  ordered: HarRecord[],
  groups: Group[],
  spelling: "a" | "b",
  linking = true,
  c: Correlator = new Correlator(spelling, linking),
): Correlator {
  c.noteWrites(ordered);
  c.findLogins(ordered);
  c.countUuids(ordered);
  for (const r of ordered) c.apiOrigins.add(r.url.origin);
  const oauth = planOauth(ordered, (name) => c.varNames.take(name));
  c.vars.push(...oauth.vars);
  for (const [value, name] of oauth.replaced) {
    c.oauthFresh.set(value, c.sp.varRef(name));
    c.secrets.add(value);
  }
  for (const group of groups) c.addStep(group.records, group.loop);
  if (c.jarFilled > 0) {
    c.notes.push(
      `${c.jarFilled} request${c.jarFilled === 1 ? " was" : "s were"} recorded without ${
        c.jarFilled === 1 ? "its" : "their"
      } cookies; ${
        c.jarFilled === 1 ? "it sends" : "they send"
      } the cookies earlier responses set, as the browser did.`,
    );
  }
  if (c.uploads.length > 0) {
    const shown = c.uploads.map((u) =>
      `${u.path} (step "${u.step}"${
        u.omitted
          ? ", a placeholder; the recording holds none of the body, so check the form's field names"
          : u.form
          ? `, a placeholder; the recording holds none of the body: its fields are the form's on ${u.form.page}${
            u.form.typed.length > 0
              ? `, and ${u.form.typed.join(", ")} ${
                u.form.typed.length === 1 ? "holds" : "hold"
              } "(not recorded)" for what was typed`
              : ""
          }`
          : u.placeholder
          ? ", a placeholder"
          : ""
      })`
    );
    const missing = c.uploads.some((u) => u.placeholder);
    c.notes.push(
      `Uploads send files from beside the flow: ${[...new Set(shown)].join(", ")}${
        missing
          ? "; the recording does not hold an upload's content, so each placeholder file must be replaced by a real one"
          : ""
      }.`,
    );
  }
  if (c.strayIfMatch.length > 0) {
    c.notes.push(
      `The If-Match header of ${
        c.strayIfMatch.map((n) => `"${n}"`).join(", ")
      } names an ETag no recorded response gave, and is sent as recorded: a fresh instance answers 412 unless a step before reads the resource.`,
    );
  }
  if (c.droppedCookies > 0) {
    c.notes.push(
      `Cookies that no recorded response set were left out of ${c.droppedCookies} request${
        c.droppedCookies === 1 ? "" : "s"
      } that authenticate with an Authorization header; add a cookie header if the API needs them.`,
    );
  }
  return c;
}
