/**
 * The comment above each step of `convert curl`: the request as curl sends it.
 *
 * @module
 */

import { isSecretName } from "../secrets/mod.ts";
import { isKeyData } from "../secrets/mod.ts";
import type { Step } from "./model.ts";

/**
 * A step's comment: what curl sends, secret-named query values masked (the
 * writer masks the rest); an origin written as a bare `$HOST` without the
 * scheme curl's reading assumed. The query is the typed one, byte for byte
 * as it goes out (`columns=name,rate`, `cols=[1]`): re-encoding it
 * (`name%2Crate`) would describe a request nobody sends.
 *
 * @example
 * ```ts
 * import { describeCurlStep } from "./curl_describe.ts";
 * const step = { method: "GET", first: { url: new URL("https://a.test/x?token=s&q=1") } } as never;
 * if (describeCurlStep(step, new Set()) !== "GET https://a.test/x?token=***&q=1") throw new Error();
 * ```
 */
export function describeCurlStep(step: Step, bare: Set<string>): string {
  const u = step.first.url;
  const origin = bare.has(u.origin) ? u.host : u.origin;
  const query = u.search.slice(1).split("&").map((pair) => {
    const eq = pair.indexOf("=");
    const name = safeDecode(pair.slice(0, eq));
    // A view's `keys=["a","b"]` is data shown as typed; a credential-shaped key stays masked.
    return eq !== -1 && isSecretName(name) && !isKeyData(name, safeDecode(pair.slice(eq + 1)))
      ? `${pair.slice(0, eq)}=***`
      : pair;
  });
  return `${step.method} ${origin}${u.pathname}${u.search === "" ? "" : `?${query.join("&")}`}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}
