/**
 * The words of one curl command read as curl reads its options: short
 * options clustered (`-sSL`) or with their value attached (`-XPOST`,
 * `-d@file`), long options with their value in the next word. What curl
 * sends is gathered into a {@linkcode CurlRequest}; options that only change
 * what curl prints are accepted quietly; options that change what is sent
 * but that a flow cannot carry, and options curl does not have, are listed
 * by name so the summary can say so. curl's option tables are
 * `curl_option_table.ts`; a `-K` file's lines are read by `curl_config.ts`.
 *
 * @module
 */
import { QUIET, QUIET_SHORT, SHORT, TAKES_VALUE } from "./curl_option_table.ts";
import { configWords } from "./curl_config.ts";
import { fromStdin, fromText } from "./curl_stdin.ts";
import { typesetOption } from "./curl_typeset_dash.ts";

/** One piece of request data, in the order the options came. */
export interface DataPiece {
  kind: "data" | "raw" | "binary" | "urlencode" | "json";
  text: string;
  /** The text is the data itself (standard input the command holds), never `@file`. */
  given?: true;
}

/** One `-F`/`--form-string` part. */
export interface FormPart {
  name: string;
  /** A text value, or the path after `@` (a file) or `<` (a file's text as the value). */
  value: string;
  from: "text" | "file" | "contents";
  type?: string;
  filename?: string;
  /**
   * Sent as a `{content}` part, its text's bytes as they are: an earlier
   * answer (`curl_saved.ts`), with the filename and type curl sends a file with
   * (`-F f=@saved`), or neither (`-F 'f=<saved'`); `base64`: its bytes, as
   * `{content_base64}`, for a saved file whose name says nothing of text.
   */
  content?: { filename?: string; type?: string; base64?: true };
}

/** What one curl command sends. */
export interface CurlRequest {
  /** `-X`'s method, when given. */
  method?: string;
  urls: string[];
  headers: [string, string][];
  data: DataPiece[];
  form: FormPart[];
  /** `-G`: the data goes into the query. */
  get: boolean;
  /** `-I`: a HEAD request. */
  head: boolean;
  /** `-g`: URLs are not globs. */
  globoff?: boolean;
  /** `-u`'s `user:password`. */
  user?: string;
  /** How `-u` is sent: Basic (curl's default, `--basic`), `--digest`, or `--aws-sigv4`'s signing. */
  scheme?: "digest" | "aws_sigv4";
  /** `--aws-sigv4`'s `provider1[:provider2[:region[:service]]]`. */
  sigv4?: string;
  /** `--oauth2-bearer`'s token. */
  bearer?: string;
  /** `-b` values that are cookies (`name=value; …`). */
  cookies: string[];
  /** `-T`'s file. */
  upload?: string;
  /** `--url-query` pieces, `--data-urlencode` syntax. */
  urlQuery: string[];
  /** The file standard input is redirected from (`< body.json`), when the command says. */
  stdin?: string;
  /**
   * Where the answer is written (`-o F`, `--output F`, `> F`; `-O` the URL's
   * last segment, `remote`), and whether `-i` puts the answer's head in it.
   */
  answer: { output?: string; remote?: boolean; head?: boolean };
  options: {
    insecure?: boolean;
    followRedirects?: boolean;
    timeout?: string;
    proxy?: string;
    /** `-U user:password`, the proxy's credentials when its URL has none. */
    proxyUser?: string;
    cert?: string;
    key?: string;
    cacert?: string;
    /** `-b FILE` and `-c FILE`: the cookie files it reads and writes (curl_jar.ts). */
    jarRead?: string;
    jarWrite?: string;
    /** The run's cookie jar, when the commands share a file (curl_jar.ts). */
    cookieJar?: boolean;
  };
  /** `-N`: the answer is read as it comes, a stream. */
  noBuffer?: boolean;
  /** Options not carried into the flow, as written (`--ntlm`, `--foo`). */
  ignored: string[];
  notes: string[];
}

/** An empty request. */
function emptyRequest(): CurlRequest {
  return {
    urls: [],
    headers: [],
    data: [],
    form: [],
    get: false,
    head: false,
    cookies: [],
    urlQuery: [],
    answer: {},
    options: {},
    ignored: [],
    notes: [],
  };
}

/**
 * Reads curl's arguments (the words after `curl`).
 *
 * @example
 * ```ts
 * import { readCurlArgs } from "./curl_options.ts";
 * const r = readCurlArgs(["-sSL", "-XPUT", "https://a.test/x", "-H", "A: b", "-d", "k=v", "--ntlm"]);
 * if (r.method !== "PUT" || r.urls[0] !== "https://a.test/x" || !r.options.followRedirects) throw new Error();
 * if (r.data[0].text !== "k=v" || r.ignored[0] !== "--ntlm") throw new Error(JSON.stringify(r));
 * ```
 */
export function readCurlArgs(
  words: string[],
  read?: (path: string) => string | undefined,
  stdin?: string,
): CurlRequest {
  const r = emptyRequest();
  const args: Args = { words: [...words], i: 0 };
  const ctx = readContext(r, args, read);
  const value = (written: string) => nextValue(r, args, written);
  let positional = false;
  while (args.i < args.words.length) {
    const word = positional ? args.words[args.i++] : optionWord(r, args.words[args.i++]);
    if (positional || !word.startsWith("-") || word === "-") operand(r, args, word);
    else if (word === "--") positional = true;
    else if (word.startsWith("--")) longOption(r, word, value, ctx);
    else shortCluster(r, word, value, ctx);
  }
  if (r.stdin !== undefined) fromStdin(r, r.stdin);
  else if (stdin !== undefined) fromText(r, stdin);
  return r;
}

/** `word`, or the option it means when a typesetter's dash stands for `-` or `--` (noted). */
function optionWord(r: CurlRequest, word: string): string {
  const meant = typesetOption(word);
  if (meant === undefined) return word;
  r.notes.push(
    `"${word}" is written with a typographic dash, which curl reads as a URL; it was read as "${meant}", the option the page meant.`,
  );
  return meant;
}

/** The command's words and the next one to read; -K's options are put in as they are read. */
interface Args {
  words: string[];
  i: number;
}

/** What option handlers may reach besides the request: files, and where -K's options go. */
interface ReadContext {
  read?: (path: string) => string | undefined;
  config(path: string): void;
}

/**
 * The handlers' context: a config file's options (`-K`, ten files at most)
 * are read next, where -K stood, as curl reads them in place.
 */
function readContext(
  r: CurlRequest,
  args: Args,
  read: ((path: string) => string | undefined) | undefined,
): ReadContext {
  let configs = 0;
  return {
    read,
    config(path) {
      const text = ++configs <= 10 ? read?.(path) : undefined;
      if (text === undefined) {
        r.notes.push(
          `-K "${path}" reads options from a file that could not be read; they are not carried.`,
        );
      } else args.words.splice(args.i, 0, ...configWords(text));
    },
  };
}

/** The next word, an option's value; a note when the command ends first. */
function nextValue(r: CurlRequest, args: Args, written: string): string | undefined {
  if (args.i >= args.words.length) {
    r.notes.push(`${written} has no value at the end of the command; it was ignored.`);
    return undefined;
  }
  return args.words[args.i++];
}

/**
 * A word that is not an option: a URL, or a redirection the shell left in
 * the words: `< file` (and `<file`, `0<file`) is standard input, and
 * `> out`, `2>&1`, `<<EOF` are read past.
 */
function operand(r: CurlRequest, args: Args, word: string): void {
  if (word === "<" || word === "0<") r.stdin = args.words[args.i++];
  else if (/^0?<[^<]/.test(word)) r.stdin = word.replace(/^0?</, "");
  else if (/^1?>$/.test(word)) r.answer.output = args.words[args.i++];
  else if (/^1?>[^>&|]/.test(word)) r.answer.output = word.replace(/^1?>/, "");
  else if (/^\d*>>?$/.test(word)) args.i++;
  else if (/^\d*>>?&?\S+$/.test(word) || /^</.test(word)) return;
  else r.urls.push(word);
}

/** `--name`, and its value from the next word when it takes one. */
function longOption(
  r: CurlRequest,
  word: string,
  next: (written: string) => string | undefined,
  ctx: ReadContext,
): void {
  const name = word.slice(2);
  const v = TAKES_VALUE.has(name) ? next(word) : "";
  if (v !== undefined) apply(r, name, v, word, ctx);
}

/** `-sSLXPOST`: flags, then one option that takes the rest of the word or the next. */
function shortCluster(
  r: CurlRequest,
  word: string,
  next: (written: string) => string | undefined,
  ctx: ReadContext,
): void {
  for (let k = 1; k < word.length; k++) {
    const letter = word[k];
    const long = SHORT[letter] ?? QUIET_SHORT[letter];
    if (long === undefined) {
      r.ignored.push(`-${letter}`);
      continue;
    }
    if (!TAKES_VALUE.has(long)) {
      apply(r, long, "", `-${letter}`, ctx);
      continue;
    }
    const v = k + 1 < word.length ? word.slice(k + 1) : next(`-${letter}`);
    if (v !== undefined) apply(r, long, v, `-${letter}`, ctx);
    return;
  }
}

/** Applies one option and its value. */
function apply(
  r: CurlRequest,
  name: string,
  v: string,
  written: string,
  ctx: ReadContext,
): void {
  if (name === "config") return ctx.config(v);
  if (name === "header" && v.startsWith("@")) return headerFile(r, v, ctx);
  const handler = HANDLERS[name];
  if (handler) return handler(r, v, name);
  if (QUIET.has(name) || Object.values(QUIET_SHORT).includes(name)) return;
  // Ignored unless a command reads the file back with `-b` (curl_jar.ts).
  if (name === "cookie-jar") r.options.jarWrite = v;
  r.ignored.push(written.startsWith("--") ? written : `${written} (--${name})`);
}

/** What each option that is carried does to the request. */
const HANDLERS: Record<string, (r: CurlRequest, v: string, name: string) => void> = {
  url: (r, v) => r.urls.push(v),
  "no-buffer": (r) => r.noBuffer = true,
  request: (r, v) => r.method = v,
  header,
  "user-agent": (r, v) => r.headers.push(["User-Agent", v]),
  referer: (r, v) => r.headers.push(["Referer", v.replace(/;auto$/, "")]),
  cookie,
  data: (r, v) => r.data.push({ kind: "data", text: v }),
  "data-ascii": (r, v) => r.data.push({ kind: "data", text: v }),
  "data-raw": (r, v) => r.data.push({ kind: "raw", text: v }),
  "data-binary": (r, v) => r.data.push({ kind: "binary", text: v }),
  "data-urlencode": (r, v) => r.data.push({ kind: "urlencode", text: v }),
  json: (r, v) => r.data.push({ kind: "json", text: v }),
  form: (r, v) => form(r, v, false),
  "form-string": (r, v) => form(r, v, true),
  get: (r) => r.get = true,
  head: (r) => r.head = true,
  globoff: (r) => r.globoff = true,
  user: (r, v) => r.user = v,
  basic: (r) => r.scheme = undefined,
  digest: (r) => r.scheme = "digest",
  "aws-sigv4": (r, v) => {
    r.scheme = "aws_sigv4";
    r.sigv4 = v;
  },
  "oauth2-bearer": (r, v) => r.bearer = v,
  "upload-file": (r, v) => r.upload = v,
  output: (r, v) => r.answer.output = v,
  "remote-name": (r) => r.answer.remote = true,
  include: (r) => r.answer.head = true,
  "url-query": (r, v) => r.urlQuery.push(v),
  insecure: (r) => r.options.insecure = true,
  location: (r) => r.options.followRedirects = true,
  "location-trusted": (r) => r.options.followRedirects = true,
  "max-time": (r, v) => {
    if (/^\d+(\.\d+)?$/.test(v)) r.options.timeout = `${Math.round(Number(v) * 1000)}ms`;
    else r.notes.push(`--max-time "${v}" is not a number of seconds; it was ignored.`);
  },
  proxy: (r, v) => r.options.proxy = /^[a-z0-9]+:\/\//i.test(v) ? v : `http://${v}`,
  "proxy-user": (r, v) => r.options.proxyUser = v,
  cert: (r, v) => r.options.cert = v,
  key: (r, v) => r.options.key = v,
  cacert: (r, v) => r.options.cacert = v,
};

/** `-b name=value; …` is cookies; `-b FILE` reads a cookie file, which is not carried. */
function cookie(r: CurlRequest, v: string): void {
  if (v.includes("=")) r.cookies.push(v);
  else {
    r.options.jarRead = v;
    r.notes.push(
      `-b "${v}" reads cookies from a file, which is not carried; send them with a Cookie header.`,
    );
  }
}

/** `-H @file`: each line of the file a header, as curl reads it. */
function headerFile(r: CurlRequest, v: string, ctx: ReadContext): void {
  const text = v === "@-" ? undefined : ctx.read?.(v.slice(1));
  if (text === undefined) {
    r.notes.push(
      `-H "${v}" reads headers from a file that could not be read; they are not carried.`,
    );
    return;
  }
  for (const line of text.split(/\r?\n/)) if (line.trim() !== "") header(r, line);
}

/** `-H "Name: value"`; `Name;` sends it empty; `Name:` only removes a header curl would add. */
function header(r: CurlRequest, v: string): void {
  if (v.startsWith("@")) {
    r.notes.push(`-H "${v}" reads headers from a file, which is not carried.`);
    return;
  }
  const colon = v.indexOf(":");
  const semi = v.indexOf(";");
  if (colon === -1 && semi !== -1 && v.slice(semi + 1).trim() === "") {
    r.headers.push([v.slice(0, semi).trim(), ""]);
  } else if (colon !== -1) {
    const value = v.slice(colon + 1).trim();
    if (value !== "") r.headers.push([v.slice(0, colon).trim(), value]);
  } else r.notes.push(`-H "${v}" is not a "Name: value" header; it was ignored.`);
}

/** `-F name=value`, `name=@file;type=…;filename=…`, `name=<file`. */
function form(r: CurlRequest, v: string, literal: boolean): void {
  const eq = v.indexOf("=");
  if (eq === -1) {
    r.notes.push(`-F "${v}" has no "name=content"; it was ignored.`);
    return;
  }
  const name = v.slice(0, eq);
  let rest = v.slice(eq + 1);
  if (literal) {
    r.form.push({ name, value: rest, from: "text" });
    return;
  }
  const from = rest.startsWith("@") ? "file" : rest.startsWith("<") ? "contents" : "text";
  if (from !== "text") rest = rest.slice(1);
  const part: FormPart = { name, value: rest, from };
  // `;type=` and `;filename=` follow the content; a quoted value keeps its `;`.
  const m = /^("(?:[^"\\]|\\.)*"|[^;]*)((?:;\s*[a-z]+=[^;]*)*)$/i.exec(rest);
  if (m) {
    part.value = m[1].startsWith('"') ? m[1].slice(1, -1).replace(/\\(.)/g, "$1") : m[1];
    for (const [, key, val] of m[2].matchAll(/;\s*([a-z]+)=([^;]*)/gi)) {
      if (key.toLowerCase() === "type") part.type = val;
      else if (key.toLowerCase() === "filename") part.filename = val.replace(/^"(.*)"$/, "$1");
      else r.notes.push(`-F "${name}=…;${key}=…" is not carried.`);
    }
  }
  r.form.push(part);
}
