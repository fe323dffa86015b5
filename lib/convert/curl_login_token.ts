/**
 * A token docs send after a login whose answer they do not print: a POST
 * that sends a typed credential (a JSON or form `password`, `-u`), then
 * `-H "Authorization: Bearer YOUR_ACCESS_TOKEN"` (or `<token>`, `{{token}}`,
 * `xxxxx.yyyyy.zzzzz`, `$TOKEN` no command assigned, or an example token:
 * a JWT, one cut short with `...`, an opaque string) to the same origin.
 * Directus's, Strapi's and Keycloak's guides print so, and the flow asked
 * the user for a token nobody has before the login runs. The placeholder is
 * what that login answers, and the answer says where only at run time: the
 * login's step captures, by what the answer holds, its one JWT-shaped
 * string, else its member named `access_token` (`accessToken`,
 * `AccessToken`), else one named `token`, `jwt`, `auth_token`, `id_token` or
 * `session_token`, else `key` or `api_key` (dj-rest-auth answers `{key}`); a
 * `refresh_token` never. An answer
 * holding none fails the login, naming the placeholder (the capture's name).
 * Where the docs print the answer, it says where: the value they send is
 * captured as any recorded one is, and a placeholder at the path of the
 * token the same rule finds in it.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { CurlRecord } from "./curl_request.ts";
import { ENV_MARKER, type EnvNames } from "./curl_shell.ts";
import { writtenAs } from "./curl_placeholders.ts";
import { tokenHeader } from "./curl_token_header.ts";
import { sendTokenEverywhere, type TokenVariable } from "./curl_login_token_uses.ts";
import type { Step } from "./model.ts";
import type { HarRecord } from "./har_model.ts";
import { saysWord } from "../secrets/names.ts";
import { loginBodyTokens } from "./curl_login_body_token.ts";

const JWT_HEAD = String.raw`eyJ[\w-]+\.[\w-]+\.`;
/** From the start, when the text holds exactly one JWT: up to its opening quote. */
const ONE_JWT = String
  .raw`(?![\s\S]*"${JWT_HEAD}[\s\S]*"${JWT_HEAD})[\s\S]*?"(?=${JWT_HEAD}[\w-]*")`;
/**
 * An answer that is one token-shaped word and nothing else (a login answering `return token`
 * as text): nothing before it, the word ending at the text's end.
 */
const BARE = String.raw`\s*(?=(?=[\w.~+/=-]*\d)(?=[\w.~+/=-]*[A-Za-z])[\w.~+/=-]{16,}\s*$)`;
/** From the start: up to the opening quote of the string value of the first member named so. */
const member = (names: string) => String.raw`[\s\S]*?"(?:${names})"\s*:\s*"`;

/**
 * The capture's regular expression over the login's answer: its alternatives are tried in
 * order from the answer's start, so the first that holds chooses the one group.
 *
 * @example
 * ```ts
 * import { LOGIN_TOKEN_PATTERN } from "./curl_login_token.ts";
 * const pick = (answer: unknown) => new RegExp(LOGIN_TOKEN_PATTERN).exec(JSON.stringify(answer))?.[1];
 * const jwt = (s: string) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${s}`;
 * if (pick({ user: { id: 1 }, jwt: jwt("a") }) !== jwt("a")) throw new Error("the one JWT");
 * if (pick({ refresh_token: jwt("r"), access_token: jwt("a") }) !== jwt("a")) throw new Error("two");
 * if (pick({ refresh_token: "r-1", token: "t-1" }) !== "t-1") throw new Error("by name");
 * if (pick({ User: { Id: 1 }, AccessToken: "t-2" }) !== "t-2") throw new Error("in Pascal case");
 * if (pick({ key: "k-1" }) !== "k-1") throw new Error("dj-rest-auth's key");
 * if (pick({ ok: true }) !== undefined) throw new Error("none");
 * const bare = (text: string) => new RegExp(LOGIN_TOKEN_PATTERN).exec(text)?.[1];
 * if (bare("3f1c2d9e-7a4b-4e21-9c55-0b8d6e4f2a17\n") !== "3f1c2d9e-7a4b-4e21-9c55-0b8d6e4f2a17") throw new Error("text");
 * if (bare("Created") !== undefined || bare("Signed in as ann, welcome") !== undefined) throw new Error("words");
 * ```
 */
export const LOGIN_TOKEN_PATTERN = `^(?:${ONE_JWT}|${member("[Aa]ccess_?[Tt]oken")}|${
  member("[Tt]oken|[Jj]wt|[Aa]uth_?[Tt]oken|[Ii]d_?[Tt]oken|[Ss]ession_?[Tt]oken")
}|${member("key|[Aa]pi_?[Kk]ey")}|${BARE})([^"\\\\]*[^"\\\\\\s])(?:"|\\s*$)`;

/** How the pattern chooses, in words, for the summary. */
const CHOSEN =
  "its one JWT-shaped string, else its access_token member, else its token, jwt, auth_token, id_token or session_token, else its key or api_key, never refresh_token; or the whole answer when it is one token-shaped word";

/** A value docs write for the reader's own credential. */
const PLACEHOLDER = new RegExp(
  [
    String.raw`^<[^<>]+>$`,
    String.raw`^\{\{?[^{}]+\}\}?$`,
    String.raw`^\[[^\]]+\]$`,
    String.raw`^(?:[Yy]our|YOUR|[Mm]y|MY)[\w.-]*$`,
    String.raw`^(?=[A-Z0-9_]*(?:TOKEN|JWT|ACCESS|AUTH|BEARER))[A-Z][A-Z0-9_]*$`,
    String.raw`^([a-zA-Z])\1{2,}(?:\.([a-zA-Z])\2{2,})*$`,
    // A bare `token` may be the user's own word for it (`Bearer token`): only an ellipsis here.
    String.raw`^(?:\.{3}|…)$`,
  ].join("|"),
);

/**
 * Words of a name for what a login hands out, of one for a key the user has, and of a header
 * that carries a credential: whole words (`AUTHOR` is no `AUTH`, `MONKEY` no `KEY`).
 */
const TOKEN_WORDS = ["TOKEN", "JWT", "ACCESS", "BEARER", "SESSION", "AUTH", "AUTHORIZATION"];
const KEY_WORDS = ["KEY", "SECRET", "PASS", "PASSWORD", "PASSCODE", "PASSPHRASE"];
const HEADER_WORDS = ["AUTH", "AUTHORIZATION", "AUTHENTICATION", "TOKEN", "JWT"];
const saysToken = (text: string) => saysWord(text, TOKEN_WORDS);

/**
 * A login: a POST that sends a password-like field (JSON, form) or `-u`; or a PUT that does, as
 * `npm adduser` creates a user (`PUT /-/user/org.couchdb.user:NAME`) and answers its token.
 */
const PASSWORD_KEY = /(?:^|[_.[-])(?:pass(?:word|wd|phrase)?|pwd|secret)\]?$/i;

/**
 * Whether a record is a login that sends a typed credential; one that sends a token itself is
 * signed in already (an admin creating an account with its password).
 */
function isLogin(r: CurlRecord): boolean {
  if (r.record.method !== "POST" && r.record.method !== "PUT") return false;
  if (r.record.headers.some((h) => credentialOf(h.name, h.value))) return false;
  const text = r.record.bodyText ?? "";
  // `-u` on a token endpoint (nothing sent, or an OAuth grant), not on a call it signs (Mailgun's).
  if (r.extras.auth?.scheme === "basic" || r.extras.auth?.scheme === "digest") {
    const sent = r.extras.multipart || r.extras.bodyFile !== undefined;
    return !sent && (text.trim() === "" || /\bgrant_type\b/.test(text));
  }
  try {
    return hasPasswordKey(JSON.parse(text));
  } catch {
    return [...new URLSearchParams(text).keys()].some((k) => PASSWORD_KEY.test(k));
  }
}

function hasPasswordKey(json: unknown, depth = 0): boolean {
  if (typeof json !== "object" || json === null || depth > 8) return false;
  return Object.entries(json).some(([k, v]) =>
    (PASSWORD_KEY.test(k) && typeof v === "string") || hasPasswordKey(v, depth + 1)
  );
}

/** The header's credential and what precedes it (`Bearer `), for a header that carries one. */
function credentialOf(name: string, value: string): { scheme: string; cred: string } | undefined {
  // NocoDB's `xc-auth`, `X-Access-Token`, `Authorization: Bearer|Token|Ghost …`.
  if (!saysWord(name, HEADER_WORDS)) return undefined;
  const m = /^([A-Za-z][\w-]*\s+)?(\S+)$/.exec(value.trim());
  return m ? { scheme: m[1] ?? "", cred: m[2] } : undefined;
}

/** Whether the text gives the variable a value (`TOKEN=$(curl …)`, `export TOKEN=…`, `read TOKEN`, `$env:TOKEN = …`). */
function assigns(text: string, name: string): boolean {
  return new RegExp(
    `(?:^|[\\s;&|(])(?:${name}=|\\$env:${name}\\s*=|read\\s+(?:-\\S+\\s+)*${name}\\b)`,
  ).test(text);
}

/** The placeholder's capture name, and how the docs wrote it; none for a value that is none. */
function placeholder(
  cred: string,
  env: EnvNames,
  text: string,
): { name: string; written: string } | undefined {
  const marker = /^zqzenv(\d+)zqz$/.exec(cred);
  if (marker) {
    const name = env[Number(marker[1])];
    // `$SENDGRID_API_KEY` is the user's own key; `$TOKEN`, `$ACCESS_TOKEN` what a login hands out.
    if (!saysToken(name) || assigns(text, name)) return undefined;
    return { name, written: writtenAs(env, name) };
  }
  if (!PLACEHOLDER.test(cred) || (saysWord(cred, KEY_WORDS) && !saysToken(cred))) return undefined;
  const word = /^[<{[]*([A-Za-z_]\w*)[>}\]]*$/.exec(cred)?.[1];
  return { name: word ?? "token", written: cred };
}

/**
 * What a token a server issued looks like: a JWT (cut short with `...` too), or 20 or more
 * characters of a token's alphabet mixing letters and digits. An ordinary word (`Bearer token`,
 * `Bearer id`) or a short value is the user's own credential, asked as before.
 */
const TOKEN_SHAPED =
  /^(?:eyJ[\w-]*(?:\.[\w-]*){0,2}(?:\.{3}|…)?|(?=[\w.~+/=-]{20,}$)(?=.*\d)(?=.*[A-Za-z]).*)$/;

/**
 * An example token the docs print (a JWT, one cut short with `...`, a long opaque string) that was
 * asked of the user: after a login to its origin whose answer the docs do not print, it is what
 * that login hands out, as a placeholder is. Named `token`; the note never repeats it, as a secret is not.
 */
function example(
  cred: string,
  asked: string[],
  login: HarRecord,
): { name: string; written: string } | undefined {
  // A printed answer that does not hold it says it came from elsewhere (a key the user made);
  // a placeholder that says key (`<your-api-key>`) is the user's own, as placeholder() decided.
  if (asked.length === 0 || login.responseText !== undefined) return undefined;
  if (/^zqzenv\d+zqz$/.test(cred) || PLACEHOLDER.test(cred) || !TOKEN_SHAPED.test(cred)) {
    return undefined;
  }
  return { name: "token", written: "the example token" };
}

/** The `$NAME` markers a value holds (curl_shell.ts), each once. */
const markersIn = (value: string) => [...new Set(value.match(ENV_MARKER) ?? [])];

/** The last login to an origin: its step, line and record; its token's capture, once made. */
interface Login {
  step: Step;
  line: number;
  record: HarRecord;
  made?: { key: string; how: string };
}

/**
 * Sends, in each step after a login to its origin, the login's token for an
 * `Authorization` (or token-named) header's placeholder; a note for each.
 *
 * @example
 * ```ts
 * import { loginTokens } from "./curl_login_token.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const notes: string[] = [];
 * loginTokens(newCorrelator("a"), [], { env: [], text: "" }, notes);
 * if (notes.length !== 0) throw new Error();
 * ```
 */
export function loginTokens(
  c: Correlator,
  built: readonly { command: { line: number }; records: CurlRecord[] }[],
  names: { env: EnvNames; text: string },
  notes: string[],
): void {
  const logins = new Map<string, Login>();
  const stepOf = new Map(c.steps.map((s) => [s.first, s]));
  const rd: Reading = { c, built, names, notes, replaced: new Set(), tokens: new Map() };
  const loginSteps: Step[] = [];
  for (const { command, records } of built) {
    for (const r of records) {
      const step = stepOf.get(r.record);
      const origin = r.record.url.origin;
      if (step && isLogin(r)) {
        logins.set(origin, { step, line: command.line, record: r.record });
        loginSteps.push(step);
        continue;
      }
      const login = logins.get(origin);
      if (!step || !login) continue;
      // A body field the docs fill with the login's token: curl_login_body_token.ts.
      const sent = { step, record: r.record, line: command.line };
      loginBodyTokens(c, sent, login, notes, LOGIN_TOKEN_PATTERN)
        .forEach((n) => rd.replaced.add(n));
      headerTokens(rd, sent, login);
    }
  }
  // A variable the headers prove a login's token is that capture in bodies too.
  sendTokenEverywhere(c, rd.tokens, loginSteps);
  dropUnused(c, rd.replaced);
}

/** What {@linkcode loginTokens} shares while it reads each step's headers. */
interface Reading {
  c: Correlator;
  built: readonly { records: CurlRecord[] }[];
  names: { env: EnvNames; text: string };
  notes: string[];
  /** The variables no longer asked once no step sends them. */
  replaced: Set<string>;
  /** Each variable, as steps send it, that a header proved a login's token (curl_login_token_uses.ts). */
  tokens: Map<string, TokenVariable>;
}

/** Sends the login's token for each of the step's credential headers that holds a placeholder. */
function headerTokens(
  rd: Reading,
  { step, record, line }: { step: Step; record: HarRecord; line: number },
  login: Login,
): void {
  const { c, names } = rd;
  for (const h of record.headers) {
    const found = credentialOf(h.name, h.value);
    const at = step.headers.findIndex(([n]) => n.toLowerCase() === h.name.toLowerCase());
    if (!found || at === -1) continue;
    // Nothing else produces it: a printed answer's own value was captured already.
    const asked = [...c.env.keys()].filter((n) => step.headers[at][1].includes(c.sp.envRef(n)));
    const p = placeholder(found.cred, names.env, names.text) ??
      example(found.cred, asked, login.record);
    if (!p || (asked.length === 0 && !/zqzenv/.test(step.headers[at][1]))) continue;
    const { key, how } = captureOf(login, p, c.sp, headerOf(login.record, names.text, rd.built));
    const ref = c.sp.capRef(login.step.name, key);
    for (const n of asked) rd.replaced.add(n);
    const sent = [...asked.map((n) => c.sp.envRef(n)), ...markersIn(step.headers[at][1])];
    for (const as of sent) if (!rd.tokens.has(as)) rd.tokens.set(as, { login: login.step, ref });
    step.headers[at] = [step.headers[at][0], `${found.scheme}${ref}`];
    rd.notes.push(
      `Step ${step.name} (line ${line}): ${p.written} is the token step ${login.step.name} (line ${login.line}) answers, captured as ${key}: ${how}.`,
    );
  }
}

/**
 * The login's token's capture, named for the first placeholder it stands for (one however many
 * placeholders, however spelled): where the docs' printed answer holds the token, that path;
 * else found at run time.
 */
function captureOf(
  login: Login,
  p: { name: string },
  sp: Correlator["sp"],
  header: () => string | undefined,
): { key: string; how: string } {
  if (login.made) return login.made;
  const key = login.step.captureNames.take(p.name);
  const path = printedPath(login.record);
  const named = path ? undefined : header();
  if (named !== undefined) {
    login.step.captures.push([key, { kind: "header", name: named }]);
    login.made = {
      key,
      how: `the ${named} response header, where the docs show the login's token`,
    };
    return login.made;
  }
  const made = path
    ? { key, how: `${sp.jsonPath(path)}, in the answer the docs print, chosen as ${CHOSEN}` }
    : {
      key,
      how:
        `the docs print no answer, so it is found at run time as ${CHOSEN}; to send another, write its source in that capture (${
          sp.jsonPath(["data", "access_token"])
        }, or {header: token} for a login that answers it in a header)`,
    };
  login.step.captures.push([
    key,
    path ? { kind: "json", path } : { kind: "regex", name: key, pattern: LOGIN_TOKEN_PATTERN },
  ]);
  login.made = made;
  return made;
}

/** The header the docs show the login's token in (curl_token_header.ts), read when asked. */
function headerOf(
  login: HarRecord,
  text: string,
  built: readonly { records: CurlRecord[] }[],
): () => string | undefined {
  const sent = new Set(
    built.flatMap((b) =>
      b.records.flatMap((r) => r.record.headers.map((h) => h.name.toLowerCase()))
    ),
  );
  return () => tokenHeader(login, text, sent);
}

/** Where the printed answer holds the token the pattern chooses; none without a printed answer. */
function printedPath(record: HarRecord): (string | number)[] | undefined {
  if (record.responseText === undefined) return undefined;
  const token = new RegExp(LOGIN_TOKEN_PATTERN).exec(record.responseText)?.[1];
  return token === undefined ? undefined : pathTo(record.json, token, []);
}

/** The path of the first string leaf equal to `value`. */
function pathTo(json: unknown, value: string, at: (string | number)[]): typeof at | undefined {
  if (json === value) return at;
  if (typeof json !== "object" || json === null || at.length > 16) return undefined;
  for (const [k, v] of Object.entries(json)) {
    const found = pathTo(v, value, [...at, Array.isArray(json) ? Number(k) : k]);
    if (found) return found;
  }
  return undefined;
}

/** The variables no step reads any more, no longer asked for. */
function dropUnused(c: Correlator, replaced: Set<string>): void {
  if (replaced.size === 0) return;
  const text = JSON.stringify(
    c.steps.map((s) => [s.url, s.headers, s.body, s.form, s.multipart, s.auth]),
  );
  for (const name of replaced) {
    if (!text.includes(c.sp.envRef(name).slice(0, -1))) c.env.delete(name);
  }
}
