/**
 * Correlation as a pipeline over the session's records: what the session
 * writes and who logs in (`writes.ts`, `logins.ts`), which ids the client
 * made (`ids.ts`), then each step in session order, its request rewritten
 * from what earlier responses produced (`steps.ts`, `rewrite_*.ts`,
 * `producers.ts`), then the notes (`notes.ts`).
 *
 * @module
 */
import { noteMovedOn } from "./moved_on.ts";
import { spanOf } from "./sent_times.ts";
import { noteRpcStates } from "./rpc_state.ts";
import type { HarRecord } from "../har_model.ts";
import type { Group } from "../polls.ts";
import { apiWords } from "./api_words.ts";
import { producerFor } from "./captures.ts";
import { countUuids, freshUuid } from "./ids.ts";
import { ownClientNames } from "./client_names.ts";
import { ownKeptNames } from "./kept_names.ts";
import { ownSluggedTitles } from "./slug_titles.ts";
import { ownDerivedNames } from "./derived_names.ts";
import { ownBrowserShortIds } from "./browser_short_ids.ts";
import { findLogins, freshOauthValues } from "./logins.ts";
import { addNotes } from "./notes.ts";
import { forgetRepeated } from "./repeated.ts";
import { produce } from "./producers.ts";
import { headers } from "./rewrite_headers.ts";
import { stringValue } from "./rewrite_value.ts";
import { type Correlator, emptyCorrelator, type Rules } from "./state.ts";
import { addStep } from "./steps.ts";
import { noteWrites } from "./writes.ts";
import { passwordFields } from "./password_fields.ts";
import { addChoiceFields } from "./choice_fields.ts";
import { textFields } from "./text_fields.ts";
import { freshChosenPasswords } from "./chosen_passwords.ts";
import { pageFilledPosts } from "./prefilled_passwords.ts";
import { ownMadeAccounts } from "./made_accounts.ts";
import { noteMadeTokens } from "./made_tokens.ts";
import { noteListedLater } from "./listed_later.ts";
import { lookupFields } from "./lookup_fields.ts";
import { pathOnlyLogins } from "./login_evidence.ts";

/**
 * The rules of a single recording, over `c`.
 *
 * @example
 * ```ts
 * import { defaultRules } from "./pipeline.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * c.rules = defaultRules(c);
 * if (c.rules.producerFor("x") !== undefined) throw new Error();
 * ```
 */
export function defaultRules(c: Correlator): Rules {
  return {
    producerFor: (value) => producerFor(c, value),
    stringValue: (key, value, step, where) => stringValue(c, key, value, step, where),
    freshUuid: (key, value) => freshUuid(c, key, value),
    headers: (r, step) => headers(c, r, step),
    produce: (step) => produce(c, step),
  };
}

/**
 * A fresh correlation of one session with the default rules; with
 * `linking` off (`--no-correlate`) no value is taken from a response.
 *
 * @example
 * ```ts
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("b", false);
 * if (c.linking || c.steps.length !== 0) throw new Error();
 * ```
 */
export function newCorrelator(spelling: "a" | "b", linking = true): Correlator {
  const c = emptyCorrelator(spelling, linking);
  c.rules = defaultRules(c);
  return c;
}

/**
 * Builds the steps of a session from its groups of records; with `linking`
 * off (`--no-correlate`) no value is taken from a response. `c` is a
 * correlation whose rules another recording overruled.
 *
 * @example
 * ```ts
 * import { correlate } from "./pipeline.ts";
 * import { loadBodies } from "../har_bodies.ts";
 * import { parseHar } from "../har_model.ts";
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
  c: Correlator = newCorrelator(spelling, linking),
): Correlator {
  c.span = spanOf(ordered);
  noteWrites(c, ordered);
  noteRpcStates(c, ordered);
  noteMovedOn(c, ordered);
  findLogins(c, ordered);
  countUuids(c, ordered);
  noteMadeTokens(c, ordered);
  noteListedLater(c, ordered);
  ownClientNames(c, ordered);
  ownKeptNames(c, ordered);
  ownSluggedTitles(c, ordered);
  ownDerivedNames(c, ordered);
  ownBrowserShortIds(c, ordered);
  for (const r of ordered) c.apiOrigins.add(r.url.origin);
  for (const word of apiWords(ordered)) c.apiWords.add(word);
  for (const name of passwordFields(ordered)) c.passwordFields.add(name);
  addChoiceFields(c, ordered);
  for (const name of textFields(ordered)) c.textFields.add(name);
  freshChosenPasswords(c, ordered);
  ownMadeAccounts(c, ordered);
  for (const name of lookupFields(ordered)) c.lookupFields.add(name);
  freshOauthValues(c, ordered);
  for (const r of pathOnlyLogins(c, ordered)) c.notLogins.add(r);
  // An edit whose password boxes send back what the page filled in keeps the password: no login.
  for (const r of pageFilledPosts(ordered, c.passwordFields)) c.notLogins.add(r);
  for (const group of groups) addStep(c, group.records, group.loop);
  forgetRepeated(c, ordered);
  addNotes(c);
  return c;
}
