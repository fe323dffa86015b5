/**
 * What the app's own scripts write under a name: `headers.Pass = "all"`,
 * `{"X-Auth-Mode": "session"}`. A request value named like a credential that
 * the app's script assigns to that very name as a quoted word is the same for
 * every user (rspamd's web UI sends `Pass: all` when its "pass all filters"
 * box is ticked), so it is no secret to ask for. The scripts are the
 * recording's JavaScript answers from the hosts the flow's requests go to,
 * dropped from the flow as static assets but still the evidence of what the
 * client sends. A value shaped like a key is not taken: an app's embedded
 * key stays a secret, never written.
 *
 * @module
 */
import { loadBodies } from "../har_bodies.ts";
import type { HarRecord } from "../har_model.ts";
import type { Correlator } from "./state.ts";
import { isSecretShaped } from "../values.ts";

/** A script read up to this: an app's bundle says what it sends long before. */
const SCRIPT_LIMIT = 5_000_000;

/** `name = "value"` or `name: "value"`, the name bare or quoted, the value a short quoted text. */
const ASSIGNED =
  /(?:^|[.\s{,;(])(["']?)([A-Za-z][\w-]{0,40})\1\s*[:=]\s*(["'])([^"'\\\r\n]{1,64})\3/g;

/** The key `c.scriptLiterals` holds `value` under `name` by: the name in lower case. */
export const literalKey = (name: string, value: string) => `${name.toLowerCase()}\u0000${value}`;

/**
 * Each name and quoted value the scripts `text` assign, as {@linkcode literalKey}s;
 * key-shaped values left out.
 *
 * @example
 * ```ts
 * import { assignedLiterals, literalKey } from "./script_literals.ts";
 * const got = assignedLiterals('if (all) headers.Pass = "all"; var o = {"X-Mode": \'fast\', apiKey: "AIzaSyD3v7cX9bq2LmR8tK1wP0sE4uY6hN5jQfA"};');
 * if (!got.has(literalKey("pass", "all")) || !got.has(literalKey("X-Mode", "fast"))) throw new Error();
 * if (got.has(literalKey("apiKey", "AIzaSyD3v7cX9bq2LmR8tK1wP0sE4uY6hN5jQfA"))) throw new Error();
 * ```
 */
export function assignedLiterals(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.slice(0, SCRIPT_LIMIT).matchAll(ASSIGNED)) {
    if (!isSecretShaped(m[4])) out.add(literalKey(m[2], m[4]));
  }
  return out;
}

/**
 * Adds to `c` what the recorded scripts of `all` assign, on the hosts the
 * `kept` requests go to (another site's script says nothing of the app).
 * Returns `c`.
 *
 * @example
 * ```ts
 * import { literalKey, noteScriptLiterals } from "./script_literals.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const script = {
 *   url: new URL("http://mail.test/js/upload.js"), mimeType: "application/javascript",
 *   raw: { response: {} }, responseText: 'headers.Pass = "all";',
 * };
 * const call = { url: new URL("http://mail.test/checkv2"), mimeType: "application/json" };
 * // deno-lint-ignore no-explicit-any
 * const c = noteScriptLiterals(newCorrelator("a"), [script, call] as any, [call] as any);
 * if (!c.scriptLiterals.has(literalKey("Pass", "all"))) throw new Error();
 * ```
 */
export function noteScriptLiterals(
  c: Correlator,
  all: readonly HarRecord[],
  kept: readonly HarRecord[],
): Correlator {
  const hosts = new Set(kept.map((r) => r.url.host));
  const scripts = all.filter((r) =>
    hosts.has(r.url.host) && /javascript|ecmascript/i.test(r.mimeType)
  );
  // The bodies of dropped records were never decoded; their limits are no note of the flow's.
  loadBodies(scripts.filter((r) => r.responseText === undefined), []);
  for (const r of scripts) {
    if (r.responseText === undefined) continue;
    for (const key of assignedLiterals(r.responseText)) c.scriptLiterals.add(key);
  }
  return c;
}
