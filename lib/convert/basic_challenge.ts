/**
 * Basic credentials a browser sent after a challenge the recording does not show. Asked for a
 * page behind HTTP Basic, the browser first sends the request without credentials, is answered
 * 401 with `WWW-Authenticate: Basic`, and sends it again with the user's `Authorization: Basic …`
 * (typed into its prompt, or given to it by the test driver); the recording keeps one entry for the
 * two: the request as first sent, with the final answer. From then on the browser sends the
 * credentials unasked, but only for the folder it was challenged on and deeper (RFC 7617 §2.2, the
 * protection space): the first request into another folder is challenged and hidden the same way
 * (Nagios 4's CGIs under `/cgi-bin/nagios4/` after its pages under `/nagios4/`). Replayed as
 * recorded, such a request is refused and the steps after it are skipped (Monit's web UI and
 * Nagios's, docs/real-servers-har.md). A request inside a space that already took them, recorded
 * bare and not refused, lost them in the recorder when it was answered with a redirect whose hop
 * sent them, or other requests of its path sent them: Playwright's HAR writes a request answered
 * with a redirect, and a page the history went back to, without the `Authorization` the browser
 * sent (Supervisor's links that act, `index.html?processname=reports&action=stop` answered 301).
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { responseHeaders } from "./handed.ts";

/**
 * Gives each request sent before its origin's first Basic credentials, and not refused, those
 * credentials: evidence, not a name, says the origin wants them (the browser sent them next), and
 * an answer other than 401 says the browser had them by then. So too the first request into a
 * folder: sent bare though no earlier credentials covered its folder, while a later request at or
 * under that folder sent them; and a request at or under a folder that already sent them,
 * recorded bare, answered with a redirect whose hop sent them or to a path others sent them to. Only when the origin took one Basic credential in the whole
 * recording (two users would leave it unclear whose). Returns how many requests it gave them to.
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
    const later = lastSentUnder(list);
    const covered = new Set<string>();
    for (const [i, r] of list.entries()) {
      // The page's own credentials for that request: sent as they are, given to no other.
      if (r.urlCredentials) continue;
      if (authorization(r) !== undefined) {
        covered.add(folderOf(r));
        continue;
      }
      // A request the server refused kept its challenge: the browser had no credentials then.
      if (r.status === 401) continue;
      const first = covered.size === 0;
      const inSpace = folders(r).some((f) => covered.has(f));
      // Bare though its folder had no credentials yet, which a later request of that folder took.
      const challenged = !inSpace && (later.get(folderOf(r)) ?? -1) > i;
      // Bare inside a space the browser held credentials for, answered with a redirect whose hop
      // sent them, or to a path other requests sent them to: the recorder lost them (Playwright's
      // HAR: Supervisor's `?action=stop`, 301, and the page history went back to).
      const lost = inSpace && lostByRecorder(list, i, credentials);
      if (!first && !challenged && !lost) continue;
      r.headers.push({ name: "Authorization", value: credentials });
      given++;
    }
  }
  return given;
}

/** Whether bare `list[i]` sent `credentials` by the evidence around it (see the module). */
function lostByRecorder(list: readonly HarRecord[], i: number, credentials: string): boolean {
  const path = list[i].url.pathname;
  return hopSent(list, i, credentials) ||
    list.some((o) => o.url.pathname === path && authorization(o) === credentials);
}

/**
 * Whether `list[i]` was answered with a redirect and the request to its `Location` that followed
 * sent `credentials`: the browser sent them on the hop before it too.
 */
function hopSent(list: readonly HarRecord[], i: number, credentials: string): boolean {
  const r = list[i];
  if (r.status === undefined || r.status < 300 || r.status >= 400) return false;
  const response = r.raw.response as { redirectURL?: unknown } | undefined;
  const to = responseHeaders(r).find((h) => h.name.toLowerCase() === "location")?.value ??
    (typeof response?.redirectURL === "string" ? response.redirectURL : "");
  if (!to) return false;
  let target: string;
  try {
    target = new URL(to, r.url).href;
  } catch {
    return false;
  }
  const hop = list.slice(i + 1).find((o) => o.url.href === target);
  return hop !== undefined && authorization(hop) === credentials;
}

/**
 * Each folder's last request (its index in `list`) that sent Basic credentials at or under it:
 * one pass over the requests and the folders above each, so it stays linear.
 */
function lastSentUnder(list: readonly HarRecord[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const [i, r] of list.entries()) {
    if (authorization(r) === undefined) continue;
    for (const f of folders(r)) last.set(f, i);
  }
  return last;
}

/** The folder of a request's path, up to its last `/`: where a browser keeps Basic credentials. */
function folderOf(r: HarRecord): string {
  const path = r.url.pathname;
  return path.slice(0, path.lastIndexOf("/") + 1);
}

/** The folder of a request's path and every folder above it, deepest first. */
function folders(r: HarRecord): string[] {
  const out: string[] = [];
  // "/a/b/" then "/a/" then "/": each step cuts the last folder's name.
  for (let f = folderOf(r); f.length > 0;) {
    out.push(f);
    f = f.length > 1 ? f.slice(0, f.lastIndexOf("/", f.length - 2) + 1) : "";
  }
  return out;
}

/**
 * The `Authorization` `r` sent that a browser keeps for its origin: a URL's user part is the page's
 * for that one request (`url_credentials.ts`), never what a prompt gave the browser before it.
 */
function authorization(r: HarRecord): string | undefined {
  if (r.urlCredentials) return undefined;
  return r.headers.find((h) => h.name.toLowerCase() === "authorization")?.value;
}

function isBasic(value: string): boolean {
  return /^basic\s+\S/i.test(value);
}
