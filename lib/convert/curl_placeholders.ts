/**
 * The placeholders of API docs generated from one template, which the
 * reader fills in: the server's address written `<unleash-url>` before the
 * path (`<unleash-url>/api/admin/projects/:projectId/features`), and the
 * path's parameters written `:projectId` or `<featureName>`. Read as the
 * shell reads it, such a URL is no URL (`<` opens a redirection, a host
 * `<unleash-url>` cannot be parsed), and every command of Unleash's API
 * pages was refused. A placeholder that starts a URL becomes a variable
 * as `$APISERVER` does (the flow's base URL, with its scheme), and a
 * placeholder segment of its path a variable to set; so does a placeholder
 * host with its scheme and port (`http://<vmselect>:8481/…`), the whole
 * origin, and so does a URL whose port is a word (`http://host:port/…`), and a data field whose
 * whole value is a placeholder
 * (`-d 'format=<format>'`); one variable per name however the docs spell it (`:project-id` and `:projectId` are
 * `PROJECT_ID`). A header's `<API-token>` needs nothing here: the header's
 * value is asked for as any credential is.
 *
 * @module
 */
import { envMarker, type EnvNames } from "./curl_shell.ts";

/** A placeholder's name: a letter, then letters, digits, `-`, `_` or `.`. */
const NAME = "[A-Za-z][\\w.-]*";
/** A word that is a URL starting with a placeholder, and its path (whose `<…>` are whole segments). */
const PLACEHOLDER_URL = new RegExp(
  `^<(${NAME})>((?:/(?:<${NAME}>|[^\\s<>/]*))*(?:[?#][^\\s<>]*)?)$`,
);
/**
 * A URL whose host is a placeholder, between its scheme and maybe a port
 * (`http://<vmselect>:8481/select/0/…`, `http://<host>:<port>/…`): that
 * origin, the placeholder's name, and the path.
 */
const PLACEHOLDER_HOST = new RegExp(
  `^(https?://<(${NAME})>(?::(?:\\d+|<${NAME}>))?)((?:/(?:<${NAME}>|[^\\s<>/]*))*(?:[?#][^\\s<>]*)?)$`,
);
/**
 * A URL whose port is a word the reader fills in (`http://host:port/doveadm/v1`,
 * `http://localhost:PORT/…`): that origin, its host, and the path. A port is digits; a word
 * there is the docs' placeholder for the server's address.
 */
const PORT_WORD = /^(https?:\/\/([A-Za-z0-9][\w.-]*):[A-Za-z][A-Za-z_-]*)((?:[/?#][^\s]*)?)$/;

/**
 * A URL whose host the docs left out (`https://.../demo/rest/data/issue`, `https://…/api`): the
 * reader's address, the whole origin set, and the path.
 */
const ELIDED_HOST = /^(https?:\/\/(?:\.{3}|…))((?:[/?#][^\s]*)?)$/;

/** The variable a placeholder address is named for: its host when that is a word, else `base-url`. */
function addressName(host: string): string {
  const real = host.toLowerCase() === "localhost" || /[.\d]/.test(host);
  return real ? "base-url" : host;
}

/** A URL with a scheme and a host (or a `$NAME` marker), and its path. */
const URL_WORD = /^((?:https?:\/\/[^/?#\s]+)|zqzenv\d+zqz)(\/[^\s]*)?$/;
/** A whole segment of a path that is a placeholder: `:projectId`, `<featureName>`. */
const SEGMENT = new RegExp(`(?<=/)(?::(${NAME})|<(${NAME})>)(?=[/?#]|$)`, "g");

/** curl's options whose next word is `name=value` pairs joined by `&` (not `-F`: `<file` reads one). */
const DATA_OPTION = /^(?:-d|--data|--data-raw|--data-ascii|--data-urlencode)$/;
/** A pair whose whole value is a placeholder: `match[]=<selector>`, `format=<format>`. */
const FORM_VALUE = new RegExp(`(^|&)([^=&<>]+)=<(${NAME})>(?=&|$)`, "g");

/**
 * The data's pairs whose value is a placeholder as variables: docs leave
 * `-d 'match[]=<timeseries_selector_for_export>'` to the reader, who knows
 * what to fill in; sent as written, the server refuses the words.
 */
function formValues(env: EnvNames, word: string): string {
  return word.replace(
    FORM_VALUE,
    (_m, before: string, field: string, name: string) =>
      `${before}${field}=${marker(env, name, `<${name}>`)}`,
  );
}

/** How each variable a placeholder became was written, by the names' list. */
const spellings = new WeakMap<EnvNames, Map<string, string>>();

/** The variable a placeholder's name becomes: `project-id`, `projectId` → `PROJECT_ID`. */
function variableName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[^A-Za-z0-9]+/g, "_")
    .toUpperCase();
}

/** The marker for the placeholder `written` named `name`, its spelling remembered. */
function marker(env: EnvNames, name: string, written: string): string {
  const variable = variableName(name);
  if (!spellings.has(env)) spellings.set(env, new Map());
  const seen = spellings.get(env)!;
  if (!seen.has(variable)) seen.set(variable, written);
  return envMarker(env, variable);
}

/** The path with each placeholder segment a marker. */
function path(env: EnvNames, text: string): string {
  const [route, ...rest] = text.split(/(?=[?#])/);
  const filled = route.replace(
    SEGMENT,
    (whole, colon?: string, angle?: string) => marker(env, colon ?? angle!, whole),
  );
  return filled + rest.join("");
}

/**
 * A command's words with the placeholders of its URLs as variables (the
 * markers of `env`); every other word as it is.
 *
 * @example
 * ```ts
 * import { placeholderWords, writtenAs } from "./curl_placeholders.ts";
 * const env: string[] = [];
 * const [url] = placeholderWords(["<shop-url>/shops/:shopId"], env);
 * if (env.join() !== "SHOP_URL,SHOP_ID" || url !== "zqzenv0zqz/shops/zqzenv1zqz") throw new Error(url);
 * if (writtenAs(env, "SHOP_ID") !== ":shopId") throw new Error();
 * const [host] = placeholderWords(["http://<vmselect>:8481/select/0"], env);
 * if (host !== "zqzenv2zqz/select/0" || writtenAs(env, "VMSELECT") !== "http://<vmselect>:8481") throw new Error(host);
 * ```
 */
export function placeholderWords(words: readonly string[], env: EnvNames): string[] {
  return words.map((word, i) => {
    if (DATA_OPTION.test(words[i - 1] ?? "")) return formValues(env, word);
    const base = PLACEHOLDER_URL.exec(word);
    if (base) return marker(env, base[1], `<${base[1]}>`) + path(env, base[2] ?? "");
    // The docs' scheme and port are the reader's to fill with the host: the whole origin is set.
    const host = PLACEHOLDER_HOST.exec(word);
    if (host) return marker(env, host[2], host[1]) + path(env, host[3] ?? "");
    // `http://host:port/…`: no port, the reader's address; the whole origin is set too.
    const worded = PORT_WORD.exec(word);
    if (worded) return marker(env, addressName(worded[2]), worded[1]) + path(env, worded[3]);
    const elided = ELIDED_HOST.exec(word);
    if (elided) return marker(env, "base-url", elided[1]) + path(env, elided[2]);
    const url = URL_WORD.exec(word);
    return url && url[2] ? url[1] + path(env, url[2]) : word;
  });
}

/**
 * How the commands wrote the variable `name`: the placeholder's spelling
 * (`<shop-url>`, `:shopId`), else `$NAME`.
 *
 * @example
 * ```ts
 * import { writtenAs } from "./curl_placeholders.ts";
 * if (writtenAs([], "TOKEN") !== "$TOKEN") throw new Error();
 * ```
 */
export function writtenAs(env: EnvNames, name: string): string {
  return spellings.get(env)?.get(name) ?? `$${name}`;
}
