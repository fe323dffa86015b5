/**
 * One recorded value rewritten for replay. The rules, in order: a value a
 * response produced is its capture, and so is a sequence number the same
 * endpoint's previous answer gave; an OAuth value the client made is its
 * fresh var; a `redirect_uri` of the app follows the base URL; an OAuth code
 * and a secret-named field become required variables; a generated value is
 * sent again; a client-made UUID is made fresh; a name in a write gets the
 * run id; anything else is sent as recorded, tokens inside it replaced.
 *
 * @module
 */
import { valueKey } from "../json.ts";
import type { Step } from "../model.ts";
import { isUuid, mixRunId } from "../values.ts";
import { ymap, type YNode, type YScalar } from "../yaml_out.ts";
import { useProducer } from "./captures.ts";
import { companionUrl } from "./companion_urls.ts";
import { ownHostOrigin } from "./own_host.ts";
import { prefilledMadeProducer } from "./prefilled_made.ts";
import { bodyIdProducer } from "./created_ids.ts";
import { graphqlIdProducer } from "./graphql_ids.ts";
import { listedRowProducer } from "./listed_rows.ts";
import { rpcListedProducer } from "./rpc_listed_ids.ts";
import { namedRowProducer } from "./sibling_rows.ts";
import { sameKeyIdProducer } from "./key_named_ids.ts";
import { linkedRowProducer } from "./row_links.ts";
import { searchedRowProducer } from "./searched_rows.ts";
import { markedRowProducer } from "./marked_rows.ts";
import { heldHidden } from "./hidden_fields.ts";
import { secretField } from "./secret_fields.ts";
import { clientConstant } from "./client_constants.ts";
import { clientSessionId } from "./client_sessions.ts";
import { sequenceProducer } from "./sequences.ts";
import { checkedRowProducer } from "./checked_rows.ts";
import { type Correlator, secretEnv, type Where } from "./state.ts";
import { madeIdsIn } from "./made_ids.ts";
import { freshToken } from "./made_tokens.ts";
import { isPageMadeSecret } from "./page_made_secrets.ts";
import { sameKeyProducer } from "./same_key.ts";
import { withTokens } from "./tokens.ts";

/** One rule: the template for `value`, or `undefined` when the rule does not apply. */
type ValueRule = (
  c: Correlator,
  key: string,
  value: string,
  step: Step,
  where: Where,
) => string | undefined;

/** The rules of {@linkcode stringValue}, first match wins. */
const VALUE_RULES: ValueRule[] = [
  // A small row id a save's redirect named (`id=1`), or a form held for the row its path names
  // (row_links.ts): first, as a page may also show a `1` (a select's option) no answer made.
  (c, key, value, step) => {
    const p = c.linking ? linkedRowProducer(c, key, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  // A list's checkbox ticking a row that row's labelled link named (checked_rows.ts).
  (c, key, value, step, where) => {
    const p = c.linking && where.body ? checkedRowProducer(c, key, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  (c, key, value, step) => {
    const found = c.rules.producerFor(value);
    if (!found) return undefined;
    // The answer's field of the same key, where it held the value under two (same_key.ts).
    const p = sameKeyProducer(found, key, value);
    // A field the client sent so before the answer, or its script writes so, is its own constant.
    return clientConstant(c, key, value, p) ? value : useProducer(c, p, step);
  },
  // A sequence number the same endpoint's previous answer gave (sequences.ts).
  (c, key, value, step) => {
    const p = c.linking ? sequenceProducer(c, key, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  // A small row id the same endpoint's read listed, sent back in a field named for it.
  (c, key, value, step, where) => {
    const p = c.linking && where.body ? listedRowProducer(c, key, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  // A small row id a search listed beside a name the journey gave it (searched_rows.ts).
  (c, _key, value, step, where) => {
    const p = c.linking && where.body ? searchedRowProducer(c, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  // A small row id a listed row's markup handed to this very field (marked_rows.ts).
  (c, key, value, step, where) => {
    const p = c.linking && where.body ? markedRowProducer(c, key, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  // A small row id a create answered, sent in a field named for its collection (`authorId`).
  (c, key, value, step) => {
    const p = c.linking ? namedRowProducer(c, key, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  // A small id a write answered under the very key a body sends it under (`tid`; key_named_ids.ts).
  (c, key, value, step, where) => {
    const p = c.linking && where.body ? sameKeyIdProducer(c, key, value) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  (c, _key, value) => generatedAgain(c, c.oauthFresh.get(value)),
  // An OAuth redirect_uri must equal the one the provider knows: the instance's own URL.
  (c, key, value) => /redirect_ur[il]$/i.test(key) ? appUrl(c, value) : undefined,
  // A URL of the app a hidden input held (`redirect_to`) or a request sent (gitit's sign-up
  // `?destination=`): the instance's own; a host an answer echoed is captured inside it instead.
  (c, key, value, step) =>
    heldHidden(c, key, value, step) || !URL.canParse(value) ||
      c.rules.producerFor(new URL(value).host) === undefined
      ? appUrl(c, value)
      : undefined,
  // The instance's own host and port without a scheme (`domain=127.0.0.1:3701`; own_host.ts).
  (c, _key, value, step) => {
    const origin = ownHostOrigin(c, value, step);
    return origin && baseRef(c, origin).replace(/^\$\{/, "${host:");
  },
  // A value the server made, sent back untouched from a text box its page prefilled (prefilled_made.ts).
  (c, key, value, step, where) => {
    const p = c.linking && where.body ? prefilledMadeProducer(c, key, value, step) : undefined;
    return p ? useProducer(c, p, step) : undefined;
  },
  // Another local service's address the user typed (a torrent client's RPC URL): a var (companion_urls.ts).
  (c, key, value, step) => companionUrl(c, key, value, step),
  oauthCode,
  // A session id no answer issued: the page made it, no credential to ask for (client_sessions.ts).
  (c, key, value, step) => clientSessionId(c, key, value, step?.last?.started),
  // A UUID or hex token the page made under a secret-sounding name no user holds (page_made_secrets.ts).
  (c, key, value) =>
    !isPageMadeSecret(c, key, value)
      ? undefined
      : isUuid(value)
      ? c.rules.freshUuid(key, value)
      : freshToken(c, key, value),
  secretField,
  (c, _key, value) => generatedAgain(c, c.generated.get(value)),
  (c, key, value) =>
    isUuid(value) && !c.responseSeen.has(valueKey(value))
      ? c.rules.freshUuid(key, value)
      : undefined,
  runIdMixed,
];

/**
 * A string sent in a body, query value or header value under `key` (the
 * default rule).
 *
 * @example
 * ```ts
 * import { stringValue } from "./rewrite_value.ts";
 * import { NOT_A_BODY } from "./state.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "get_me", uses: new Set() } as any;
 * if (stringValue(c, "api_key", "k3y-123456", step, NOT_A_BODY) !== "${ENV.API_KEY}") throw new Error();
 * if (stringValue(c, "q", "ruby", step, NOT_A_BODY) !== "ruby") throw new Error();
 * ```
 */
export function stringValue(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
  where: Where,
): string {
  for (const rule of VALUE_RULES) {
    const out = rule(c, key, value, step, where);
    if (out !== undefined) return out;
  }
  // An id the browser made inside a longer value (`ref=file:<uuid>`): the run's own.
  return withTokens(c, value, step, madeIdsIn(c, value, key));
}

/** A value generated before (or an OAuth var), sent again; counted as generated. */
function generatedAgain(c: Correlator, template: string | undefined): string | undefined {
  if (template) c.replaced.generated++;
  return template || undefined;
}

/** An OAuth authorization code (and its PKCE verifier) works once: a replay needs a new one. */
function oauthCode(c: Correlator, key: string, value: string, step: Step): string | undefined {
  if (value === "" || !/^(code|code_verifier)$/.test(key) || !c.oauthSteps.has(step)) {
    return undefined;
  }
  c.replaced.secrets++;
  const note =
    `Step "${step.name}" exchanges an OAuth authorization code, which cannot be replayed: set OAUTH_CODE (and OAUTH_CODE_VERIFIER for PKCE) from a fresh authorization, or log in another way.`;
  if (!c.notes.includes(note)) c.notes.push(note);
  return c.sp.envRef(
    secretEnv(
      c,
      key === "code" ? "OAUTH_CODE" : "OAUTH_CODE_VERIFIER",
      value,
      key === "code"
        ? "a fresh OAuth authorization code (a recorded one cannot be replayed)"
        : "the PKCE code_verifier that goes with OAUTH_CODE",
    ),
  );
}

/** A name or e-mail a write creates gets the run id, so a second run creates another. */
function runIdMixed(
  c: Correlator,
  key: string,
  value: string,
  _step: Step,
  where: Where,
): string | undefined {
  if (
    !where.body || !where.mutating || where.login || where.credentials ||
    c.responseSeen.has(valueKey(value)) || /\$$/.test(value.replace(/\d+$/, ""))
  ) return undefined;
  const mixed = mixRunId(key, value, (t) => c.sp.lit(t));
  if (!mixed) return undefined;
  c.replaced.generated++;
  c.generated.set(value, mixed);
  return mixed;
}

/**
 * A JSON value sent in a body: every string and number rewritten, the
 * shape kept.
 *
 * @example
 * ```ts
 * import { bodyValue } from "./rewrite_value.ts";
 * import { NOT_A_BODY } from "./state.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const step = { uses: new Set(), last: { url: new URL("http://h/items") } };
 * // deno-lint-ignore no-explicit-any
 * const out = bodyValue(c, [1, true, null], "", step as any, NOT_A_BODY);
 * if (JSON.stringify(out) !== "[1,true,null]") throw new Error(JSON.stringify(out));
 * ```
 */
export function bodyValue(
  c: Correlator,
  value: unknown,
  key: string,
  step: Step,
  where: Where,
  depth = 0,
  parent = "",
): YNode {
  if (Array.isArray(value)) {
    return value.map((v) => bodyValue(c, v, key, step, where, depth, parent));
  }
  if (typeof value === "object" && value !== null) {
    return ymap(
      Object.entries(value).map((
        [k, v],
      ) => [k, bodyValue(c, v, k, step, where, depth + 1, key)]),
    );
  }
  if (typeof value === "string") {
    const typed = c.linking ? graphqlIdProducer(c, [parent, key], value, depth, step) : undefined;
    return typed ? useProducer(c, typed, step) : c.rules.stringValue(key, value, step, where);
  }
  if (typeof value === "number") return numberValue(c, value, key, step);
  return value as YScalar;
}

/** A number a body sends under `key`: a capture when an answer gave it, else itself. */
function numberValue(c: Correlator, value: number, key: string, step: Step): YNode {
  const held = c.rules.producerFor(value);
  const p = (held && sameKeyProducer(held, key, value)) ??
    (c.linking
      ? bodyIdProducer(c, key, value, step) ?? namedRowProducer(c, key, String(value), step) ??
        rpcListedProducer(c, key, value, step) ?? pageNumber(c, value) ??
        sameKeyIdProducer(c, key, String(value))
      : undefined);
  return p ? useProducer(c, p, step) : value;
}

/**
 * The producer of a number a page held as text (a hidden `post_ID` the
 * editor's page made): a JSON body sends the same row as a number
 * (`{"id": 5}`), which WordPress's REST API reads before the route's id.
 */
function pageNumber(c: Correlator, value: number) {
  const p = Number.isInteger(value) ? c.rules.producerFor(String(value)) : undefined;
  return p?.source.kind === "regex" ? p : undefined;
}

/**
 * A value inside an encoded one (JSON in a query value): a capture, or
 * `undefined` to keep it.
 *
 * @example
 * ```ts
 * import { innerValue } from "./rewrite_value.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * if (innerValue(c, "first", 10, { uses: new Set() } as any) !== undefined) throw new Error();
 * ```
 */
export function innerValue(
  c: Correlator,
  key: string,
  value: unknown,
  step: Step,
): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const p = c.rules.producerFor(value) ??
    (typeof value === "string" && /^\d+$/.test(value)
      ? c.rules.producerFor(Number(value))
      : undefined);
  if (p) return useProducer(c, p, step);
  const gen = typeof value === "string" ? c.generated.get(value) : undefined;
  if (gen && /^\$\{[^}]+\}$/.test(gen)) return gen;
  if (typeof value === "string" && isUuid(value) && !c.responseSeen.has(valueKey(value))) {
    return c.rules.freshUuid(key, value);
  }
  return undefined;
}

/**
 * The base-URL var of an origin, declared at its first use.
 *
 * @example
 * ```ts
 * import { baseRef } from "./rewrite_value.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * if (baseRef(c, "https://a.test") !== "${vars.base_url}") throw new Error();
 * if (baseRef(c, "https://b.test") !== "${vars.base_url_2}") throw new Error();
 * ```
 */
export function baseRef(c: Correlator, origin: string): string {
  let base = c.origins.get(origin);
  if (!base) {
    const n = c.origins.size;
    const name = c.varNames.take(n === 0 ? "base_url" : `base_url_${n + 1}`);
    const env = n === 0 ? "BASE_URL" : `BASE_URL_${n + 1}`;
    c.env.set(env, { about: `the API's base URL`, fallback: origin });
    c.vars.push([name, c.sp.envRef(env, origin)]);
    base = c.sp.varRef(name);
    c.origins.set(origin, base);
  }
  return base;
}

/**
 * A URL of the API sent as a value (an OAuth `redirect_uri`): its base URL
 * var and the rest, so it follows the instance the flow runs against;
 * `undefined` for any other value.
 */
function appUrl(c: Correlator, value: string): string | undefined {
  const m = /^https?:\/\/[^/?#]+(?=$|[/?#])/.exec(value);
  if (!m || !URL.canParse(value)) return undefined;
  const origin = new URL(value).origin;
  if (m[0].toLowerCase() !== origin || !c.apiOrigins.has(origin)) return undefined;
  return `${baseRef(c, origin)}${c.sp.lit(value.slice(m[0].length))}`;
}
