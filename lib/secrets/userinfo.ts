/**
 * The password in a URL's userinfo (`scheme://user:password@host`), found
 * the way a URL parser finds it: the authority ends at the first `/`, `?`,
 * `#` (or `\` in http(s) URLs) after `//`, and the userinfo ends at the
 * authority's *last* `@`, so in `http://u:pa@ss@host` the password is
 * `pa@ss`, all of it. A URL that does not parse keeps everything between
 * `//` and its last `@` as userinfo, so a password nobody can parse is
 * still never shown in part.
 *
 * @module
 */

/**
 * How a URL is read. `proxy`: the URL names a proxy server, which has no
 * path, query or fragment, so its userinfo runs to its *last* `@` even past
 * a `/`, `?` or `#` a URL parser would end the authority at: the password
 * `12/pw` written unencoded in `http://u:12/pw@host` is all masked, not read
 * as a port and a path.
 */
export interface UserinfoOptions {
  proxy?: boolean;
}

/** The userinfo's password span `[start, end)` in `url`, or undefined when it has none. */
function passwordSpan(url: string, proxy = false): [number, number] | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (!scheme) return undefined;
  const start = scheme[0].length;
  let end = url.length;
  if (!proxy && URL.canParse(url)) {
    const stop = /^(?:https?|wss?|ftp|file):/i.test(url) ? /[/?#\\]/ : /[/?#]/;
    const found = url.slice(start).search(stop);
    if (found >= 0) end = start + found;
  }
  const at = url.lastIndexOf("@", end - 1);
  if (at < start) return undefined;
  const colon = url.indexOf(":", start);
  if (colon < 0 || colon >= at) return undefined;
  return [colon + 1, at];
}

/**
 * The password of a URL's userinfo in every form it is written or read: as
 * written, as a URL parser stores it (percent-encoded), and percent-decoded.
 * Empty when the URL has no password. Register each with the redactor: it
 * masks their other encodings too.
 *
 * @example
 * ```ts
 * import { userinfoSecrets } from "./userinfo.ts";
 * const forms = userinfoSecrets("http://ann:pa@ss wörd@proxy.test:3128");
 * if (!forms.includes("pa@ss wörd") || !forms.includes("pa%40ss%20w%C3%B6rd")) throw new Error(forms.join());
 * if (userinfoSecrets("http://proxy.test:3128/a@b").length !== 0) throw new Error();
 * if (!userinfoSecrets("http://u:12/pw@proxy.test:3128", { proxy: true }).includes("12/pw")) throw new Error();
 * ```
 */
export function userinfoSecrets(url: string, options: UserinfoOptions = {}): string[] {
  const span = passwordSpan(url, options.proxy);
  if (!span) return [];
  const raw = url.slice(span[0], span[1]);
  const forms = new Set([raw]);
  try {
    const parsed = new URL(url).password;
    if (parsed) forms.add(parsed);
  } catch {
    // Not a URL: the written form is all there is.
  }
  for (const form of [...forms]) {
    try {
      forms.add(decodeURIComponent(form));
    } catch {
      // A stray `%`: the form as written is what is sent.
    }
  }
  return [...forms].filter((form) => form !== "");
}

/**
 * `text` (one command-line word, or a URL) with its userinfo password
 * replaced by `***`, whatever its length; text without one is returned
 * unchanged. `--proxy=URL` words are masked after their `=`.
 *
 * @example
 * ```ts
 * import { maskUserinfo } from "./userinfo.ts";
 * if (maskUserinfo("http://ann:pa@ss@proxy.test:3128") !== "http://ann:***@proxy.test:3128") throw new Error();
 * if (maskUserinfo("--proxy=socks5://u:p@h:1080") !== "--proxy=socks5://u:***@h:1080") throw new Error();
 * if (maskUserinfo("https://api.test/a@b") !== "https://api.test/a@b") throw new Error();
 * if (maskUserinfo("http://u:12/pw@h:1", { proxy: true }) !== "http://u:***@h:1") throw new Error();
 * ```
 */
export function maskUserinfo(text: string, options: UserinfoOptions = {}): string {
  const url = /[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  if (!url) return text;
  const span = passwordSpan(text.slice(url.index), options.proxy);
  if (!span) return text;
  const [start, end] = [url.index + span[0], url.index + span[1]];
  return `${text.slice(0, start)}***${text.slice(end)}`;
}
