/**
 * The head of an answer the docs paste under a `curl -i` command: its
 * status line and headers (`HTTP/1.1 200 OK`, `Token: hyr5…`,
 * `Set-Cookie: MMAUTHTOKEN=…`), in a transcript under a `$ ` prompt, in `#`
 * comments, bare under the command, or after `curl -v`'s `< ` marks. Servers that answer a login's token
 * in a header (Mattermost's `Token`, OpenStack's `X-Subject-Token`) are
 * documented so: the token a later command sends is in no body, and was
 * asked of the user. As the step's recorded response headers and cookies,
 * the stages shared with `convert har` and the login's token rule
 * (`curl_login_token.ts`) capture it from the header that held it; before,
 * the lines were read as shell (`Token:` a command skipped, a
 * `Set-Cookie`'s `;` splitting it) or ignored.
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";
import type { NameValue } from "./har_model.ts";
import type { ShellCommand } from "./curl_shell.ts";

/** An answer's head pasted into the text: the line it starts on (1-based), its status and headers. */
export interface PastedHead {
  line: number;
  status: number;
  headers: NameValue[];
  /** Whether it is a comment on a command's own line (`curl … # HTTP/1.1 204`): that command's. */
  inline?: boolean;
}

/** The status line curl `-i` prints: `HTTP/1.1 200 OK`, `HTTP/2 200`. */
const STATUS_LINE = /^\s*HTTP\/\d(?:\.\d)? (\d{3})(?:\s|$)/;
/** A status line in a comment ending a command's line: `curl -X DELETE … # HTTP/1.1 204`. */
const INLINE_STATUS = /\S\s+#\s?HTTP\/\d(?:\.\d)? (\d{3})(?: [A-Za-z][A-Za-z -]*)?\s*$/;
/**
 * A header line: a token, a colon, the value; indented as its status line may be, in a code
 * block's body (an rST `code-block` under "Example response:", Markdown's four spaces).
 */
const HEADER_LINE = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)\s*$/;
/** Most header lines one head may hold. */
const MAX_HEADERS = 100;

/** A `#` comment line's text, or `undefined` for a line that is none. */
const commentText = (line: string) => /^\s*#\s?(.*)$/.exec(line)?.[1];

/**
 * What `curl -v` printed of the answer's head on a line, after its `< ` mark (`< HTTP/1.1 402
 * Payment Required`, `< Set-Cookie: …`); `undefined` for any other line, a lone `<` (the head's
 * end) and the request's `> ` lines among them. No shell line starts with `< HTTP/`, so it is read
 * wherever it stands, printed under a prompt or not.
 */
const verboseText = (line: string) => /^\s*< (\S.*)$/.exec(line)?.[1];

/**
 * The last line of an answer's head starting at line `at` (its status line,
 * then its header lines), or `undefined` when no head starts there.
 *
 * @example
 * ```ts
 * import { headEnd } from "./curl_answer_head.ts";
 * const lines = ["HTTP/1.1 200 OK", "Token: t0k", "", "curl http://a.test/"];
 * if (headEnd(lines, 0) !== 1 || headEnd(lines, 3) !== undefined) throw new Error();
 * ```
 */
export function headEnd(lines: readonly string[], at: number): number | undefined {
  if (!STATUS_LINE.test(lines[at] ?? "")) return undefined;
  let end = at;
  while (end - at < MAX_HEADERS && HEADER_LINE.test(lines[end + 1] ?? "")) end++;
  return end;
}

/**
 * The heads the text prints: in `#` comments, and in lines the shell's view
 * (`shell`, the text with printed lines made blank) does not read.
 *
 * @example
 * ```ts
 * import { pastedHeads } from "./curl_answer_head.ts";
 * const text = "curl -i -d 'password=pw' http://a.test/login\n# HTTP/1.1 200 OK\n# Token: t0k\n";
 * const [head] = pastedHeads(text, undefined);
 * if (head.line !== 2 || head.status !== 200 || head.headers[0].value !== "t0k") throw new Error();
 * ```
 */
export function pastedHeads(text: string, shell: string | undefined): PastedHead[] {
  const lines = text.split("\n");
  const shown = shell?.split("\n");
  const own = lines.map((line, i) =>
    commentText(line) ?? verboseText(line) ??
      (shown && shown[i] === "" && line !== "" ? line : undefined)
  );
  const found: PastedHead[] = [];
  for (let i = 0; i < own.length; i++) {
    // A status in a comment on the command's own line (curl_prose_answers.ts wrote `# HTTP/1.1 204`).
    const inline = own[i] === undefined ? INLINE_STATUS.exec(lines[i])?.[1] : undefined;
    if (inline !== undefined) {
      found.push({ line: i + 1, status: Number(inline), headers: [], inline: true });
      continue;
    }
    const status = STATUS_LINE.exec(own[i] ?? "")?.[1];
    if (status === undefined) continue;
    const headers: NameValue[] = [];
    let k = i + 1;
    for (; k < own.length && headers.length < MAX_HEADERS; k++) {
      const m = HEADER_LINE.exec(own[k] ?? "");
      if (!m) break;
      headers.push({ name: m[1], value: m[2] });
    }
    // An interim head (`100 Continue`, `103 Early Hints`) comes before the answer's own.
    if (Number(status) >= 200) found.push({ line: i + 1, status: Number(status), headers });
    i = k - 1;
  }
  return found;
}

/** The cookie a `Set-Cookie` value sets: its first `name=value` pair. */
function setCookie(value: string): NameValue | undefined {
  const m = /^\s*([^=;\s]+)=([^;]*)/.exec(value);
  return m ? { name: m[1], value: m[2].trim() } : undefined;
}

/**
 * Gives each curl command's last record the first head pasted under it
 * (after the command's first line, before the next curl command begins):
 * its status, its headers as the record's response headers, the cookies
 * its `Set-Cookie` headers set.
 *
 * @example
 * ```ts
 * import { headRecords } from "./curl_answer_head.ts";
 * const command = { words: ["curl"], line: 1, column: 1, notes: [] };
 * const record = { url: new URL("http://a.test/login"), setCookies: [] as { name: string; value: string }[], raw: {} };
 * const headers = [{ name: "Set-Cookie", value: "sid=s-1; Path=/" }];
 * // deno-lint-ignore no-explicit-any
 * headRecords([{ command, records: [{ record } as any] }], [{ line: 2, status: 200, headers }]);
 * if (record.setCookies[0]?.value !== "s-1") throw new Error();
 * ```
 */
export function headRecords(
  built: readonly { command: ShellCommand; records: CurlRecord[] }[],
  heads: readonly PastedHead[],
): void {
  const starts = [...new Set(built.map((b) => b.command.line))].sort((a, b) => a - b);
  const headed = new Set<ShellCommand>();
  for (const head of heads) {
    const start = starts.filter((line) => head.inline ? line <= head.line : line < head.line)
      .at(-1);
    const owner = built.findLast((b) => b.command.line === start);
    const record = owner?.records.at(-1)?.record;
    if (!owner || !record || headed.has(owner.command)) continue;
    headed.add(owner.command);
    record.status = head.status;
    record.raw = { ...record.raw, response: { headers: head.headers } };
    for (const h of head.headers) {
      const cookie = /^set-cookie$/i.test(h.name) ? setCookie(h.value) : undefined;
      if (cookie && !record.setCookies.some((c) => c.name === cookie.name)) {
        record.setCookies.push(cookie);
      }
    }
  }
}
