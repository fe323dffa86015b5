/**
 * Basic credentials a browser sent after a challenge the recording does not show. Asked for a
 * page behind HTTP Basic, the browser first sends the request without credentials, is answered
 * 401 with `WWW-Authenticate: Basic`, and sends it again with the user's `Authorization: Basic …`
 * (typed into its prompt, or given to it by the test driver); the recording keeps one entry for the
 * two: the request as first sent, with the final answer. From then on the browser sends the
 * credentials unasked. Replayed as recorded, that first request is refused and the steps after it
 * are skipped (Monit's web UI, docs/real-servers-har.md).
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";

/**
 * Gives each request sent before its origin's first Basic credentials, and not refused, those
 * credentials: evidence, not a name, says the origin wants them (the browser sent them next), and
 * an answer other than 401 says the browser had them by then. Only when the origin took one Basic
 * credential in the whole recording (two users would leave it unclear whose). Returns how many
 * requests it gave them to.
 *
 * @example
 * ```ts
 * import { sendChallengedBasic } from "./basic_challenge.ts";
 * import { parseHar } from "./har_model.ts";
 * const auth = [{ name: "Authorization", value: "Basic YWRtaW46cHc=" }];
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "http://127.0.0.1:2812/" }, response: { status: 200 } },
 *   { request: { method: "GET", url: "http://127.0.0.1:2812/web", headers: auth }, response: { status: 200 } },
 * ] } }), []);
 * if (sendChallengedBasic(records) !== 1) throw new Error();
 * if (records[0].headers[0]?.value !== "Basic YWRtaW46cHc=") throw new Error();
 * ```
 */
export function sendChallengedBasic(records: readonly HarRecord[]): number {
  const byOrigin = new Map<string, HarRecord[]>();
  for (const r of records) {
    const list = byOrigin.get(r.url.origin) ?? [];
    list.push(r);
    byOrigin.set(r.url.origin, list);
  }
  let given = 0;
  for (const list of byOrigin.values()) {
    const sent = new Set(list.map(authorization).filter((v) => v !== undefined && isBasic(v)));
    if (sent.size !== 1) continue;
    const [credentials] = sent as Set<string>;
    for (const r of list) {
      if (authorization(r) !== undefined) break;
      // A request the server refused kept its challenge: the browser had no credentials then.
      if (r.status === 401) continue;
      r.headers.push({ name: "Authorization", value: credentials });
      given++;
    }
  }
  return given;
}

function authorization(r: HarRecord): string | undefined {
  return r.headers.find((h) => h.name.toLowerCase() === "authorization")?.value;
}

function isBasic(value: string): boolean {
  return /^basic\s+\S/i.test(value);
}
