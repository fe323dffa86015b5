/**
 * Secret redaction, the public entry: the {@linkcode Redactor} that every text
 * the runner writes passes through, and the name rules that decide which
 * environment variables, headers, captures and body keys hold secrets. The
 * parts live in `lib/secrets/`: `names.ts` (the rules), `redactor.ts` (the
 * registry and masking), `decode.ts` (decoded views of escaped text),
 * `discover.ts` (finding secrets in requests, responses and flows).
 *
 * @module
 */
export { isSecretCaptureName, isSecretHeader, isSecretKey, isSecretName } from "./names.ts";
export { MASK, MIN_SECRET_LENGTH, Redactor } from "./redactor.ts";
