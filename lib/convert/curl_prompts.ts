/**
 * Prompts other than `$ ` before a typed command. A database's guide prints
 * its session after `> ` (`> curl -vX DELETE …`, `> HOST="http://…"`), zsh's
 * users paste `% `: read as shell, `>` redirected nothing into a file named
 * `curl`, and the command was dropped without a word. A `> ` or `% ` followed
 * by `curl` or a `NAME=` assignment is a prompt, read as `$ ` is (what the
 * command printed under it included: curl_transcript.ts); curl -v's own
 * `> PUT /x HTTP/1.1` and a quote's `> Note:` are left as they are.
 *
 * @module
 */

/**
 * A shell theme's prompt before `curl`: zsh's bare working directory (`~ `, `~/src/app $ `),
 * oh-my-zsh's `➜  ~ ` (and its `git:(main) ✗`), `❯ `, `λ `, `» `, bash's `user@host:~$ ` and
 * `[user@host ~]$ `. No command starts so: `~` alone is a folder, `➜` no program.
 */
const THEMED_PROMPT = new RegExp(
  "^([^\\S\\n]*)(" + [
    "[➜❯λ»›](?:[^\\S\\n]+[^\\s$]+)*?", // a theme's mark, then its cwd and branch words
    "~[\\w./-]*(?:[^\\S\\n]*[$%#])?", // zsh's cwd, maybe a `$` after it
    "[\\w.-]+@[\\w.-]+:[~/][\\w./-]*[$#%]", // bash's user@host:cwd$
    "\\[[\\w.-]+@[\\w.-]+[^\\]\\n]*\\][$#%]", // [user@host cwd]$
  ].join("|") + ")(?=[^\\S\\n]+curl\\s)",
  "gm",
);

/**
 * What starts curl's words after a prompt: an option, a URL, `localhost`, a host and port, an
 * IPv6 host or a `$VARIABLE`, maybe quoted. A sentence's "Run: curl is …" is no command.
 */
const CURL_ARGS = "[^\\S\\n]+['\"]?(?:-|[a-z][a-z0-9+.-]*:\\/\\/|localhost|\\[|[\\w.-]+:\\d|\\$)";

/** `curl` after a prompt's blank, then what starts curl's words. */
const CURL_START = `[^\\S\\n]+curl${CURL_ARGS}`;

/**
 * A `$` prompt glued to `curl` (`$curl -d '{…}' $HOST/…`), as a certificate authority's API page
 * prints one of its examples: read as shell it is the variable `$curl`, and the command was skipped.
 * `$curlopts` is another variable's name.
 */
const GLUED_PROMPT = new RegExp(`^([^\\S\\n]*)\\$(?=curl${CURL_ARGS})`, "gm");

/**
 * Any other prompt: up to three words, the last ending in a prompt's mark (`>`, `$`, `#`, `%`,
 * `:`), no quote, pipe, `;`, `&`, `=`, `\` or backtick among them, maybe after a virtualenv's
 * `(venv) `: Python's `>>>`, `[tool_cmd]>>:`, `bash-5.1$`, `sh-4.2#`, `me@mac ~ %`,
 * `redis 127.0.0.1:6379>`. No command's words are so before `curl`. A word and a colon is a
 * sentence's label ("Note: curl -X POST is needed"), no prompt; a heading's `## ` (a root `# `
 * prompt is `rootPrompts`'), PowerShell's `PS> ` and cmd.exe's `C:\> ` (curl_windows.ts) keep
 * their own readings.
 */
const CUSTOM_PROMPT = new RegExp(
  "^([^\\S\\n]*)((?:\\([\\w.-]+\\)[^\\S\\n]+)?(?!PS\\b)(?!#+[^\\S\\n])" +
    "(?:[^\\s'\"`|;&=\\\\]+[^\\S\\n]+){0,2}(?![A-Za-z][\\w-]*:[^\\S\\n])" +
    "[^\\s'\"`|;&=\\\\]*[>$#%:])" +
    `(?=${CURL_START})`,
  "gm",
);

/**
 * A prompt drawn as symbols outside ASCII, right before `curl` and what starts curl's words: a
 * security engine's API page prints `▶ curl -H "X-Api-Key: …" http://localhost:8080/…` (and
 * `→ `, `⚡ `, `★ ` are themes' too). No program is named with symbols only, so read as shell the
 * command was `▶`'s arguments and the page was refused; a letter or a digit (`λ` is THEMED_PROMPT's)
 * and an ASCII mark keep their readings.
 */
const SYMBOL_PROMPT = new RegExp(
  `^([^\\S\\n]*)([^\\x00-\\x7F\\p{L}\\p{N}\\s]+)(?=${CURL_START})`,
  "gmu",
);

/** A `> ` or `% ` prompt before `curl` or an assignment, leading blanks kept. */
const OTHER_PROMPT = /^(\s*)[>%](?= +(?:curl\s|[A-Za-z_][A-Za-z0-9_]*=))/gm;

/**
 * The text with each `> ` or `% ` prompt before a command written as `$ `
 * (same length: line and column numbers stay the input's; a `$` glued to
 * `curl` with no indent to borrow a blank from moves its line by one).
 *
 * @example
 * ```ts
 * import { dollarPrompts } from "./curl_prompts.ts";
 * if (dollarPrompts("> curl http://a.test/\n") !== "$ curl http://a.test/\n") throw new Error();
 * if (dollarPrompts("> PUT /x HTTP/1.1\n") !== "> PUT /x HTTP/1.1\n") throw new Error();
 * if (dollarPrompts("➜  ~ curl http://a.test/\n") !== "   $ curl http://a.test/\n") throw new Error();
 * if (dollarPrompts(">>> curl -s http://a.test/\n") !== "  $ curl -s http://a.test/\n") throw new Error();
 * if (dollarPrompts("## curl http://a.test/\n") !== "## curl http://a.test/\n") throw new Error();
 * if (dollarPrompts("  $curl -s http://a.test/\n") !== " $ curl -s http://a.test/\n") throw new Error();
 * if (dollarPrompts("$curlopts http://a.test/\n") !== "$curlopts http://a.test/\n") throw new Error();
 * if (dollarPrompts("▶ curl -s http://a.test/\n") !== "$ curl -s http://a.test/\n") throw new Error();
 * ```
 */
export function dollarPrompts(text: string): string {
  const asDollar = (_: string, blanks: string, prompt: string) =>
    `${blanks}${" ".repeat(prompt.length - 1)}$`;
  // `    $curl` borrows a blank of its indent for the prompt's (columns stay where there is one).
  const unglued = (_: string, blanks: string) => `${blanks.slice(1)}$ `;
  return text.replace(GLUED_PROMPT, unglued).replace(OTHER_PROMPT, "$1$$")
    .replace(THEMED_PROMPT, asDollar).replace(SYMBOL_PROMPT, asDollar)
    .replace(CUSTOM_PROMPT, asDollar);
}

/**
 * Root's `# ` prompt before `curl` and what starts a command's words: an option, a URL, a host
 * and port, `localhost` or a `$VARIABLE`; `# curl config for the shop API` stays a comment.
 */
const ROOT_PROMPT =
  /^([^\S\n]*)#(?=[^\S\n]+curl[^\S\n]+['"]?(?:-|[a-z][a-z0-9+.-]*:\/\/|localhost|\[|[\w.-]+:\d|\$))/gm;

/**
 * The text with root's `# ` prompt before each `curl` written as `$ `, for a
 * text in which nothing else is a curl command: a system monitor's API page
 * prints every example as `# curl http://localhost:61208/api/3/cpu` with the
 * answer under it, and read as shell each was a comment ("The input holds no
 * curl command"). `undefined` when no `# curl` is there. The caller asks only
 * when no command stood outside a comment: a script's commented-out command
 * beside its own stays a comment. A line the command carries on to (the
 * line above ends with `\`) loses its `#` too: a configuration's comment
 * block marks each line of the command it shows (`#   curl -X POST \`,
 * `#        -d '{…}' \`, `#         https://…`), and the shell would read
 * the rest as a comment.
 *
 * @example
 * ```ts
 * import { rootPrompts } from "./curl_prompts.ts";
 * if (rootPrompts("    # curl http://a.test/\n") !== "    $ curl http://a.test/\n") throw new Error();
 * if (rootPrompts("# a comment\n") !== undefined) throw new Error();
 * if (rootPrompts("# curl config for the shop API (-K)\n") !== undefined) throw new Error();
 * if (rootPrompts("# curl -X POST \\\n#  http://a.test/\n") !== "$ curl -X POST \\\n   http://a.test/\n") throw new Error();
 * ```
 */
export function rootPrompts(text: string): string | undefined {
  if (text.search(ROOT_PROMPT) === -1) return undefined;
  let carried = false;
  return text.split("\n").map((line) => {
    // A commented command carried on over `#` lines (a config file's `#   -H … \`): its lines.
    const own = carried ? line.replace(/^([^\S\n]*)#/, "$1 ") : line.replace(ROOT_PROMPT, "$1$$");
    carried = (carried || own !== line) && /\\\s*$/.test(own);
    return own;
  }).join("\n");
}
