/**
 * A command the docs print with no URL, the address left to the reader: JSON-RPC pages show
 * each method as `curl -X POST --data '{"jsonrpc":"2.0",…}'` under a sentence saying which
 * node to send it to ("add `127.0.0.1:8545` as the last argument", "replace with your node's
 * address"). curl itself refuses such a command, and so did the converter: the whole page was
 * "no curl command that sends a request". The reader's next step is to add the address, so
 * the converter does: the one local address the text's prose names, else the one URL every
 * other command sends to, else a variable the summary asks for. Decided by what the text
 * says, never by the method's name.
 *
 * @module
 */
import type { CurlRequest } from "./curl_options.ts";
import { envMarker, type EnvNames, type ShellCommand } from "./curl_shell.ts";
import { type CurlFiles, type CurlRecord, curlRecords } from "./curl_request.ts";

/** The variable a command with no URL is sent to when the text names no address. */
export const ADDED_URL_VAR = "SERVER_URL";

/** A local address as prose writes it: `127.0.0.1:8545`, `http://localhost:3000/rpc`. */
const LOCAL_ADDRESS =
  /(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)(?::\d{1,5})?(?:\/[^\s`'"<>()[\]{}*,;]*)?/gi;

/**
 * Whether a command with no URL would send a request once it had one: a body (`-d`, `-F`,
 * `-T`). A header or a method alone says too little: `curl -H 'X-A: 1'` is a fragment, and
 * `curl --version` sends nothing.
 *
 * @example
 * ```ts
 * import { wantsUrl } from "./curl_added_url.ts";
 * import { readCurlArgs } from "./curl_options.ts";
 * if (!wantsUrl(readCurlArgs(["-X", "POST", "--data", '{"id":1}']))) throw new Error();
 * if (wantsUrl(readCurlArgs(["--version"])) || wantsUrl(readCurlArgs(["-H", "X-A: 1"]))) throw new Error();
 * if (wantsUrl(readCurlArgs(["http://a.test/", "-d", "x"]))) throw new Error();
 * ```
 */
export function wantsUrl(req: CurlRequest): boolean {
  if (req.urls.length > 0) return false;
  return req.data.length > 0 || req.form.length > 0 || req.upload !== undefined;
}

/**
 * The one local address the text's prose names (not a command's line, its `\` lines or a
 * pasted JSON answer), with `http://` where the text wrote none; `undefined` when it names
 * none or several.
 *
 * @example
 * ```ts
 * import { proseAddress } from "./curl_added_url.ts";
 * const text = "Add `127.0.0.1:8545` as the last argument.\n\ncurl -X POST --data '{}'\n";
 * const at = proseAddress(text, [{ words: ["curl"], line: 3, column: 1, notes: [] }]);
 * if (at !== "http://127.0.0.1:8545") throw new Error(at);
 * if (proseAddress("Send it to localhost:1 or localhost:2.", []) !== undefined) throw new Error();
 * if (proseAddress("At localhost:1 (127.0.0.1:1).", []) !== "http://localhost:1") throw new Error();
 * ```
 */
export function proseAddress(text: string, commands: ShellCommand[]): string | undefined {
  const found = proseAddresses(text.split("\n"), commandLines(text, commands));
  return found.length === 1 ? found[0] : undefined;
}

/** The 0-based lines of the text the commands stand on: each first line and those `\` carried on to. */
function commandLines(text: string, commands: readonly ShellCommand[]): Set<number> {
  const lines = text.split("\n");
  const inCommand = new Set<number>();
  for (const { line } of commands) {
    // A command's own lines: the first and each one a `\` (or cmd's `^`) carried on to.
    for (let at = line - 1; at < lines.length; at++) {
      inCommand.add(at);
      if (!/[\\^`]\s*$/.test(lines[at])) break;
    }
  }
  return inCommand;
}

/**
 * The distinct local addresses `lines` name outside commands and pasted answers, with
 * `http://` where the text wrote none; one server spelled two ways (`localhost:8545`,
 * `127.0.0.1:8545`) is one address, the first written.
 */
function proseAddresses(lines: readonly string[], inCommand: ReadonlySet<number>): string[] {
  const found = new Map<string, string>();
  lines.forEach((line, at) => {
    // A pasted answer's members (`"url": "http://localhost/…"`) are what a server said.
    if (inCommand.has(at) || /\bcurl\b/.test(line) || /"\s*:/.test(line)) return;
    for (const [address] of line.matchAll(LOCAL_ADDRESS)) {
      const trimmed = address.replace(/[.:/]+$/, "");
      const url = /^https?:/i.test(trimmed) ? trimmed : `http://${trimmed}`;
      const key = url.toLowerCase().replace(
        /\/\/(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)/,
        "//",
      );
      if (!found.has(key)) found.set(key, url);
    }
  });
  return [...found.values()];
}

/**
 * On a page naming several local addresses, the one the nearest prose line over the command
 * at `line` (1-based) names, looking no further up than the command before it; `undefined`
 * when that line names none or several. "Create a user through the admin console at
 * http://localhost:8080:" over a command with no URL says where it goes.
 *
 * @example
 * ```ts
 * import { nearAddress } from "./curl_added_url.ts";
 * const text = "API: localhost:1, admin: localhost:2.\n\nAs admin (localhost:2):\ncurl -d x\n";
 * const command = { words: ["curl"], line: 4, column: 1, notes: [] };
 * if (nearAddress(text, [command], command) !== "http://localhost:2") throw new Error();
 * ```
 */
export function nearAddress(
  text: string,
  commands: readonly ShellCommand[],
  command: ShellCommand,
): string | undefined {
  const lines = text.split("\n");
  const inCommand = commandLines(text, commands);
  for (let at = command.line - 2; at >= 0 && !inCommand.has(at); at--) {
    const found = proseAddresses([lines[at]], new Set());
    if (found.length > 0) return found.length === 1 ? found[0] : undefined;
  }
  return undefined;
}

/**
 * The URL every command that has one sends to, when it is one and the same (a JSON-RPC
 * node's endpoint); its query left out.
 *
 * @example
 * ```ts
 * import { sharedUrl } from "./curl_added_url.ts";
 * if (sharedUrl(["http://n.test/rpc", "http://n.test/rpc?x=1"]) !== "http://n.test/rpc") throw new Error();
 * if (sharedUrl(["http://n.test/a", "http://n.test/b"]) !== undefined) throw new Error();
 * ```
 */
export function sharedUrl(urls: string[]): string | undefined {
  const bare = new Set(urls.map((u) => u.replace(/[?#].*$/, "")));
  return bare.size === 1 ? [...bare][0] : undefined;
}

/** A command with no URL, its options read, and its place among the commands. */
export interface Unaddressed {
  args: CurlRequest;
  at: number;
}

/** A command as the converter builds it: what {@linkcode addUrls} fills in. */
interface Built {
  command: ShellCommand;
  records: CurlRecord[];
  notes: string[];
  files: CurlFiles | undefined;
}

/**
 * Gives each command with no URL the address the text says, then its records: the one local
 * address of the prose; on a page naming several, the one the sentence over the command
 * names; on a page naming none, the one URL every other command sends to; else `$SERVER_URL`.
 * True when it asks for that variable and the text never wrote it.
 *
 * @example
 * ```ts
 * import { addUrls } from "./curl_added_url.ts";
 * import { readCurlArgs } from "./curl_options.ts";
 * const command = { words: ["curl"], line: 3, column: 1, notes: [] };
 * import type { CurlRecord } from "./curl_request.ts";
 * const built = [{ command, records: [] as CurlRecord[], notes: [] as string[], files: undefined }];
 * const args = readCurlArgs(["-X", "POST", "--data", '{"id":1}']);
 * addUrls([{ args, at: 0 }], built, { text: "Use localhost:8545.\n\ncurl …\n", sent: [], env: [] });
 * if (built[0].records[0].record.url.href !== "http://localhost:8545/") throw new Error();
 * ```
 */
export function addUrls(
  unaddressed: Unaddressed[],
  built: Built[],
  { text, sent, env }: { text: string; sent: string[]; env: EnvNames },
): boolean {
  const written = env.includes(ADDED_URL_VAR);
  const commands = built.map((b) => b.command);
  const named = proseAddresses(text.split("\n"), commandLines(text, commands));
  const prose = named.length === 1 ? named[0] : undefined;
  // A page naming several servers says there is more than one: the others' URL is no answer.
  const others = named.length === 0 ? sharedUrl(sent) : undefined;
  let asked = false;
  for (const { args, at } of unaddressed) {
    const b = built[at];
    const near = named.length > 1 ? nearAddress(text, commands, b.command) : undefined;
    const url = prose ?? near ?? others ?? envMarker(env, ADDED_URL_VAR);
    const from = prose !== undefined || near !== undefined
      ? "prose"
      : others !== undefined
      ? "others"
      : named.length > 1
      ? "several"
      : "asked";
    asked ||= from === "asked" || from === "several";
    b.notes.push(addedUrlNote(url, from));
    b.records = curlRecords({ ...args, urls: [url] }, at, b.files, b.notes);
  }
  return asked && !written;
}

/** What the summary says of {@linkcode ADDED_URL_VAR} when the converter made it up. */
export const ADDED_URL_ABOUT = "the server's URL the docs say to add to commands printed with none";

/** The note of a command sent to an address it did not write. */
function addedUrlNote(url: string, from: "prose" | "others" | "asked" | "several"): string {
  return from === "asked" || from === "several"
    ? `The command has no URL and the text names ${
      from === "asked" ? "no address" : "several, none in a sentence over it"
    }: it is sent to $${ADDED_URL_VAR}, the server's URL the docs say to add.`
    : `The command has no URL: it is sent to ${url}, ${
      from === "prose"
        ? "the address the text says to send it to"
        : "where every other command of the text is sent"
    }.`;
}
