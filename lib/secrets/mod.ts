/**
 * Secrets: which values of a run are secret, and masking them in every text
 * the runner writes. It takes requests, responses, flows and data rows, and
 * gives the {@linkcode Redactor} that every artifact passes through, with
 * the name rules that decide which environment variables, headers, captures
 * and body keys hold secrets.
 *
 * The parts: `names.ts` (the rules), `redactor.ts` (what is registered, and
 * masking texts and values), `secret_index.ts` (finding registered literals,
 * their pieces, cut secrets and JWTs in a text; `_index_layout.ts` its
 * filters and hashes), `forms.ts` (the encoded forms of a secret),
 * `decode.ts` (decoded views of escaped text), `public_parts.ts` (the
 * parts of a secret that are not secret, like the run id, whose pieces are
 * not masked), `unguessable.ts` (the random run of a token that begins
 * with words, which its pieces come from; `clear_texts.ts` the ids a
 * response names in the clear beside it), `substring_table.ts` (the hash
 * table of literals),
 * `piece_set.ts` (the pieces, one word each), `discover.ts` (finding
 * secrets in requests and responses; `set_cookie.ts` in a `Set-Cookie`
 * header), `plain_values.ts` (what a response holds that a server never
 * issues as a secret), `flow_inputs.ts` (in a flow's own text),
 * `userinfo.ts` (in a URL's credentials) and `line_shape.ts` (what an error
 * shows of a `NAME=value` line it cannot read).
 *
 * @example
 * ```ts
 * import { isSecretName, MASK, Redactor } from "./mod.ts";
 * const r = new Redactor();
 * r.add("hunter22");
 * if (r.redact("pw=hunter22") !== `pw=${MASK}` || !isSecretName("API_TOKEN")) throw new Error();
 * ```
 *
 * @module
 */
export {
  isSecretCaptureName,
  isSecretHeader,
  isSecretKey,
  isSecretName,
  nameWords,
  saysWord,
} from "./names.ts";
export { MASK, MIN_SECRET_LENGTH, Redactor } from "./redactor.ts";
export { TailedTexts } from "./tailed_texts.ts";
export { CREDENTIAL_KEY, isKeyData } from "./key_data.ts";
