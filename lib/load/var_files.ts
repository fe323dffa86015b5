/**
 * Variables from files: `--env-file` (dotenv syntax) and `--vars-file`
 * (a YAML or JSON map of scalars, and perhaps the run's `auth:` block,
 * which `auth_file.ts` loads). Pure: text in, a map of names to text out,
 * or a {@linkcode UsageError} naming the file, the line and the fix.
 *
 * Dotenv syntax, as the common dotenv tools read it: `NAME=value` lines,
 * optional `export `, `#` comments (whole lines, or after an unquoted value
 * and a space), blank lines; single-quoted values are literal, double-quoted
 * ones understand `\n`, `\t`, `\"` and `\\` and may span lines; unquoted
 * values are trimmed. No `${…}` expansion: flows have their own expressions.
 *
 * @module
 */
import { yamlEngine } from "./yaml_engine.ts";
import { parseBounded } from "./yaml_limits.ts";
import { UsageError } from "../model/errors.ts";
import { isName, nameHint } from "../model/names.ts";
import { lineShape } from "../secrets/line_shape.ts";
import { MASK, MIN_SECRET_LENGTH } from "../secrets/mod.ts";
import { writtenCredentials } from "./written_credentials.ts";

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** How deep lists and maps may nest in a `--vars-file` before it is refused unread (its values are single ones anyway). */
const MAX_VARS_NESTING = 64;

/**
 * Parses a dotenv file.
 *
 * @example
 * ```ts
 * import { parseEnvFile } from "./var_files.ts";
 * const env = parseEnvFile('# local\nexport BASE_URL=http://localhost:8080\nAPI_TOKEN="t-1 2"\nNOTE=\'a #b\' # why\n', ".env");
 * if (env.get("BASE_URL") !== "http://localhost:8080" || env.get("API_TOKEN") !== "t-1 2") throw new Error();
 * if (env.get("NOTE") !== "a #b") throw new Error(env.get("NOTE"));
 * ```
 */
export function parseEnvFile(text: string, file: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (!m || !NAME.test(m[1])) {
      throw new UsageError(
        "bad-env-file",
        `${file}:${i + 1}: expected NAME=value, got "${lineShape(line.slice(0, 60))}".`,
        "Write one variable per line, e.g. BASE_URL=http://localhost:8080 (lines starting with # are comments).",
      );
    }
    const [, name, value] = m;
    const quote = value[0];
    if (quote === "'" || quote === '"') {
      const quoted = quotedValue({ lines, at: i, name, value, quote, file });
      out.set(name, quoted.value);
      i = quoted.last;
    } else out.set(name, value.replace(/\s+#.*$/, "").trim());
  }
  return out;
}

/** A quoted value of a dotenv line, as read from `value` on line `at` on. */
interface QuotedValue {
  lines: string[];
  at: number;
  name: string;
  value: string;
  quote: string;
  file: string;
}

/**
 * A quoted value: it ends at its closing quote, on a later line for double
 * quotes; the value and the last line it is on.
 */
function quotedValue(input: QuotedValue): { value: string; last: number } {
  const { lines, name, quote, file } = input;
  let i = input.at;
  let raw = input.value.slice(1);
  let end = closing(raw, quote);
  while (end === -1 && quote === '"' && i + 1 < lines.length) {
    raw += `\n${lines[++i]}`;
    end = closing(raw, quote);
  }
  if (end === -1) {
    throw new UsageError(
      "bad-env-file",
      `${file}:${input.at + 1}: the value of ${name} opens a ${
        quote === '"' ? "double" : "single"
      } quote that is never closed.`,
      `Close it with ${quote} at the end of the value.`,
    );
  }
  const rest = raw.slice(end + 1).trim();
  if (rest !== "" && !rest.startsWith("#")) {
    throw new UsageError(
      "bad-env-file",
      // Not quoted: a quote inside the value ends it early, and the rest is the value's.
      `${file}:${i + 1}: unexpected text after the quoted value of ${name} (not shown: it may be ` +
        "part of the value).",
      "Put the whole value inside the quotes, or start a comment with #.",
    );
  }
  return { value: quote === '"' ? unescape(raw.slice(0, end)) : raw.slice(0, end), last: i };
}

/** The index of the quote that closes a value, skipping escaped ones in double quotes. */
function closing(raw: string, quote: string): number {
  for (let i = 0; i < raw.length; i++) {
    if (quote === '"' && raw[i] === "\\") i++;
    else if (raw[i] === quote) return i;
  }
  return -1;
}

function unescape(text: string): string {
  return text.replace(
    /\\([nrt"\\])/g,
    (_, c: string) => c === "n" ? "\n" : c === "r" ? "\r" : c === "t" ? "\t" : c,
  );
}

/**
 * Parses a `--vars-file`: a YAML (or JSON) map of names to scalars. Values
 * become text, as `--var` values are. A top-level `auth:` holding a block (a
 * map) is not a var: it is the run's auth, which {@linkcode readVarsFile}
 * tells of and `auth_file.ts` loads.
 *
 * @example
 * ```ts
 * import { parseVarsFile } from "./var_files.ts";
 * import { yamlEngine } from "./yaml_engine.ts";
 * await yamlEngine.load();
 * const vars = parseVarsFile("user: ann\nlimit: 10\ndebug: false\n", "vars.yaml");
 * if (vars.get("limit") !== "10" || vars.get("debug") !== "false") throw new Error();
 * ```
 */
export function parseVarsFile(text: string, file: string): Map<string, string> {
  return readVarsFile(text, file).vars;
}

/** What a `--vars-file` holds: its vars, and whether it has an `auth:` block. */
export interface VarsFileContent {
  /** The vars, as text. */
  vars: Map<string, string>;
  /** Its top-level `auth:` is a block (a map): the run's auth, as an `--auth-file`'s would be. */
  auth: boolean;
}

/**
 * Reads a `--vars-file`: its vars, and whether its top-level `auth:` is an
 * auth block (a map). An `auth:` with a single value stays a var named `auth`,
 * as it always was.
 *
 * @example
 * ```ts
 * import { readVarsFile } from "./var_files.ts";
 * import { yamlEngine } from "./yaml_engine.ts";
 * await yamlEngine.load();
 * const read = readVarsFile('token: t-1\nauth:\n  bearer: {token: "${token}"}\n', "vars.yaml");
 * if (!read.auth || read.vars.has("auth") || read.vars.get("token") !== "t-1") throw new Error();
 * if (readVarsFile("auth: basic\n", "vars.yaml").vars.get("auth") !== "basic") throw new Error();
 * ```
 */
export function readVarsFile(text: string, file: string): VarsFileContent {
  const data = readVarsYaml(text.replace(/^\uFEFF/, ""), file);
  if (data === null || data === undefined) return { vars: new Map(), auth: false };
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new UsageError(
      "bad-vars-file",
      `${file} must hold a map of names to values, not ${
        Array.isArray(data) ? "a list" : "a single value"
      }.`,
      "For example: user: ann",
    );
  }
  const vars = new Map<string, string>();
  let auth = false;
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    if (name === "auth" && isBlock(value)) auth = true;
    else vars.set(name, varValue(name, value, file));
  }
  return { vars, auth };
}

/** A map (not a list): what an `auth:` block is. */
function isBlock(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The YAML (or JSON) of a `--vars-file`, parsed; a `UsageError` when it cannot be. */
function readVarsYaml(source: string, file: string): unknown {
  // Vars are single values; lists or maps nested without end overflowed the parser's stack,
  // and the message named that instead of the place.
  const bounded = parseBounded(source, undefined, MAX_VARS_NESTING);
  if ("tooDeepAt" in bounded) {
    const before = source.slice(0, bounded.tooDeepAt);
    const line = before.split("\n").length;
    throw new UsageError(
      "bad-vars-file",
      `${file}:${line}:${bounded.tooDeepAt - before.lastIndexOf("\n")}: lists or maps nest ` +
        `more than ${MAX_VARS_NESTING} levels deep here; vars from files are text.`,
      "Write one name: value per line, or a JSON object of single values.",
    );
  }
  try {
    return yamlEngine.get().parse(source);
  } catch (error) {
    throw new UsageError(
      "bad-vars-file",
      `${file} is not YAML or JSON: ${unquoted((error as Error).message.split("\n")[0], source)}`,
      "Write one name: value per line, or a JSON object.",
    );
  }
}

/**
 * The parser's `message` without the values `source` writes under secret names: it quotes an
 * alias or a tag (`Unresolved alias …: <token>`, `The !<password> tag has no suffix`), and an
 * unread file has taught the run none of its secrets. An alias is quoted without its `*`.
 */
function unquoted(message: string, source: string): string {
  const written = writtenCredentials(source).flatMap((c) => [c, c.replace(/^[*&!]+/, "")]);
  return written
    .filter((c) => c.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length)
    .reduce((text, c) => text.replaceAll(c, MASK), message);
}

/** A var's value from a `--vars-file` as text; a `UsageError` for a bad name or a list or map. */
function varValue(name: string, value: unknown, file: string): string {
  if (!isName(name) || name === "RUN_ID" || name === "TRACE_ID") {
    throw new UsageError(
      "bad-vars-file",
      `${file}: "${name}" cannot be a var name.`,
      nameHint("user_id", true),
    );
  }
  if (value !== null && typeof value === "object") {
    throw new UsageError(
      "bad-vars-file",
      `${file}: the value of "${name}" is a ${
        Array.isArray(value) ? "list" : "map"
      }; vars from files are text.`,
      "Give it a single value, e.g. a JSON string of the list.",
    );
  }
  return value === null ? "" : String(value);
}
