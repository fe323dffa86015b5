/**
 * cli/args.ts's own option parser against `node:util`'s parseArgs, which it
 * replaces so that start-up need not load Node compatibility: the same values
 * and positionals for every valid argument vector, an error for every invalid
 * one, and messages that quote what the user typed.
 */
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { type OptionSpec, parse } from "../../cli/args.ts";
import { RUN_OPTIONS } from "../../cli/run/options.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { runCli } from "../support/cli.ts";
import { staticImports } from "../support/imports.ts";

/** `flowrun run`'s options, plus `convert`'s `-o` for a short string option. */
const RUN_LIKE = {
  ...RUN_OPTIONS,
  output: { type: "string", short: "o" },
} as const satisfies OptionSpec;

type Outcome =
  | { ok: true; values: Record<string, unknown>; positionals: string[] }
  | { ok: false; unknown?: string };

/** What node's parseArgs makes of `args`; for an unknown option, the option it names. */
function viaNode(args: string[], options: OptionSpec): Outcome {
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { ok: true, values, positionals };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      return { ok: false, unknown: /^Unknown option '(.*?)'\. To specify/s.exec(message)![1] };
    }
    assert.equal(code, "ERR_PARSE_ARGS_INVALID_OPTION_VALUE", message);
    return { ok: false };
  }
}

/** What cli/args.ts makes of `args`; every error must be a `bad-option` usage error. */
function viaOwn(args: string[], options: OptionSpec): Outcome {
  try {
    const { values, positionals } = parse(args, options);
    return { ok: true, values, positionals };
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.code, "bad-option");
    assert.ok(error.hint, `${error.message} has a hint`);
    const unknown = /^Unknown option "(.*)"\.$/s.exec(error.message)?.[1];
    return unknown === undefined ? { ok: false } : { ok: false, unknown };
  }
}

/** [arguments, whether node's parseArgs accepts them] */
const VECTORS: [string[], boolean][] = [
  [[], true],
  [["flows/"], true],
  [["a.yaml", "b.yaml", "--trace"], true],
  [["--report-json", "r.json", "flows/"], true],
  [["--report-json=r.json", "flows/"], true],
  [["--report-json=", "flows/"], true],
  [["--report-json=a=b"], true],
  [["--var", "a=1", "--var=b=2", "--var", "c="], true],
  [["--jobs", "1", "--jobs", "2"], true],
  [["-v"], true],
  [["-vv", "-v", "--verbose"], true],
  [["-vh"], true],
  [["-o", "out.yaml"], true],
  [["-oout.yaml"], true],
  [["-o-x"], true],
  [["--output=-x"], true],
  [["-vvo", "out.yaml"], true],
  [["-vvoout.yaml"], true],
  [["-ov"], true],
  [["--out-dir", "-"], true],
  [["-"], true],
  [["--", "--trace", "-v", "--"], true],
  [["flows/", "--", "-dash.yaml"], true],
  [["--no-color", "--no-proxy", "localhost", "--no-annotations"], true],
  [["--filter", "login", "x", "--filter=logout", "y"], true],
  [["--tag", "smoke", "--tag", "slow"], true],
  [["--console", "--"], false],
  [["--report-json", "-x"], false],
  [["--report-json", "--trace"], false],
  [["-o", "-v"], false],
  [["--report-json"], false],
  [["flows/", "--jobs"], false],
  [["-o"], false],
  [["-vo"], false],
  [["--trace=yes"], false],
  [["--trace="], false],
  [["--verbsoe"], false],
  [["--verbose=2"], false],
  [["-x"], false],
  [["-vx"], false],
  [["-v=1"], false],
  [["---"], false],
  [["--=x"], false],
  [["--constructor"], false],
  [["--__proto__=1"], false],
  [["--toString"], false],
  [["-5"], false],
  [["ok", "--bad", "--trace=1"], false],
  [["--trace=1", "--bad"], false],
];

Deno.test("the parser agrees with node:util parseArgs on every vector of the table", () => {
  for (const [args, valid] of VECTORS) {
    const expected = viaNode(args, RUN_LIKE);
    assert.equal(expected.ok, valid, `node: ${JSON.stringify(args)}`);
    assert.deepStrictEqual(viaOwn(args, RUN_LIKE), expected, JSON.stringify(args));
  }
});

Deno.test("the parser agrees with node:util parseArgs on random argument vectors", () => {
  const words = [
    "a",
    "-",
    "--",
    "-v",
    "-vv",
    "-vo",
    "-ov",
    "-o",
    "-h",
    "-hv",
    "-v-",
    "-x",
    "--trace",
    "--trace=",
    "--var",
    "--var=a",
    "--output",
    "--output=b",
    "--jobs",
    "--no-color",
    "--nope",
    "=",
  ];
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  let valid = 0;
  for (let i = 0; i < 3000; i++) {
    const args = Array.from({ length: random(6) }, () => words[random(words.length)]);
    const expected = viaNode(args, RUN_LIKE);
    if (expected.ok) valid++;
    assert.deepStrictEqual(viaOwn(args, RUN_LIKE), expected, JSON.stringify(args));
  }
  assert.ok(valid > 300 && valid < 2700, `a mix of valid (${valid}) and invalid vectors`);
});

Deno.test("a short form without an option of its own names the one-letter long option, as in node", () => {
  const options = { x: { type: "boolean" }, y: { type: "string", short: "z" } } as const;
  for (const args of [["-x"], ["-y", "1"], ["-z", "1"], ["-xz1"], ["--y", "1"]]) {
    assert.deepStrictEqual(viaOwn(args, options), viaNode(args, options), JSON.stringify(args));
  }
});

Deno.test("values are typed as the callers read them", () => {
  const { values, positionals } = parse(["-vv", "--var", "a=1", "f"], RUN_LIKE);
  const verbose: boolean[] | undefined = values.verbose;
  const vars: string[] | undefined = values.var;
  const json: string | undefined = values["report-json"];
  const trace: boolean | undefined = values.trace;
  assert.deepEqual([verbose, vars, json, trace, positionals], [
    [true, true],
    ["a=1"],
    undefined,
    undefined,
    ["f"],
  ]);
  assert.ok(!("trace" in values), "an option not given has no key");
});

/** The usage error `parse(args)` throws. */
function failure(args: string[]): UsageError {
  try {
    parse(args, RUN_LIKE);
  } catch (error) {
    assert.ok(error instanceof UsageError);
    return error;
  }
  throw new Error(`${JSON.stringify(args)} parsed`);
}

Deno.test("error messages quote the option as typed and say what is wrong", () => {
  const cases: [string[], string, string][] = [
    [["--verbsoe"], 'Unknown option "--verbsoe".', 'Did you mean "--verbose"?'],
    [["--report-jsno=r.json"], 'Unknown option "--report-jsno".', 'Did you mean "--report-json"?'],
    [["--zzzzzzzz"], 'Unknown option "--zzzzzzzz".', "See flowrun --help."],
    [["-vq"], 'Unknown option "-q".', "See flowrun --help."],
    [["--report-json"], 'Option "--report-json" needs a value.', "See flowrun --help."],
    [["flows/", "--jobs"], 'Option "--jobs" needs a value.', "See flowrun --help."],
    [["-o"], 'Option "-o" (--output) needs a value.', "See flowrun --help."],
    [["-vo"], 'Option "-o" (--output) needs a value.', "See flowrun --help."],
    [
      ["--trace=yes"],
      'Option "--trace" does not take a value, got "yes".',
      "See flowrun --help.",
    ],
    [["-h=1"], 'Unknown option "-=".', "See flowrun --help."],
    [
      ["--report-json", "-x"],
      'Option "--report-json" needs a value, got "-x", which looks like an option.',
      'To give a value that starts with "-", write --report-json=-x.',
    ],
    [
      ["--console", "--"],
      'Option "--console" needs a value, got "--", which looks like an option.',
      'To give a value that starts with "-", write --console=--.',
    ],
    [
      ["-o", "-v"],
      'Option "-o" (--output) needs a value, got "-v", which looks like an option.',
      'To give a value that starts with "-", write --output=-v or -o-v.',
    ],
  ];
  for (const [args, message, hint] of cases) {
    const error = failure(args);
    assert.equal(error.code, "bad-option");
    assert.equal(error.message, message, JSON.stringify(args));
    assert.equal(error.hint, hint, JSON.stringify(args));
  }
});

Deno.test("the first mistake is the one reported, as node reports it", () => {
  assert.equal(
    failure(["--trace=1", "--bad"]).message,
    'Option "--trace" does not take a value, got "1".',
  );
  assert.equal(failure(["--bad", "--trace=1"]).message, 'Unknown option "--bad".');
});

Deno.test("cli/args.ts and what it imports statically load no node: module", async () => {
  const seen = await staticImports(new URL("../../cli/args.ts", import.meta.url));
  assert.ok(
    seen.has(new URL("../../lib/_util/suggest.ts", import.meta.url).href),
    "the walk follows imports",
  );
  assert.deepEqual([...seen].filter((s) => s.startsWith("node:")), []);
});

Deno.test("the CLI reports a missing option value as a usage error with a hint", async () => {
  const run = await runCli(["run", "examples", "--jobs"]);
  assert.equal(run.code, 2);
  assert.ok(
    run.stderr.startsWith('error[bad-option]: Option "--jobs" needs a value.\n'),
    run.stderr,
  );
  assert.match(run.stderr, /hint: See flowrun --help\./);
  assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
});
