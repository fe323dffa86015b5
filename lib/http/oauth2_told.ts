/**
 * An OAuth2 request's failure as flowrun's words around the values it
 * quotes (see `model/told.ts`): the endpoint's name is flowrun's; its URL,
 * the status it answered and the server's `error` and `error_description`
 * are values, masked where a step shows the message, so a short password
 * (`request`, `failed`) never masks the sentence.
 *
 * @module
 */
import { around, joined, ownWords, type Told, told } from "../model/told.ts";
import { clipped } from "../_util/clip.ts";

/** What a message names of an endpoint: its name (`token`) and URL. */
export interface Named {
  name: string;
  url: string;
}

/**
 * {@linkcode errorOf} with the server's words apart: values, masked where a step shows them.
 *
 * @example
 * ```ts
 * import { errorTold } from "./oauth2_told.ts";
 * const t = errorTold({ error: "invalid_client", error_description: "Unknown" });
 * if (t.values.join() !== "invalid_client,Unknown" || t.words.join("|") !== " | (|)") throw new Error();
 * ```
 */
export function errorTold(body: Record<string, unknown> | undefined): Told {
  const error = typeof body?.error === "string" ? told` ${clipped(body.error, 100)}` : ownWords("");
  const description = typeof body?.error_description === "string"
    ? told` (${clipped(body.error_description, 300)})`
    : ownWords("");
  return joined(error, description);
}

/**
 * `The OAuth2 <name> request to <url>`: the endpoint's name is flowrun's, its URL a value.
 *
 * @example
 * ```ts
 * import { requestTo } from "./oauth2_told.ts";
 * const e = { url: "https://idp.test/t", grant: "g", name: "token" as const, key: "token_url" as const };
 * if (requestTo(e).values[0] !== "https://idp.test/t") throw new Error();
 * ```
 */
export function requestTo(endpoint: Named): Told {
  return around(`The OAuth2 ${endpoint.name} request to `, told`${endpoint.url}`, "");
}

/**
 * {@linkcode failedAt} with the URL and the status apart: values, masked where a step shows them.
 *
 * @example
 * ```ts
 * import { failedTold } from "./oauth2_told.ts";
 * import { tell } from "../model/told.ts";
 * const e = { url: "https://idp.test/t", grant: "g", name: "token" as const, key: "token_url" as const };
 * if (tell(failedTold(e, 401)) !== "The OAuth2 token request to https://idp.test/t failed: it answered 401") throw new Error();
 * ```
 */
export function failedTold(endpoint: Named, status: number): Told {
  return joined(requestTo(endpoint), told` failed: it answered ${status}`);
}
