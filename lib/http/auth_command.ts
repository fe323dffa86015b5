/**
 * `bearer: {command: [gh, auth, token]}`: the bearer token a program prints.
 * The argument list is rendered (each item may be an expression) and run
 * once per run per distinct list, the run's token cache sharing it with
 * every flow and `--jobs` worker (uses that arrive while it runs wait for
 * that one run); with `refresh_after` it runs again once its token is that
 * old, and after the API answers 401 to its token it runs again once and the
 * request is sent once more. Its stdout, trimmed, is the token, a secret
 * from the moment it is read. Bounded by `io/run_command.ts`: the run's
 * `--timeout`, 64 KiB of stdout, the last 4 KiB of stderr. Every failure is
 * the step's `error`, naming the program (never its arguments) and why.
 *
 * @module
 */
import type { BearerCommandAuth } from "../model/auth.ts";
import { CommandError, type CommandResult, runCommand } from "../io/run_command.ts";
import type { AuthFactory, AuthServices } from "./auth.ts";
import { cachedBearer } from "./cached_bearer.ts";
import { AuthError } from "./auth_error.ts";
import type { Token } from "./token_cache.ts";
import { around, joined, ownWords, type Told, told } from "../model/told.ts";
import { clipped } from "../_util/clip.ts";

/**
 * The most a token command may print: a token is a few hundred bytes, a
 * few KiB for a JWT with many claims.
 *
 * @example
 * ```ts
 * import { MAX_COMMAND_OUTPUT } from "./auth_command.ts";
 * if (MAX_COMMAND_OUTPUT !== 65_536) throw new Error();
 * ```
 */
export const MAX_COMMAND_OUTPUT = 65_536;

/** The end of stderr kept: its last line says why a command failed. */
const MAX_STDERR = 4096;

/**
 * The `bearer` kind's `command` form.
 *
 * @example
 * ```ts
 * import { commandBearer } from "./auth_command.ts";
 * const auth = { kind: "bearer" as const, command: [Deno.execPath(), "eval", "console.log(' tok ')"].map((s) => ({ source: s, parts: [s] })) };
 * const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await commandBearer(auth, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 10_000 }).apply(request);
 * if (request.headers[0][1] !== "Bearer tok") throw new Error(request.headers[0][1]);
 * ```
 */
export const commandBearer: AuthFactory = (auth, render, services) => {
  const spec = auth as BearerCommandAuth;
  return cachedBearer(services, () => {
    const argv = spec.command.map(render);
    return { key: JSON.stringify(["command", argv]), fetch: () => tokenOf(argv, spec, services) };
  });
};

/** Runs the command; its trimmed stdout as a token, or an `AuthError` naming the program. */
async function tokenOf(
  argv: string[],
  spec: BearerCommandAuth,
  services: AuthServices,
): Promise<Token> {
  const program = argv[0];
  // The program as rendered is a value (an expression may give it); the rest is flowrun's words.
  const what = told`The bearer token command "${program}"`;
  if (!program) {
    throw new AuthError(ownWords(
      `The bearer token command's program "${
        spec.command[0].source
      }" is empty: the variable it reads is unset or empty.`,
    ));
  }
  const result = await ran(argv, what, services);
  const token = result.stdout.trim();
  // Registered before any message is made: stderr may echo it. Of output that is not one token,
  // each line shaped like one (a word of 8 or more characters) too, not a line of prose.
  if (token) services.secret(token);
  for (const line of token.split(/\r?\n/)) {
    if (/^\S{8,}$/.test(line.trim())) services.secret(line.trim());
  }
  if (result.code !== 0) {
    throw new AuthError(
      joined(what, told` exited with code ${result.code}`, lastLine(result.stderr)),
    );
  }
  if (!token) {
    throw new AuthError(joined(what, ownWords(" printed no token (its stdout was empty).")));
  }
  // Whitespace inside, or a control character: not one token, and not a valid header value.
  if (/\s/.test(token) || [...token].some((c) => c < " " || c === "\x7f")) {
    throw new AuthError(joined(
      what,
      ownWords(
        " printed more than one line or word; a token is one word on one line (" +
          "print only the token, e.g. gh auth token, gcloud auth print-access-token, " +
          "az account get-access-token --query accessToken -o tsv).",
      ),
    ));
  }
  const renew = spec.refreshAfterMs === undefined
    ? {}
    : { renewAt: performance.now() + spec.refreshAfterMs };
  return { accessToken: token, ...renew };
}

/** What the command printed and its exit code, or an `AuthError` saying why it did not run. */
async function ran(argv: string[], what: Told, services: AuthServices): Promise<CommandResult> {
  try {
    return await runCommand(argv, {
      timeoutMs: services.timeoutMs,
      signal: services.signal,
      maxStdoutBytes: MAX_COMMAND_OUTPUT,
      maxStderrBytes: MAX_STDERR,
    });
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    const reason = error.reason ? around("it ", error.reason, "") : told`${lower(error.message)}`;
    throw new AuthError(joined(
      what,
      around(" failed: ", reason, ""),
      lastLine(error.stderr),
      ownWords(error.code === "command-not-permitted" ? PERMISSION : ""),
    ));
  }
}

/** Deno's run permission is not the run's to grant: where it is given. */
const PERMISSION = " The flowrun binaries and installs never have it: run flowrun from source " +
  'with deno run --allow-run=PROGRAM, or hand the token in with token: "${ENV.TOKEN}" ' +
  "(see docs/flow-format.md#a-token-from-a-command).";

/** The last line stderr printed, as a clause of the message: a value, masked where it is shown. */
function lastLine(stderr: string): Told {
  const line = stderr.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).at(-1);
  return line ? told`: ${clipped(line, 300)}` : ownWords(".");
}

function lower(message: string): string {
  return message.replace(/^The program "[^"]*" /, "it ").replace(/\.$/, "");
}
