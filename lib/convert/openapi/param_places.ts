/**
 * A parameter declared where a security scheme sends its credential (a
 * header, query parameter or cookie, `auth.ts`'s `placeOf`): its value is
 * a credential by where it goes, never by its name. Where the operation's
 * own scheme sends it, the scheme does and the parameter is left out;
 * where another apiKey scheme of the document sends its key (Apideck's
 * `x-apideck-app-id`, Trello's `token` of the other alternative), a
 * required one is sent from that scheme's variable, never the document's
 * example.
 *
 * @module
 */
import type { AuthSchemes, StepAuth } from "./auth.ts";

/** A parameter as the document gives it (`name`, `in`, `required`). */
export type PlacedParam = Record<string, unknown>;

/** What the step does with a parameter at a credential's place; none: it is an ordinary one. */
export type Placed = { send?: [string, string] } | undefined;

/**
 * Whether `p` is at a credential's place, and what is sent for it
 * (`send`, from a variable); the reason is pushed to `comments`.
 *
 * @example
 * ```ts
 * import { AuthSchemes } from "./auth.ts";
 * import { credentialParam } from "./param_places.ts";
 * const auth = new AuthSchemes({ components: { securitySchemes: {
 *   app: { type: "apiKey", in: "header", name: "X-App" } } } });
 * const comments: string[] = [];
 * const placed = credentialParam({ name: "X-App", in: "header", required: true }, new Map(), auth, comments);
 * if (placed?.send?.[1] !== "${ENV.API_KEY}" || comments.length !== 1) throw new Error();
 * if (credentialParam({ name: "q", in: "query", required: true }, new Map(), auth, []) !== undefined) throw new Error();
 * ```
 */
export function credentialParam(
  p: PlacedParam,
  places: StepAuth["places"],
  auth: AuthSchemes,
  comments: string[],
): Placed {
  const place = `${p.in} ${p.in === "header" ? String(p.name).toLowerCase() : p.name}`;
  const scheme = places.get(place);
  if (scheme !== undefined) {
    comments.push(
      `${p.in} ${p.name} is where "${scheme}" sends its credential: the document's value is left out`,
    );
    return {};
  }
  const key = p.required === true ? auth.keyAt(place) : undefined;
  if (key === undefined) return undefined;
  comments.push(`${p.in} ${p.name} is where "${key.scheme}" sends its key: read from ${key.env}`);
  return { send: [String(p.name), `\${ENV.${key.env}}`] };
}
