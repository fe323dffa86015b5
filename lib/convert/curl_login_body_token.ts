/**
 * A token the docs send back in a body after a login whose answer they do not print: a
 * README logs in, then refreshes with `-d '{"refreshToken":"<refreshToken>"}'` (OAuth's
 * `grant_type=refresh_token&refresh_token=<refresh_token>` alike). The field's name made it a
 * secret to set (`LOGIN_REFRESH_TOKEN`), a value no new user has before the login runs. The
 * placeholder is what the login answers, as `curl_login_token.ts` decides for a header: the
 * login's step captures, at run time, the answer's member named as the placeholder (else as
 * the field), in any spelling (`refreshToken`, `refresh_token`, `RefreshToken`).
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { HarRecord } from "./har_model.ts";
import type { Step } from "./model.ts";
import type { YNode } from "./yaml_out.ts";
import { saysWord } from "../secrets/names.ts";

/** A value docs write for what the reader fills in: `<x>`, `{{x}}`, `[x]`, `YOUR_X`, `X_TOKEN`. */
const PLACEHOLDER =
  /^(?:<[^<>]+>|\{\{?[^{}]+\}\}?|\[[^\]]+\]|(?:[Yy]our|YOUR)[\w.-]*|[A-Z][A-Z0-9_]*TOKEN[A-Z0-9_]*)$/;
const TOKEN_WORDS = ["TOKEN", "JWT", "BEARER", "SESSION"];

/** Words of a name for the login's one token, not for another value it answers (`refresh`). */
const PLAIN_TOKEN = new Set(["access", "token", "jwt", "auth", "id", "session", "bearer"]);
const isPlainToken = (name: string) =>
  name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s_.-]+/).filter(Boolean)
    .every((w) => PLAIN_TOKEN.has(w));

/** The login a later step may send the answer of: its step, line and recorded request. */
export interface BodyLogin {
  step: Step;
  line: number;
  record: HarRecord;
}

/**
 * The case-blind pattern of a JSON member named with these words, in any joining
 * (`refreshToken`, `refresh_token`, `refresh-token`), its string value as group 1.
 *
 * @example
 * ```ts
 * import { memberPattern } from "./curl_login_body_token.ts";
 * const re = new RegExp(memberPattern("refreshToken"));
 * if (re.exec('{"accessToken":"a","refresh_token":"r-1"}')?.[1] !== "r-1") throw new Error();
 * if (re.exec('{"accessToken":"a"}') !== null) throw new Error();
 * ```
 */
export function memberPattern(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[\s_.-]+/).filter(Boolean);
  const either = (w: string) =>
    [...w].map((ch) =>
      /[a-z]/i.test(ch) ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : ch.replace(/\W/, "\\$&")
    ).join("");
  return String.raw`^[\s\S]*?"${words.map(either).join("[_-]?")}"\s*:\s*"([^"\\]+)"`;
}

/** The body's fields as the docs typed them: a JSON object's string members, or a form's. */
function typedFields(record: HarRecord): [string, string][] {
  const text = record.bodyText ?? "";
  try {
    const json = JSON.parse(text);
    if (typeof json !== "object" || json === null || Array.isArray(json)) return [];
    return Object.entries(json).filter((e): e is [string, string] => typeof e[1] === "string");
  } catch {
    return [...new URLSearchParams(text)];
  }
}

/** The top-level entries of a body's map (`body:` or `form:`), its comments looked through. */
function entriesOf(node: YNode | undefined): [string, YNode][] | undefined {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
  if (node.kind === "commented") return entriesOf(node.node);
  return node.kind === "map" ? node.entries : undefined;
}

/**
 * Sends, in a step after a login whose answer the docs do not print, the login's answer for
 * each body field the docs filled with a token's placeholder; returns the variables it
 * replaced, so they are no longer asked.
 *
 * @example
 * ```ts
 * import { loginBodyTokens } from "./curl_login_body_token.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const notes: string[] = [];
 * const c = newCorrelator("a");
 * const record = { bodyText: '{"name":"<name>"}' } as never;
 * const login = { step: {} as never, line: 1, record: {} as never };
 * const step = { name: "x" } as never;
 * if (loginBodyTokens(c, { step, record, line: 2 }, login, notes, "^(.+)$").length) throw new Error();
 * ```
 */
export function loginBodyTokens(
  c: Correlator,
  { step, record, line }: { step: Step; record: HarRecord; line: number },
  login: BodyLogin,
  notes: string[],
  generic: string,
): string[] {
  if (login.record.responseText !== undefined) return [];
  const replaced: string[] = [];
  for (const [key, value] of typedFields(record)) {
    // `<refreshToken>`, `{{refresh_token}}`, `YOUR_REFRESH_TOKEN`: the name without "your".
    const word = /^[<{[]*([A-Za-z_][\w-]*)[>}\]]*$/.exec(value)?.[1]
      ?.replace(/^(?:your|my)[_-]?(?=\w)/i, "");
    if (!PLACEHOLDER.test(value) || !saysWord(word ?? key, TOKEN_WORDS)) continue;
    // The field as the flow sends it: only a value asked of the user is replaced.
    const entries = entriesOf(step.body) ?? entriesOf(step.form) ?? [];
    const at = entries.findIndex(([k]) => k === key);
    const asked = [...c.env.keys()].find((n) => entries[at]?.[1] === c.sp.envRef(n));
    if (asked === undefined) continue;
    const name = login.step.captureNames.take(word ?? key);
    entries[at] = [key, c.sp.capRef(login.step.name, name)];
    // `<token>`, `<accessToken>`: the login's token, found as for a header; else the member named so.
    const plain = isPlainToken(word ?? key);
    const pattern = plain ? generic : memberPattern(word ?? key);
    login.step.captures.push([name, { kind: "regex", name, pattern }]);
    replaced.push(asked);
    notes.push(
      `Step ${step.name} (line ${line}): ${value} is what step ${login.step.name} (line ${login.line}) answers, captured as ${name}: the docs print no answer, so it is found at run time as ${
        plain
          ? "the login's token, as for an Authorization header"
          : `its member named ${word ?? key} (in any spelling)`
      }.`,
    );
  }
  return replaced;
}
