/**
 * What correlation knows about one session while it builds the steps: the
 * producers responses handed out, the secrets seen, the names taken, the
 * values generated. Every stage of `correlate/` reads and adds to this one
 * record; its `steps`, `env`, `vars`, `files` and `notes` are the result.
 *
 * The few decisions a second recording may overrule are reached through
 * {@linkcode Rules}, so that `two_recordings_correlate.ts` replaces a rule
 * and every stage that asks it gets the replacement.
 *
 * @module
 */
import { EnvValues } from "./env_values.ts";
import type { Span } from "./sent_times.ts";
import type { InstanceName } from "./cookie_names.ts";
import { HandedOut } from "../handed.ts";
import type { HarRecord, NameValue } from "../har_model.ts";
import type { EnvVar, Producer, Step } from "../model.ts";
import { UniqueNames } from "../names.ts";
import { ownEnvName } from "../shell_env.ts";
import { Spelling } from "../spelling.ts";

/**
 * Where a value is sent: it decides which rules may replace it.
 *
 * @example
 * ```ts
 * import type { Where } from "./state.ts";
 * const login: Where = { body: true, mutating: true, login: true, credentials: true };
 * if (!login.login) throw new Error();
 * ```
 */
export interface Where {
  body: boolean;
  mutating: boolean;
  login: boolean;
  credentials: boolean;
  /** The body sends an account's name or address (worded_fields.ts): a credential place. */
  account?: boolean;
}

/**
 * Where nothing is a body: query values and headers.
 *
 * @example
 * ```ts
 * import { NOT_A_BODY } from "./state.ts";
 * if (NOT_A_BODY.body || NOT_A_BODY.mutating) throw new Error();
 * ```
 */
export const NOT_A_BODY: Readonly<Where> = {
  body: false,
  mutating: false,
  login: false,
  credentials: false,
};

/**
 * The decisions a second recording's evidence may overrule. Stages call them
 * through `c.rules`, never the default directly, so an overruled rule is
 * overruled everywhere.
 *
 * @example
 * ```ts
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // Every value is treated as a constant from here on: no producer is ever found.
 * c.rules = { ...c.rules, producerFor: () => undefined };
 * if (c.rules.producerFor("x") !== undefined) throw new Error();
 * ```
 */
export interface Rules {
  /** The producer of `value`, if a response handed it out. */
  producerFor(value: unknown): Producer | undefined;
  /** A string sent in a body, query value or header value under `key`. */
  stringValue(key: string, value: string, step: Step, where: Where): string;
  /** A UUID the client made. */
  freshUuid(key: string, value: string): string;
  /** The request headers of `step`, sent by record `r`. */
  headers(r: HarRecord, step: Step): [string, string][];
  /** Records what the response of `step` hands out. */
  produce(step: Step): void;
}

/**
 * An upload step and the file it sends, for one note.
 *
 * @example
 * ```ts
 * import type { Upload } from "./state.ts";
 * const u: Upload = { step: "upload", path: "uploads/a.pdf", placeholder: true, omitted: false };
 * if (!u.path.startsWith("uploads/")) throw new Error();
 * ```
 */
export interface Upload {
  step: string;
  path: string;
  placeholder: boolean;
  omitted: boolean;
  form?: { page: string; typed: string[]; blank?: string[] };
}

/**
 * The state of correlation over one session.
 *
 * @example
 * ```ts
 * import type { Correlator } from "./state.ts";
 * import { correlate } from "./pipeline.ts";
 * const c: Correlator = correlate([], [], "a");
 * if (c.steps.length !== 0 || c.env.size !== 0) throw new Error();
 * ```
 */
export interface Correlator {
  readonly sp: Spelling;
  /** Whether values are taken from responses; off only for `--no-correlate` (a debugging aid). */
  readonly linking: boolean;
  /** The rules the stages ask; set by `newCorrelator`, replaced for two recordings. */
  rules: Rules;
  /**
   * Whether a person wrote the requests (curl commands), not a browser: a plain word there
   * (`-b 'session=secret'`) stands for a credential, while a recorded one is what the page held.
   */
  byHand: boolean;
  readonly steps: Step[];
  readonly stepNames: UniqueNames;
  readonly varNames: UniqueNames;
  readonly vars: [string, string][];
  /** Each origin's base-URL var reference. */
  readonly origins: Map<string, string>;
  /** The response that first handed out each value, by `valueKey`. */
  readonly producers: Map<string, Producer>;
  /**
   * Values the flow takes from answers (JSON captures), as recorded: they differ on another
   * instance, so no row filter names them, nor a value holding one (captures.ts).
   */
  readonly captured: Set<string>;
  /** The token producers alone, searched inside longer strings (`Bearer …`, cookies). */
  readonly tokens: [string, Producer][];
  /** Cookie producers by `name=value`: what the `Cookie` header sends back as it was set. */
  readonly cookieProducers: Map<string, Producer>;
  /** Cookie names that hold the instance's own piece (`CSRF-Token-2EWQW`), by recorded name. */
  readonly cookieNames: Map<string, InstanceName>;
  readonly responseSeen: Set<string>;
  readonly sentSeen: Set<string>;
  /** Each field and value sent, with the number of steps made before it (client_constants.ts). */
  readonly sentFields: Map<string, number>;
  /** Recorded values → the generated template sent instead. */
  readonly generated: Map<string, string>;
  /**
   * Generated values also replaced inside longer text, as whole words (a title's slug in
   * `/notes/Dock-schedule.md`, slug_titles.ts): recorded value and template.
   */
  readonly insideText: [string, string][];
  readonly uuidCounts: Map<string, number>;
  /** UUIDs a response echoed after a request sent them (made_ids.ts). */
  readonly uuidEchoed: Set<string>;
  /** Hex tokens the page drew: echoed by an answer, held by none before (made_tokens.ts). */
  readonly madeTokens: Set<string>;
  /** Reads that listed, finished later, a record a write's answer named (listed_later.ts). */
  readonly listedLater: Map<HarRecord, { write: HarRecord; value: string }>;
  readonly env: Map<string, EnvVar>;
  /** `BASE\nvalue` → the variable asked for it, indexed by end, start and name (env_values.ts). */
  readonly envByValue: EnvValues;
  readonly secrets: Set<string>;
  /**
   * Passwords the user typed (a subset of `secrets`): a variable where sent as a credential,
   * as recorded inside other values (a name that merely holds the word); masked in outputs.
   */
  readonly typed: Set<string>;
  readonly loginRecords: Set<HarRecord>;
  /** POSTs a login's path names that log no one in, by evidence (login_evidence.ts). */
  readonly notLogins: Set<HarRecord>;
  readonly replaced: { tokens: number; secrets: number; ids: number; generated: number };
  /** For each body key, the last position in the session where a write sent it. */
  readonly lastWritten: Map<string, number>;
  /** Each kept record's position in the session. */
  readonly position: Map<HarRecord, number>;
  /** JSON-RPC calls whose result a later answer shows changed (rpc_state.ts). */
  readonly changingResults: Set<HarRecord>;
  /** Writes whose answered item the server changed on its own afterwards (moved_on.ts). */
  readonly movedOn: Set<HarRecord>;
  /** Cookies recorded responses set, by host: what the browser held. */
  readonly jar: Map<string, Map<string, string>>;
  /** Requests recorded without their cookies that were given the jar's. */
  jarFilled: number;
  /** When the recording's entries were started: its query values of that time are the clock's (sent_times.ts). */
  span: Span | undefined;
  /** Cookies the dropped requests show the browser held for a kept one recorded without (held_cookies.ts). */
  readonly heldCookies: Map<HarRecord, NameValue[]>;
  /** Cookies only a dropped request's answer set, `host\nname=value` (dropped_cookies.ts). */
  readonly droppedSetCookies: Set<string>;
  /** Every record answered with a page, dropped ones too: what every page shows is no write's verdict. */
  readonly pages: HarRecord[];
  /** Requests that sent Authorization and cookies no recorded response set. */
  droppedCookies: number;
  /** Steps that exchange an OAuth authorization code. */
  readonly oauthSteps: Set<Step>;
  /** Recorded PKCE verifiers and challenges, OAuth states and nonces → the vars sent instead. */
  readonly oauthFresh: Map<string, string>;
  /** Origins of the kept requests: a URL of one sent as a value follows its base URL. */
  readonly apiOrigins: Set<string>;
  /** The API's own names (JSON keys, query names, cookie names): never a secret or an id. */
  readonly apiWords: Set<string>;
  /** Names of the password inputs of the recorded pages (password_fields.ts): credentials by the page's word. */
  readonly passwordFields: Set<string>;
  /** Checkbox and radio inputs of the recorded pages, with their declared values (choice_fields.ts). */
  readonly choiceFields: Map<string, Set<string>>;
  /** Names of the visible text inputs of the recorded pages (text_fields.ts): typed in view. */
  readonly textFields: Set<string>;
  /** Names and quoted values the app's recorded scripts assign (script_literals.ts): the client's own. */
  readonly scriptLiterals: Set<string>;
  /** Fields the session sends with several words (lookup_fields.ts): names, never credentials. */
  readonly lookupFields: Set<string>;
  /** Limits met while converting the steps, for the summary and the flow's header. */
  readonly notes: string[];
  /** Steps that echo a sequence number (sequences.ts), by the field: their answers are deltas. */
  readonly deltas: Map<Step, string>;
  /** ETags and URLs responses handed out, sent back whole. */
  readonly handed: HandedOut;
  /** `If-Match` values no recorded response handed out, by step. */
  readonly strayIfMatch: string[];
  /**
   * Files uploads send, by path relative to the flow: recorded content (bytes for a body that
   * is not UTF-8 text) or a placeholder.
   */
  readonly files: Map<string, string | Uint8Array<ArrayBuffer>>;
  readonly uploads: Upload[];
  /**
   * Members a response under a collection named: small row numbers a create answered with,
   * by collection path and number (`created_ids.ts`), and names a listing handed out, by their
   * text (`listed_names.ts`), each with its producer and the collection path it belongs under.
   */
  readonly members: Map<string, { producer: Producer; under: string; listed?: boolean }>;
}

/**
 * A fresh state with no rules yet: `newCorrelator` (in `pipeline.ts`) gives
 * it the default ones, which need the stages that need this record.
 *
 * @example
 * ```ts
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * if (c.steps.length !== 0 || c.sp.varRef("x") !== "${vars.x}") throw new Error();
 * ```
 */
export function emptyCorrelator(spelling: "a" | "b", linking: boolean): Correlator {
  return {
    sp: new Spelling(spelling),
    linking,
    rules: undefined as unknown as Rules,
    byHand: false,
    steps: [],
    stepNames: new UniqueNames(),
    varNames: new UniqueNames(),
    vars: [],
    origins: new Map(),
    producers: new Map(),
    captured: new Set(),
    tokens: [],
    ...emptyCookies(),
    responseSeen: new Set(),
    sentSeen: new Set(),
    sentFields: new Map(),
    generated: new Map(),
    insideText: [],
    uuidCounts: new Map(),
    uuidEchoed: new Set(),
    madeTokens: new Set(),
    listedLater: new Map(),
    env: new Map(),
    envByValue: new EnvValues(),
    secrets: new Set(),
    typed: new Set(),
    loginRecords: new Set(),
    notLogins: new Set(),
    replaced: { tokens: 0, secrets: 0, ids: 0, generated: 0 },
    lastWritten: new Map(),
    changingResults: new Set(),
    movedOn: new Set(),
    position: new Map(),
    span: undefined,
    pages: [],
    oauthSteps: new Set(),
    oauthFresh: new Map(),
    apiOrigins: new Set(),
    apiWords: new Set(),
    passwordFields: new Set(),
    choiceFields: new Map(),
    textFields: new Set(),
    scriptLiterals: new Set(),
    lookupFields: new Set(),
    notes: [],
    deltas: new Map(),
    handed: new HandedOut(),
    strayIfMatch: [],
    files: new Map(),
    uploads: [],
    members: new Map(),
  };
}

/** The correlator's cookie state, empty: what the browser held and where each value came from. */
function emptyCookies() {
  return {
    cookieProducers: new Map(),
    cookieNames: new Map(),
    jar: new Map(),
    jarFilled: 0,
    heldCookies: new Map(),
    droppedSetCookies: new Set<string>(),
    droppedCookies: 0,
  };
}

/** A variable asked as a password (`LOGIN_PASSWORD`, `BASIC_PASSWORD_2`, `SIGNUP_PWD`): typed. */
const TYPED = /(?:^|_)(?:PASSWORD|PASSWD|PWD|PASS|PASSPHRASE)(?:_\d+)?$/;

/**
 * A required environment variable holding `value` (the same value keeps one
 * name).
 *
 * @example
 * ```ts
 * import { emptyCorrelator, secretEnv } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * if (secretEnv(c, "TOKEN", "s3cr3t", "a token") !== "TOKEN") throw new Error();
 * if (secretEnv(c, "TOKEN", "other", "a token") !== "TOKEN_2") throw new Error();
 * if (secretEnv(c, "TOKEN", "s3cr3t", "a token") !== "TOKEN") throw new Error();
 * secretEnv(c, "LOGIN_PASSWORD", "deluge", "the login's password");
 * if (!c.typed.has("deluge") || c.typed.has("s3cr3t")) throw new Error();
 * ```
 */
export function secretEnv(c: Correlator, base: string, value: string, about: string): string {
  c.secrets.add(value);
  if (TYPED.test(base)) c.typed.add(value);
  const known = c.envByValue.get(`${base}\n${value}`);
  if (known) return known;
  let name = ownEnvName(base);
  for (let n = 2; c.env.has(name); n++) name = `${ownEnvName(base)}_${n}`;
  c.env.set(name, { about });
  c.envByValue.set(`${base}\n${value}`, name);
  return name;
}
