/**
 * Whether a pre-request script rewrites the request Postman is about to send
 * (its body or URL), itself (`pm.request.body.update(…)`) or through a helper
 * a collection or folder script defines (`req.json({ msg })` whose definition
 * calls `pm.request.body.update`). flowrun sends the request as the collection
 * holds it, so the summary names each such request rather than let its answer
 * differ from Newman's unexplained.
 *
 * @module
 */
import { helperCalls } from "./helper_checks.ts";
import type { PmScript } from "./model.ts";
import type { Shared } from "./flow_state.ts";

/** A write to the request's body or URL, as a script spells it. */
const WRITES = /\bpm\.request\.(?:body|url)\b[\s\S]*?\.(?:update|set|addQueryParams)\s*\(/;
/** `pm.request.body.raw = …`, `pm.request.url = …`: writes no call spells. */
const ASSIGNS = /\bpm\.request\.(body\.raw|url)\s*=(?!=)/g;
/** The writes of the body the step sends when script/request_body.ts reads them. */
const BODY_WRITE = /^pm\.request\.body\.(?:update$|raw =$)/;
/** The writes of the URL the step sends when script/request_url.ts and request_query.ts read them. */
const URL_WRITE = /^pm\.request\.url(?:\.update|\.addQueryParams| =)$/;
const WRITE_CALL = /^pm\.request\.(?:body|url)(?:\.\w+)*\.(?:update|set|addQueryParams)$/;

/**
 * The calls of `scripts`' pre-request scripts that rewrite the request's body
 * or URL, as written (`req.json`, `pm.request.body.update`); empty when none.
 *
 * @example
 * ```ts
 * import { requestRewrites } from "./request_rewrite.ts";
 * const calls = requestRewrites([
 *   { listen: "prerequest", owner: "collection", source: "req = { json(b) { pm.request.body.update(JSON.stringify(b)); } };" },
 *   { listen: "prerequest", owner: "Post", source: "req.json({ msg: 'hi' });" },
 * ]);
 * if (calls.join() !== "req.json") throw new Error(calls.join());
 * ```
 */
export function requestRewrites(scripts: readonly PmScript[]): string[] {
  return helperCalls(scripts, "prerequest", (t) => WRITES.test(t), (c) => WRITE_CALL.test(c)).names;
}

/**
 * Notes request `where` in `shared.rewritten` and its step's `comments` when
 * its pre-request scripts rewrite it (`bodySent`, `urlSent`: the step sends the
 * body, the URL they write).
 *
 * @example
 * ```ts
 * import { noteRewrites } from "./request_rewrite.ts";
 * const shared = { rewritten: [] as string[] } as unknown as Parameters<typeof noteRewrites>[2];
 * const comments: string[] = [];
 * noteRewrites([{ listen: "prerequest", owner: "Post", source: "pm.request.body.update('x');" }], "Post", shared, comments);
 * if (shared.rewritten?.[0] !== "Post" || comments.length !== 1) throw new Error(comments.join());
 * ```
 */
export function noteRewrites(
  scripts: readonly PmScript[],
  where: string,
  shared: Shared,
  comments: string[],
  bodySent = false,
  urlSent = false,
): void {
  // A body the script wrote that the step sends (script/request_body.ts) is no rewrite left out.
  const assigned = scripts.filter((s) => s.listen === "prerequest")
    .flatMap((s) => [...s.source.matchAll(ASSIGNS)].map((m) => `pm.request.${m[1]} =`));
  const rewrites = [...new Set([...requestRewrites(scripts), ...assigned])]
    .filter((call) => !(bodySent && BODY_WRITE.test(call)) && !(urlSent && URL_WRITE.test(call)));
  if (rewrites.length === 0) return;
  (shared.rewritten ??= []).push(where);
  comments.push(`untranslated: ${rewrites.join(", ")} rewrites this request; sent as written`);
}
