/**
 * `bearer:` of an `auth` block: `token:` (an expression), or `command:`,
 * the program that prints the token (`[gh, auth, token]`) as a list of
 * arguments, never a shell line, so no value can be read as shell syntax.
 * A flow file that runs a program is code: `command` is refused unless the
 * run is given `--allow-commands` (`LoadOptions.allowCommands`).
 *
 * @module
 */
import type { Node } from "yaml";
import { parseDuration } from "../_util/duration.ts";
import type { Auth } from "../model/auth.ts";
import type { Template } from "../model/template.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { isMap, isScalar, isSeq } from "./nodes.ts";

/** The most arguments a command may have: a token command has a handful. */
const MAX_ARGS = 64;

/**
 * The `bearer` kind of an `auth` block (`block`, its entry) whose `token`
 * template (if any) is read.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const text = 'name: f\nauth: {bearer: {command: [gh, auth, token]}}\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n';
 * const refused = loadFlow(text, "f.yaml");
 * if (refused.problems[0]?.code !== "command-not-allowed") throw new Error(JSON.stringify(refused.problems));
 * const ok = loadFlow(text, "f.yaml", { allowCommands: true });
 * const auth = ok.flow?.auth;
 * if (auth?.kind !== "bearer" || !("command" in auth) || auth.command[2].source !== "token") throw new Error();
 * ```
 */
export function loadBearer(
  ctx: Loading,
  map: Map<string, Entry>,
  token: Template | undefined,
  what: string,
  owner: TemplateUse["owner"],
  block: Entry,
): Auth | undefined {
  const command = map.get("command");
  const refresh = map.get("refresh_after");
  if (command && map.has("token")) {
    ctx.problem(
      "conflicting-keys",
      `"command" and "token" of ${what} both give the token.`,
      command.keyNode,
      "Keep one: token reads an expression, command runs a program that prints the token.",
    );
    return undefined;
  }
  if (!command) return tokenBearer(ctx, map, token, what, block);
  if (map.has("scheme")) schemeWithCommand(ctx, map.get("scheme")!, what);
  const argv = commandArgs(ctx, command, what, owner);
  const refreshAfterMs = refresh ? duration(ctx, refresh, what) : undefined;
  if (!argv) return undefined;
  if (!ctx.options.allowCommands) notAllowed(ctx, command, argv[0], what);
  return { kind: "bearer", command: argv, ...(refreshAfterMs ? { refreshAfterMs } : {}) };
}

/** The `token` form, with its `scheme` if written; a missing token told unless a key was misspelt. */
function tokenBearer(
  ctx: Loading,
  map: Map<string, Entry>,
  token: Template | undefined,
  what: string,
  block: Entry,
): Auth | undefined {
  const refresh = map.get("refresh_after");
  if (refresh) refreshWithoutCommand(ctx, refresh, what);
  const scheme = schemeOf(ctx, map.get("scheme"), what);
  if (token && scheme !== null) return { kind: "bearer", token, ...(scheme ? { scheme } : {}) };
  if (token) return undefined;
  // A misspelt key was reported as an unknown key: that is the one problem.
  const node = ctx.deref(block.value);
  if (isMap(node) && node.items.length > map.size) return undefined;
  ctx.problem(
    "missing-key",
    `Missing key "token" in ${what}: a bearer token comes from "token" or "command".`,
    block.keyNode,
    'Write token: "${ENV.TOKEN}", or command: [gh, auth, token] (with --allow-commands).',
  );
  return undefined;
}

/** The argument list, each a template; a shell line or an empty list refused. */
function commandArgs(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
): Template[] | undefined {
  const node = ctx.deref(entry.value);
  if (isScalar(node) && typeof node.value === "string") {
    ctx.problem(
      "wrong-type",
      `Expected "command" of ${what} to be a list of the program and its arguments, got the ` +
        `string "${
          node.value.slice(0, 80)
        }": no shell reads it, so no value can be run as shell syntax.`,
      node,
      `Write it as a list: command: ${listForm(node.value)}`,
    );
    return undefined;
  }
  if (!isSeq(node) || node.items.length === 0 || node.items.length > MAX_ARGS) {
    ctx.problem(
      "wrong-type",
      `Expected "command" of ${what} to be a list of 1 to ${MAX_ARGS} strings (the program, ` +
        `then its arguments), got ${describe(node)}.`,
      node ?? entry.keyNode,
      "For example: command: [gh, auth, token]",
    );
    return undefined;
  }
  const out: Template[] = [];
  for (const item of node.items) {
    const arg = ctx.deref(item as Node);
    if (!isScalar(arg) || (typeof arg.value !== "string" && typeof arg.value !== "number")) {
      ctx.problem(
        "wrong-type",
        `Expected each item of "command" of ${what} to be a string, got ${describe(arg)}.`,
        arg ?? node,
        'Quote an argument that YAML would read as something else: command: [tool, --count, "3"]',
      );
      return undefined;
    }
    const template = ctx.template(arg, owner);
    if (!template) return undefined;
    out.push(template);
  }
  return out;
}

/** A shell line as the list it probably means, for the hint. */
function listForm(line: string): string {
  const words = line.trim().split(/\s+/).filter(Boolean).slice(0, 12);
  return `[${words.map((w) => JSON.stringify(w)).join(", ")}]`;
}

/** Running a program is code execution: only a run that says so. */
function notAllowed(ctx: Loading, entry: Entry, program: Template, what: string): void {
  ctx.problem(
    "command-not-allowed",
    `"command" of ${what} runs the program "${program.source}", and this run does not allow ` +
      "flow files to run programs.",
    entry.keyNode,
    "A flow that runs a program is code: when you trust these files, add --allow-commands to " +
      'flowrun run (and validate). Else hand the token in: token: "${ENV.TOKEN}" with ' +
      "TOKEN=$(gh auth token) set before the run.",
  );
}

/** `refresh_after: 5m`. */
function duration(ctx: Loading, entry: Entry, what: string): number | undefined {
  const node = entry.value;
  const ms = isScalar(node) && (typeof node.value === "string" || typeof node.value === "number")
    ? parseDuration(String(node.value))
    : undefined;
  if (ms !== undefined && ms > 0) return ms;
  ctx.problem(
    "wrong-type",
    `Expected "refresh_after" of ${what} to be a duration such as 5m or 30s, got ${
      describe(node)
    }.`,
    node ?? entry.keyNode,
    "Write how old a token may get before the command runs again: refresh_after: 5m",
  );
  return undefined;
}

/** `refresh_after` beside `token`: nothing runs again, so it means nothing. */
function refreshWithoutCommand(ctx: Loading, entry: Entry, what: string): void {
  ctx.problem(
    "conflicting-keys",
    `"refresh_after" of ${what} applies to a command's token; this bearer token is an expression.`,
    entry.keyNode,
    "Remove refresh_after, or give the token by command: [...].",
  );
}

/** `scheme: Token`: one HTTP token (RFC 9110 §11.1); `null` when it is not, the problem told. */
function schemeOf(ctx: Loading, entry: Entry | undefined, what: string): string | null | undefined {
  if (!entry) return undefined;
  const node = ctx.deref(entry.value);
  if (
    isScalar(node) && typeof node.value === "string" &&
    /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(node.value)
  ) {
    return node.value;
  }
  ctx.problem(
    "wrong-type",
    `Expected "scheme" of ${what} to be one word (an HTTP token, no space), got ${describe(node)}.`,
    node ?? entry.keyNode,
    "Write the word the server wants before the token: scheme: Token (the default is Bearer).",
  );
  return null;
}

/** `scheme` beside `command`: a command's token is sent as `Bearer`. */
function schemeWithCommand(ctx: Loading, entry: Entry, what: string): void {
  ctx.problem(
    "conflicting-keys",
    `"scheme" of ${what} applies to a token given by "token"; a command's token is sent as Bearer.`,
    entry.keyNode,
    'Give the token by token: "${ENV.TOKEN}" to send it with another word.',
  );
}
