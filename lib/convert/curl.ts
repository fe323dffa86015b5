/**
 * `flowrun convert curl`: curl command lines (as a browser's "Copy as cURL"
 * writes them for bash or for Windows cmd, or as API docs print them) → a
 * flow with one step per request. Pure: text in, YAML text out; the same
 * text always gives the same bytes.
 *
 * The stages:
 *
 * 1. **Split** the text into commands of words as the shell would
 *    (`curl_shell.ts` for bash, `curl_cmd.ts` for cmd, `curl_ps.ts` for
 *    PowerShell, chosen by {@linkcode isPowerShell} and {@linkcode isCmd});
 *    `$NAME`, `${NAME}`, `%NAME%` and `$env:NAME` become `${ENV.NAME}`;
 *    lines that are not curl commands are skipped.
 * 2. **Read** each command's options as curl does (`curl_options.ts`) and
 *    build the requests it sends, one per URL (`curl_request.ts`).
 * 3. **Correlate and write** with the stages of `convert har`: the origin
 *    becomes `base_url` (reading `BASE_URL`), browser noise headers are
 *    dropped, `Authorization`, cookies, API-key headers and parameters and
 *    secret-named fields become required environment variables, form bodies
 *    `form:`, JSON bodies maps. Unlike a recording, a command is sent as
 *    written: no run id is mixed in and no value is made fresh.
 *
 * @module
 */
import { isCurlHeading } from "./curl_heading.ts";
import { htmlCodeText } from "./curl_html_code.ts";
import { hiddenNotes, withoutHtmlComments } from "./curl_hidden.ts";
import { withoutOtherCode, withoutScripts } from "./curl_code_blocks.ts";
import { rootPrompts } from "./curl_prompts.ts";
import { typedText } from "./curl_typed_text.ts";
import { refusalAnswers } from "./curl_refusal_answer.ts";
import { ttlWatches } from "./curl_ttl_watch.ts";
import { joinLostContinuations } from "./curl_lost_continuation.ts";
import { asUnixLines, windowsPrompts, type WindowsRead } from "./curl_windows.ts";
import { withAssigned } from "./curl_assigned.ts";
import { plural } from "../_util/plural.ts";
import { correlate, type Correlator, newCorrelator } from "./correlate/mod.ts";
import { isCmd, splitCmd } from "./curl_cmd.ts";
import { isPowerShell, splitPowerShell } from "./curl_ps.ts";
import { type CurlFiles, type CurlRecord, curlRecords } from "./curl_request.ts";
import { readCurlArgs } from "./curl_options.ts";
import { ADDED_URL_ABOUT, ADDED_URL_VAR, addUrls } from "./curl_added_url.ts";
import { type Unaddressed, wantsUrl } from "./curl_added_url.ts";
import { pipeFeeds } from "./curl_pipe.ts";
import { pipedArgs } from "./curl_fed.ts";
import { explained } from "./curl_files.ts";
import { ENV_MARKER, type EnvNames, type ShellCommand } from "./curl_shell.ts";
import type { HarRecord } from "./har_model.ts";
import type { Step } from "./model.ts";
import { curlRules, namesAsWritten, stepExtras } from "./curl_steps.ts";
import { ownAccounts } from "./curl_accounts.ts";
import { maskQuoted, writeAsTyped } from "./curl_typed.ts";
import { plainNames, plainPaths } from "./curl_plain.ts";
import { beforeExpression, DOLLAR_VAR } from "./dollar.ts";
import { describeCurlStep } from "./curl_describe.ts";
import { cookiesFromLogins } from "./curl_session.ts";
import { oneLoopbackOrigin } from "./curl_loopback.ts";
import { splitWithSubstitutions } from "./curl_subst.ts";
import { captureOutputs } from "./curl_outputs.ts";
import { SavedAnswers } from "./curl_saved.ts"; // `> snap.json`, then `-T snap.json`
import { WrittenFiles } from "./curl_made_files.ts"; // `cat > F <<EOF`, then `-d @F`
import { bareNote, hostVariables } from "./curl_host_vars.ts";
import { withoutJsonAnswers, withoutPrinted, withoutProse } from "./curl_transcript.ts";
import { pastedIntoRecords } from "./curl_answers.ts";
import { announcedRefusals } from "./curl_announced.ts";
import { withoutTables } from "./curl_tables.ts";
import { curlErrorLines } from "./curl_error_line.ts";
import { sharedJars } from "./curl_jar.ts";
import { checkRpcError } from "./correlate/rpc_errors.ts";
import { placeholderWords, writtenAs } from "./curl_placeholders.ts";
import { placeholderLoginUsers } from "./curl_login_user.ts";
import { createdPlaceholders } from "./curl_created.ts";
import { loginTokens } from "./curl_login_token.ts";
import { belowFourHundred } from "./curl_status_default.ts";
import { everyCommandSent } from "./curl_every_command.ts";
import { commandWords, IS_CURL } from "./curl_command_words.ts";

export type { CurlFiles } from "./curl_request.ts";
export { type CurlSummary, formatCurlSummary } from "./curl_summary.ts";
import { type CurlSummary, nothingToConvert } from "./curl_summary.ts";

/** Options of {@linkcode convertCurl}. */
export interface CurlOptions {
  /** The flow's name (default: "curl commands on <host>"). */
  name?: string;
  /** "a" (default) or "b", as for `convert har`. */
  spelling?: "a" | "b";
  /** How files the commands name are read; without it they are not. */
  files?: CurlFiles;
}

/** The flow text, the summary and the files the flow sends (none: they are the user's own). */
export interface CurlResult {
  /** The flow file's text: the same commands always give the same bytes. */
  yaml: string;
  /** What was converted, skipped, ignored and needs setting. */
  summary: CurlSummary;
  /** Always empty: the files commands send are the user's own, referenced where they are. */
  files: { path: string; text: string | Uint8Array<ArrayBuffer> }[];
}

/**
 * Converts curl commands into a flow. Throws a `UsageError`
 * `bad-curl` for a quote left open (with its line and column) and for text
 * with no curl command that sends an http(s) request.
 *
 * @example
 * ```ts
 * import { convertCurl } from "./curl.ts";
 * const { yaml, summary } = convertCurl(
 *   `curl 'https://api.test/v1/orders' -H 'Authorization: Bearer s3cr3t-t0ken' --data-raw '{"sku":"tea"}' -H 'content-type: application/json'`,
 * );
 * if (!yaml.includes("authorization: Bearer ${ENV.API_TOKEN}") || yaml.includes("s3cr3t")) throw new Error(yaml);
 * if (summary.steps !== 1 || summary.env[0] !== "API_TOKEN") throw new Error(JSON.stringify(summary));
 * ```
 */
export function convertCurl(
  text: string,
  options: CurlOptions = {},
): CurlResult {
  const env: EnvNames = [];
  // `C:\> curl … ^`: cmd.exe's session, or the Windows form beside a Unix one: curl_windows.ts.
  // `<pre>` as a reader copies it (curl_html_code.ts); what holds no command left out.
  const unhidden = withoutNoCommand(text);
  const windows = windowsPrompts(htmlCodeText(unhidden.text));
  const split = splitterFor(windows);
  // Prompts, `// =>` comments, `# You got {…}` answers, `for` loops, as typed: curl_typed_text.ts.
  const input = typedText(windows.text);
  const prompted = windows.shell ? asUnixLines(input, withoutPrinted) : withoutPrinted(input);
  // JSON printed bare under a bash command, a README's sentence ("isn't"): never shell either.
  const bash = split === splitWithSubstitutions;
  const printed = (bash ? withoutJsonAnswers(prompted ?? input) : undefined) ?? prompted;
  const shell = bash ? withoutProse(printed ?? input) : undefined;
  // `HOST="http://…"` then `curl $HOST/…`: the value the text assigned last, curl_assigned.ts.
  const typed = shell ?? printed ?? input;
  // `curl …` over `--data-binary '…'`, its `\` lost in the docs: one command, curl_lost_continuation.ts.
  const joined = joinLostContinuations(split(typed, env), typed.split("\n"));
  const commands = withAssigned(joined, env);
  const saved = new SavedAnswers(env);
  const parts = buildCommands(commands, { files: options.files, saved, text: input }, env);
  // An answer the docs print under a command is its step's recorded one: curl_answers.ts.
  pastedIntoRecords({ input, printed }, commands, parts.built);
  // A refusal the docs show in curl's error line, in words or as the answer: documentedRefusals.
  documentedRefusals(input, parts.built);
  // `-c cookies.txt`, then `-b cookies.txt`: the run's cookie jar, curl_jar.ts.
  sharedJars(parts.built);
  // A watch (`?wait=true`) for the expiry of a TTL an earlier write set: curl_ttl_watch.ts.
  ttlWatches(parts.built);
  createdPlaceholders(env, parts.built);
  // A skipped command is named as written: `$env:TOKEN = …`, not the marker its variable became.
  const skipped = inLineOrder(windows.skipped, parts.skipped).map((s) =>
    s.replace(ENV_MARKER, (_m, i) => `$${env[Number(i)]}`)
  );
  const built = parts.built;
  const all = built.flatMap((b) => b.records);
  if (all.length === 0) {
    // Every curl stood after `# `: root's prompt, not a comment (curl_prompts.ts).
    const rooted = rootPrompts(text);
    if (rooted !== undefined) return convertCurl(rooted, options);
    throw nothingToConvert(commands.length, skipped.length);
  }
  const c = correlated(all, options.spelling ?? "a", env);
  if (parts.asked) c.env.set(ADDED_URL_VAR, { about: ADDED_URL_ABOUT });
  const bare = new Set(all.filter((r) => r.extras.bareOrigin).map((r) => r.record.url.origin));
  const { ignored, notes } = carryExtras(c, env, built);
  notes.push(...hiddenNotes(unhidden.hidden));
  const captured = captureOutputs(c, built);
  saved.carry(c, built, captured, notes);
  loginTokens(c, built, { env, text: input }, notes);
  return finish(
    c,
    { env, bare, captured },
    { commands: built.length, skipped, ignored, notes },
    options,
  );
}

/** The docs' refusals: curl's error line, then words, then a refusal's message alone (first wins). */
function documentedRefusals(input: string, built: BuiltCommand[]): void {
  curlErrorLines(input, built);
  announcedRefusals(input, built);
  refusalAnswers(built);
}

/**
 * The text without what holds no command: `<!-- -->` (curl_hidden.ts), ```lua and an HTML
 * `<script>` (curl_code_blocks.ts) and a Markdown table (curl_tables.ts), line for line.
 */
function withoutNoCommand(text: string): ReturnType<typeof withoutHtmlComments> {
  const page = withoutScripts(text.replace(/^\ufeff/, ""));
  return withoutHtmlComments(withoutOtherCode(withoutTables(page)));
}

/** The shell the commands are typed for: a Windows prompt's, or the one the text is written for. */
function splitterFor(windows: WindowsRead): typeof splitCmd {
  if (windows.shell) return windows.shell === "cmd" ? splitCmd : splitPowerShell;
  // bash runs a command substitution's curl too (`eval "$(curl …)"`): curl_subst.ts.
  return isPowerShell(windows.text)
    ? splitPowerShell
    : isCmd(windows.text)
    ? splitCmd
    : splitWithSubstitutions;
}

/** One curl command, its records and the notes they share. */
interface BuiltCommand {
  command: ShellCommand;
  records: CurlRecord[];
  notes: string[];
  /** The files as this command reads them: a refusal is one of its notes. */
  files: CurlFiles | undefined;
}

/**
 * How a skipped command is named: its first word; an assignment named, not shown (its value may be
 * a credential: `HOST=http://u:pw@…`); a curl run as a `while` loop's body said so, as its runs
 * depend on what the loop reads (a `for` over written words is unrolled: curl_for_loop.ts).
 */
function skippedName(words: string[], isCurl: (words: string[]) => boolean): string {
  if (words[0] === "do" && isCurl(words.slice(1))) return "do curl (a loop's body: left out)";
  return (words[0] ?? "").replace(/^([A-Za-z_][A-Za-z0-9_]*)=[\s\S]*$/, "$1=…");
}

/** The records of each curl command; the commands that are not curl's, by line. */
function buildCommands(
  commands: ShellCommand[],
  { files, saved, text }: { files: CurlFiles | undefined; saved: SavedAnswers; text: string },
  env: EnvNames,
): { built: BuiltCommand[]; skipped: string[]; asked: boolean } {
  const skipped: string[] = [];
  const built: BuiltCommand[] = [];
  // Commands printed with no URL get one once every other command is read: curl_added_url.ts.
  const unaddressed: Unaddressed[] = [];
  const sent: string[] = [];
  const isCurl = (words: string[]) =>
    IS_CURL.test(words[0]?.split(/[\\/]/).at(-1) ?? "") && !isCurlHeading(words);
  const feeds = pipeFeeds(commands, (c) => isCurl(commandWords(c)));
  const made = new WrittenFiles();
  for (const command of commands) {
    const words = placeholderWords(commandWords(command), env);
    if (!isCurl(words)) {
      made.wrote(words, command.stdin);
      if (!feeds.has(command)) skipped.push(`line ${command.line}: ${skippedName(words, isCurl)}`);
      continue;
    }
    const notes: string[] = [];
    const known = made.around(files);
    const own = known && explained(saved.around(known), notes);
    const read = own && ((path: string) => own.read(path));
    const piped = command.pipedFrom && feeds.get(command.pipedFrom);
    const args = piped
      ? pipedArgs(words, piped, { command, files: own, notes })
      : readCurlArgs(words.slice(1), read, command.stdin);
    if (command.background && args.noBuffer) {
      built.push({ command, records: [], notes: [BACKGROUND_STREAM], files: own });
      continue;
    }
    saved.sends(args, command);
    if (wantsUrl(args)) unaddressed.push({ args, at: built.length });
    sent.push(...args.urls);
    const records = wantsUrl(args) ? [] : curlRecords(args, built.length, own, notes);
    built.push({ command, records, notes, files: own });
    saved.wrote(args, built.at(-1)!);
  }
  const asked = unaddressed.length > 0 && addUrls(unaddressed, built, { text, sent, env });
  return { built, skipped, asked };
}

/** `convert har`'s stages over the records, with curl's rules: a step each, sent as written. */
function correlated(all: CurlRecord[], spelling: "a" | "b", env: EnvNames): Correlator {
  // `"username": "username"` beside a password: the reader's own account, curl_login_user.ts.
  const loginUsers = placeholderLoginUsers(all, env);
  const c = newCorrelator(spelling, true);
  for (const [name, written] of loginUsers) {
    c.env.set(name, { about: `the user name the login sends, written as "${written}"` });
  }
  c.rules = curlRules(c, all.map((r) => r.record));
  c.byHand = true;
  oneLoopbackOrigin(all);
  cookiesFromLogins(all);
  const accounts = ownAccounts(
    c,
    all.map((r) => ({ record: r.record, user: r.extras.auth?.user })),
  );
  correlate(all.map((r) => r.record), all.map((r) => ({ records: [r.record] })), spelling, true, c);
  // A pasted answer shows what a server hands out, never a contract: docs print answers of
  // other sessions (etcd's page shows three clusters' ids), so nothing is asserted of it but
  // a JSON-RPC call's `error: null`, the protocol's word for success in a 200 (rpc_errors.ts).
  for (const step of c.steps) {
    step.checks = [];
    checkRpcError(step.last, step.checks);
  }
  belowFourHundred(c);
  everyCommandSent(c);
  namesAsWritten(c, accounts);
  return c;
}

/**
 * Each step given what its record could not hold (auth, multipart, body
 * file, options), `$NAME`s written plainly where a flow cannot expand them;
 * and what the summary lists: options ignored and notes, by step and line.
 */
function carryExtras(
  c: Correlator,
  env: EnvNames,
  built: BuiltCommand[],
): { ignored: string[]; notes: string[] } {
  const ignored: string[] = [];
  const notes: string[] = [];
  const stepOf = new Map(c.steps.map((s) => [s.first, s]));
  for (const { command, records, notes: commandNotes, files } of built) {
    for (const r of records) {
      const step = stepOf.get(r.record)!;
      plainPaths(r.extras, env);
      stepExtras(c, step, r.extras, files);
      plainNames(step, env, r.extras.notes);
      if (r.extras.ignored.length > 0) {
        ignored.push(
          `${step.name} (line ${command.line}): ${[...new Set(r.extras.ignored)].join(", ")}`,
        );
      }
    }
    const first = records[0] && stepOf.get(records[0].record);
    bareNote(records, env, commandNotes);
    // Once each: `-d @f` three times on a file that cannot be read says so once.
    for (const n of new Set([...command.notes, ...commandNotes])) {
      notes.push(`${first ? `Step ${first.name}` : "A command"} (line ${command.line}): ${n}`);
    }
  }
  return { ignored, notes };
}

const lineOf = (skipped: string) => Number(/^line (\d+)/.exec(skipped)?.[1] ?? 0);
/** The Windows commands left out among the others skipped, by line. */
const inLineOrder = (windows: string[], others: string[]) =>
  windows.length === 0 ? others : [...windows, ...others].sort((a, b) => lineOf(a) - lineOf(b));
/** `curl -N … &`: a watch the shell reads beside the commands after it, which a flow cannot. */
const BACKGROUND_STREAM =
  "curl -N … & reads a stream in the background while the commands after it run; a flow waits for each answer in turn, and this one never ends: it was left out.";

/** Writes the flow and its summary, the environment markers turned into references. */
function finish(
  c: Correlator,
  { env, bare, captured }: { env: EnvNames; bare: Set<string>; captured: Map<string, string> },
  done: Pick<CurlSummary, "commands" | "skipped" | "ignored" | "notes">,
  options: CurlOptions,
): CurlResult {
  const host = c.steps[0].first.url.host;
  const used = new Set<string>();
  // A "$" written before a variable ("\$$AMOUNT") comes from a var, or "$${" would escape it.
  const refer = (text: string) =>
    text.replace(
      new RegExp(`(\\$*)${ENV_MARKER.source}`, "g"),
      (_m, dollars: string, i: string) => {
        const name = env[Number(i)];
        used.add(name);
        // A variable docs read from an earlier answer (`TOKEN=$(curl … | jq -r .token)`).
        return beforeExpression(dollars) + (captured.get(name) ?? c.sp.envRef(name));
      },
    );
  hostVariables(c, bare);
  const ordered: HarRecord[] = c.steps.map((s) => s.first);
  const write = () =>
    writeAsTyped(c, {
      name: options.name ?? `curl commands on ${host}`,
      total: done.commands,
      ordered,
      notes: [...c.notes],
      source: {
        header: `Converted by flowrun convert curl from ${plural(done.commands, "curl command")}: ${
          plural(c.steps.length, "step")
        }.`,
        describe: (step: Step) => describeCurlStep(step, bare),
      },
    });
  let written = write();
  // The `$NAME`s the flow kept are listed with the variables to set: a second writing.
  for (const [, i] of written.yaml.matchAll(ENV_MARKER)) {
    const name = env[Number(i)];
    if (!c.env.has(name) && !captured.has(name)) {
      c.env.set(name, { about: `written as ${writtenAs(env, name)} in the command` });
    }
  }
  if (/\$zqzenv\d/.test(written.yaml)) c.vars.unshift([DOLLAR_VAR, "$"]);
  if (c.env.size > 0) written = write();
  const { yaml, notes } = written;
  const mask = maskQuoted(c.secrets);
  const out = refer(yaml);
  const required = [...c.env].filter(([, v]) => v.fallback === undefined).map(([n]) => n);
  const curl: CurlSummary = {
    ...done,
    steps: c.steps.length,
    env: required,
    notes: [...notes, ...done.notes].map(refer).map(mask),
  };
  const files = [...c.files].map(([path, text]) => ({ path, text }));
  return { yaml: out, summary: curl, files };
}
