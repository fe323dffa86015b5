/**
 * Origins written with a shell variable (`https://$HOST`, `$APISERVER/apis`): the user's own
 * variable is the flow's base URL as it is, and a URL that starts with one needs its scheme.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { CurlRecord } from "./curl_request.ts";
import { ENV_MARKER, type EnvNames } from "./curl_shell.ts";
import { writtenAs } from "./curl_placeholders.ts";

/**
 * A URL that starts with a variable (`$APISERVER/apis`): a note that its value needs the scheme.
 *
 * @example
 * ```ts
 * import { bareNote } from "./curl_host_vars.ts";
 * const notes: string[] = [];
 * const url = new URL("http://zqzenv0zqz/apis");
 * bareNote([{ extras: { bareOrigin: true }, record: { url } }] as never, ["APISERVER"], notes);
 * if (!notes[0]?.startsWith("The URL starts with $APISERVER")) throw new Error(notes[0]);
 * ```
 */
export function bareNote(records: CurlRecord[], env: EnvNames, notes: string[]): void {
  const bareOne = records.find((r) => r.extras.bareOrigin);
  if (!bareOne) return;
  const name = writtenAs(env, env[Number(/zqzenv(\d+)zqz/.exec(bareOne.record.url.host)![1])]);
  notes.push(
    `The URL starts with ${name}, the flow's base URL as it is: set it with its scheme (https://…), where curl would take a bare host for http.`,
  );
}

/**
 * An origin written with `$NAME` (`https://$HOST`) is the user's own
 * variable already: its base-URL var is that text, with no `BASE_URL_n`
 * fallback (a fallback holds no expression). A URL that starts with the
 * variable (`$APISERVER/apis`, in `bare`) has the variable's value as its
 * origin, scheme included: the `http://` curl's reading assumed is dropped.
 *
 * @example
 * ```ts
 * import { hostVariables } from "./curl_host_vars.ts";
 * import { correlate } from "./correlate/mod.ts";
 * const c = correlate([], [], "a");
 * c.vars.push(["BASE_URL", "http://zqzenv0zqz"]);
 * c.origins.set("http://zqzenv0zqz", c.sp.varRef("BASE_URL"));
 * hostVariables(c, new Set(["http://zqzenv0zqz"]));
 * if (c.vars[0][1] !== "zqzenv0zqz") throw new Error(c.vars[0][1]);
 * ```
 */
export function hostVariables(c: Correlator, bare: Set<string>): void {
  const marker = new RegExp(ENV_MARKER.source);
  for (const [origin, ref] of c.origins) {
    if (!marker.test(origin)) continue;
    const at = c.vars.findIndex(([name]) => c.sp.varRef(name) === ref);
    const text = bare.has(origin) ? origin.replace(/^http:\/\//, "") : origin;
    if (at !== -1) c.vars[at] = [c.vars[at][0], text];
    for (const [name, v] of c.env) if (v.fallback === origin) c.env.delete(name);
  }
}
