/**
 * Text a flow writes under a header whose name merely looks secret is its own, not a credential:
 * a value is a secret by what it is and where it came from, never by the name above it. Postman's
 * importer writes a declared header as `Idempotency-Key: <string>`; taking that text for a secret
 * by the header's name showed `Idempotency-Key: ***` and masked every `<string>` of the run, in
 * bodies and in checks' messages too. What a flow writes in a header that exists to carry a
 * credential (`Authorization`, `Cookie`, `X-API-Key`), what an expression brings (an environment
 * variable, a var, a capture), and a written value shaped like an issued key (a random run) stay
 * secret.
 *
 * @module
 */
import { isCredentialHeader, isSecretHeader } from "./names.ts";
import { isOrdinaryWord } from "./public_parts.ts";
import { PIECE } from "./secret_index.ts";

/** Runs of letters and digits. */
const RUN = /[A-Za-z0-9]+/g;

/**
 * Whether `text` holds what a key generator makes: a run of 16 or more letters and digits that
 * is no word (`4eC39HqLyjWDarjtT1zdp7dc`); a UUID's parts, a word and a number are shorter.
 */
function holdsRandomRun(text: string): boolean {
  for (const [run] of text.matchAll(RUN)) {
    if (run.length >= PIECE && !isOrdinaryWord(run)) return true;
  }
  return false;
}

/**
 * Whether constant `text` that a flow writes under the header `name` is its own text, not a
 * credential: the name looks secret (`Idempotency-Key`, `X-Request-Key`, `X-Auth-Token`) but the
 * header does not exist to carry a credential, and the text holds no random run.
 *
 * @example
 * ```ts
 * import { isWrittenHeaderText } from "./written_headers.ts";
 * if (!isWrittenHeaderText("Idempotency-Key", "<string>")) throw new Error();
 * if (!isWrittenHeaderText("X-Request-Key", "3f2b9c1e-7a4d-4e8b-9c0f-1a2b3c4d5e6f")) throw new Error();
 * if (isWrittenHeaderText("Authorization", "Bearer abc") || isWrittenHeaderText("X-API-Key", "abc")) {
 *   throw new Error();
 * }
 * if (isWrittenHeaderText("X-Auth-Token", "sk_live_4eC39HqLyjWDarjtT1zdp7dc")) throw new Error();
 * if (isWrittenHeaderText("X-Team", "abc")) throw new Error("not a secret-looking header at all");
 * ```
 */
export function isWrittenHeaderText(name: string, text: string): boolean {
  return isSecretHeader(name) && !isCredentialHeader(name) && !holdsRandomRun(text);
}

/**
 * The key under which a header's written text is kept in `SecretInputs.written`: the lower-case
 * name and the text, as a request about to be sent is matched against it.
 *
 * @example
 * ```ts
 * import { writtenKey } from "./written_headers.ts";
 * if (writtenKey("Idempotency-Key", "<string>") !== "idempotency-key\0<string>") throw new Error();
 * ```
 */
export function writtenKey(name: string, text: string): string {
  return `${name.trim().toLowerCase()}\0${text}`;
}

/**
 * Whether a cookie `value` the flow writes as a constant beside a session an expression brings
 * (`cookie: theme=dark; ${ENV.SESSION_COOKIE}`, as `convert har` writes it) is its own text: the
 * flow says where its session comes from, so the others are preferences and analytics ids, but a
 * value shaped like an issued key stays a secret.
 *
 * @example
 * ```ts
 * import { isWrittenCookieValue } from "./written_headers.ts";
 * if (!isWrittenCookieValue("dark") || !isWrittenCookieValue("0f2c.1732180000")) throw new Error();
 * if (isWrittenCookieValue("eyJpZCI6ImFiYyJ9Qx")) throw new Error();
 * ```
 */
export function isWrittenCookieValue(value: string): boolean {
  return !holdsRandomRun(value);
}
