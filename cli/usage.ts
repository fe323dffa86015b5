/**
 * The help of one command (`flowrun <command> --help`, `flowrun help
 * <command>`): its usage, what it does, one line per option its parser
 * accepts, and an example. The options come from the parser's own table, so
 * an option cannot be accepted without being listed; their words come from
 * this file, or for options `run` shares (`--var`, `--setup`, …) from the
 * "Options for run" of `flowrun --help`, the one place run's options are
 * described.
 *
 * @module
 */
import { HELP } from "./help.ts";

/** An option as a parser table holds it (cli/args.ts's OptionSpec): its short form is shown. */
type Options = Record<string, { type: string; short?: string }>;

/** What one command's help says besides its options. */
interface Usage {
  /** The usage lines, without the leading `flowrun `. */
  usage: string[];
  /** What the command does, in a sentence or two. */
  summary: string;
  /** Example command lines, without the leading `flowrun `. */
  examples: string[];
  /** Options this command describes in its own words: the option as written, and its line. */
  own?: Record<string, [string, string]>;
}

/** The commands that have a help of their own. */
const USAGES: Record<string, Usage> = {
  run: {
    usage: ["run <path>... [options]"],
    summary: "Run flow files, or directories of *.yaml/*.yml, and write the requested reports.\n" +
      "Exit 0 if every flow passed, 1 if one failed, 2 on a usage or flow-file error.",
    examples: [
      "run flows/ --var base=http://localhost:8080 --out-dir reports",
      "run flows/ --tag smoke --jobs 4 --report-junit junit.xml",
    ],
  },
  validate: {
    usage: ["validate <path>... [options]"],
    summary: "Check flow files as run would, sending nothing: exit 0 without problems, 2 with.\n" +
      "Give it run's options that change what is loaded (--setup, --env-file, --var, --tag,\n" +
      "…) and it finds exactly the problems run would stop at.",
    examples: [
      "validate flows/",
      "validate flows/ --setup flows/login.yaml --env-file .env",
      "validate flows/ --format json --no-env",
    ],
    own: {
      "no-env": ["--no-env", "do not report unset environment variables"],
      format: ["--format text|json", "problems like a compiler (default), or a JSON array"],
    },
  },
  merge: {
    usage: [
      "merge <report.json>... [--report-junit FILE] [--report-json FILE] [--coverage-min PERCENT]",
    ],
    summary: "Merge the JSON reports of several shards into one run: print its summary and\n" +
      "write it as JUnit or JSON. Exit 1 if a flow failed in any shard, or the merged\n" +
      "OpenAPI coverage is below its minimum.",
    examples: ["merge shard-1.json shard-2.json --report-junit junit.xml --report-json all.json"],
    own: {
      "report-junit": ["--report-junit FILE", "write the merged run as a JUnit XML report"],
      "report-json": ["--report-json FILE", "write the merged run as a JSON report"],
      "coverage-min": [
        "--coverage-min PERCENT",
        "the least share of operations the merged run exercised (replaces the shards')",
      ],
    },
  },
  report: {
    usage: ["report html <report.json>... -o FILE [--trace-link TEMPLATE]"],
    summary: "Render saved JSON reports (merged when several) as one self-contained HTML page.",
    examples: ["report html report.json -o report.html"],
    own: { output: ["-o, --output FILE", "the HTML file to write (required)"] },
  },
  convert: {
    usage: ["convert har <file.har> [second.har] [options]"],
    summary: "Turn recorded browser traffic (a HAR file) into a flow: the flow to stdout or -o\n" +
      "FILE, a summary to stderr. With a second recording of the same journey, values that\n" +
      "differ are dynamic and values equal in both are constants.",
    examples: [
      "convert har session.har -o flows/session.yaml",
      "convert har session.har --verify http://localhost:8080 -o flows/session.yaml",
    ],
    own: {
      output: ["-o, --output FILE", "write the flow to FILE (default: standard output)"],
      name: ["--name NAME", "the flow's name (default: from the recording)"],
      "include-host": ["--include-host HOST", "also keep requests to HOST (repeatable)"],
      "exclude-url": ["--exclude-url REGEX", "drop requests whose URL matches (repeatable)"],
      spelling: ["--spelling a|b", "captures/assert (a, default) or extract/depends_on (b)"],
      "include-html": ["--include-html", "keep requests for HTML documents too"],
      verify: [
        "--verify [BASE_URL]",
        "replay the flow step by step against a live instance (default:\n" +
        "the recorded origins) and repair it from the live responses; exit 1\n" +
        "if a step still fails",
      ],
      "no-correlate": ["--no-correlate", "take no value from a response (a debugging aid)"],
    },
  },
  "convert curl": {
    usage: ["convert curl [FILE|-] [-o FILE] [--name NAME] [--spelling a|b]"],
    summary:
      "Turn curl command lines (a browser's \"Copy as cURL\" for bash or cmd, or an API's\n" +
      "docs) into a flow, one step per request: the flow to stdout or -o FILE, a summary\n" +
      "to stderr. Reads FILE, or standard input for - or no FILE. Secrets become\n" +
      "environment variables the summary names; options not carried are listed.",
    examples: [
      "convert curl requests.sh -o flows/api.yaml",
      "convert curl - -o flows/api.yaml < copied.txt",
    ],
    own: {
      output: ["-o, --output FILE", "write the flow to FILE (default: standard output)"],
      name: ["--name NAME", "the flow's name (default: from the first host)"],
      spelling: ["--spelling a|b", "${ENV.X} and capture (a, default) or ${X} and extract (b)"],
    },
  },
  "convert openapi": {
    usage: ["convert openapi DOC -o DIR"],
    summary:
      "Turn an OpenAPI 3.0 or 3.1 document (JSON or YAML, $refs across files included) into\n" +
      "a starter suite in DIR: one flow per tag, a step per operation with parameters and\n" +
      "bodies from the document's examples or its schemas, credentials from its\n" +
      "securitySchemes as environment variables, status and openapi: checks. The summary on\n" +
      "stderr names the environment variables to set and every placeholder to fill in.",
    examples: [
      "convert openapi api/openapi.yaml -o flows",
      "run flows --openapi api/openapi.yaml",
    ],
    own: { output: ["-o, --output DIR", "the folder the flows are written to (required)"] },
  },
  "export artillery": {
    usage: [
      "export artillery <path>... -o DIR [--duration D] [--rate N [--ramp-to N] | --users N]",
    ],
    summary:
      "Write the flows as an Artillery load test: DIR/artillery.yml (a scenario per flow, a\n" +
      "request per step, captures and checks as Artillery captures and expectations) and\n" +
      "its processor file. Secrets stay environment variables; ${RANDOM.*} and ${RUN_ID}\n" +
      "differ per virtual user, ${NOW.*} is read as each request is made. The summary names\n" +
      "the variables to set and all that is not expressed. Run it with artillery run, or\n" +
      "unchanged on Artillery's distributed runners.",
    examples: [
      "export artillery flows/ -o load --rate 5 --ramp-to 50 --duration 5m",
      "export artillery flows/checkout.yaml -o load --users 3 --duration 1s",
    ],
    own: {
      output: ["-o, --output DIR", "the folder the test is written to (required)"],
      duration: ["--duration D", "how long the phase lasts, in whole seconds (default 60s)"],
      rate: ["--rate N", "new virtual users a second (default 1)"],
      "ramp-to": ["--ramp-to N", "rise to N new users a second by the end of the phase"],
      users: ["--users N", "N virtual users over the duration, instead of a rate"],
      tag: ["--tag EXPR", "export only flows (and steps) whose tags match, as run --tag"],
      filter: ["--filter PATTERN", "export only flows whose name or path matches (repeatable)"],
      "file-root": ["--file-root DIR", "the folder the files flows name must be in, as for run"],
      setup: [
        "--setup FILE",
        "a flow run once before the users start (before:); its outputs are theirs",
      ],
      teardown: ["--teardown FILE", "a flow run once after the users end (after:)"],
      cacert: [
        "--cacert FILE",
        "also trust this PEM CA in WebSocket, SSE and gRPC steps (repeatable)",
      ],
      cert: [
        "--cert FILE --key FILE",
        "a PEM client certificate and key for those steps (copied into DIR/tls/)",
      ],
      key: [
        "--cert FILE --key FILE",
        "a PEM client certificate and key for those steps (copied into DIR/tls/)",
      ],
      insecure: ["--insecure", "WebSocket, SSE and gRPC steps do not check TLS certificates"],
      "max-body": [
        "--max-body SIZE",
        "most bytes a WebSocket, SSE or gRPC answer may hold (default 10MiB)",
      ],
    },
  },
  send: {
    usage: ["send [METHOD] URL [options]"],
    summary: "Send one request and print it and the response as run -vv does: request line,\n" +
      "headers both ways, bodies (JSON pretty-printed), secrets masked. Values are expanded\n" +
      "as in a flow (${ENV.TOKEN}, ${RANDOM.UUID}; $${ is a literal ${). METHOD defaults to\n" +
      "POST with a body, else GET. Exit 0 on any response, 1 without one, 2 on a usage error.",
    examples: [
      "send http://localhost:8080/items",
      "send POST http://localhost:8080/items -H 'Authorization: Bearer ${ENV.TOKEN}' --json '{\"name\": \"box\"}'",
      "send PUT http://localhost:8080/items/1 --json @item.json --flow > item.yaml",
    ],
    own: {
      request: ["-X, --request METHOD", "the method, instead of the METHOD argument"],
      header: ["-H, --header 'NAME: VALUE'", "a request header (repeatable)"],
      data: [
        "-d, --data TEXT|@FILE",
        "the body: TEXT as it is (repeated: joined with &), or FILE's bytes;\n" +
        "content-type application/x-www-form-urlencoded unless -H sets one (as curl)",
      ],
      json: [
        "--json TEXT|@FILE",
        "a JSON body, sent as written; content-type and accept application/json",
      ],
      form: ["--form NAME=VALUE", "a URL-encoded form field (repeatable; a name twice is a list)"],
      follow: ["-L, --follow", "follow redirects to the final response (default: a 3xx is shown)"],
      fail: ["--fail", "exit 1 when the status is 400 or more"],
      flow: [
        "--flow",
        "print the request as a flow file to standard output (the exchange\n" +
        "goes to standard error): saved and run, it sends the same bytes",
      ],
      secret: ["--secret NAME", "mask the value of environment variable NAME too (repeatable)"],
    },
  },
  help: {
    usage: ["help [<command>]", "<command> --help"],
    summary: "Show flowrun's help, or one command's usage, options and an example.",
    examples: ["help run"],
  },
  version: {
    usage: ["--version", "version"],
    summary: "Show flowrun's version, the Deno version it runs on and the target.",
    examples: ["--version"],
  },
};

/** The words for `--help` itself, whatever the command. */
const HELP_OPTION: [string, string] = ["-h, --help", "show this help"];

/** Where option words start, as in `flowrun --help`. */
const COLUMN = 24;

/** The lines of `flowrun --help`'s "Options for run", one block per option entry. */
function runOptionBlocks(): string[][] {
  const section = HELP.slice(HELP.indexOf("Options for run:"), HELP.indexOf("\nExit codes:"));
  const blocks: string[][] = [];
  for (const line of section.split("\n").slice(1)) {
    if (/^ {2}-/.test(line)) blocks.push([line]);
    else if (line.trim() !== "") blocks.at(-1)?.push(line);
  }
  return blocks;
}

/** The block of run's help that describes `--name` (`-v, --verbose`, `--cert FILE --key FILE`). */
function runOption(name: string): string[] | undefined {
  const head = (block: string[]) => block[0].trim().split(/ {2,}/)[0];
  return runOptionBlocks().find((block) => head(block).split(/[\s,]+/).includes(`--${name}`));
}

/** One option in its own words: the option as written, then its line(s) at the column. */
function ownOption([written, text]: [string, string]): string[] {
  const [first, ...more] = text.split("\n");
  const pad = " ".repeat(COLUMN);
  const head = written.length + 2 < COLUMN - 1
    ? [`  ${written.padEnd(COLUMN - 2)}${first}`]
    : [`  ${written}`, `${pad}${first}`];
  return [...head, ...more.map((line) => `${pad}${line}`)];
}

/**
 * The option lines of one command: every option of its parser table in the
 * table's order, each entry once (`--cert` and `--key` share one), and
 * `-h, --help` last.
 */
function optionLines(usage: Usage, options: Options): string[] {
  const lines: string[] = [];
  for (const name of Object.keys(options)) {
    if (name === "help") continue;
    const own = usage.own?.[name];
    const block = own ? ownOption(own) : runOption(name) ?? ownOption([`--${name}`, ""]);
    if (!lines.includes(block[0])) lines.push(...block);
  }
  return [...lines, ...ownOption(HELP_OPTION)];
}

/**
 * Whether a command has a help of its own.
 *
 * @example
 * ```ts
 * import { hasUsage } from "./usage.ts";
 * if (!hasUsage("merge") || hasUsage("toString")) throw new Error();
 * ```
 */
export function hasUsage(command: string): boolean {
  return Object.hasOwn(USAGES, command);
}

/**
 * The help of one command, its options read from the parser table the
 * command parses with.
 *
 * @example
 * ```ts
 * import { commandHelp } from "./usage.ts";
 * const text = commandHelp("merge", {
 *   "report-json": { type: "string" },
 *   help: { type: "boolean", short: "h" },
 * });
 * if (!text.startsWith("Usage: flowrun merge <report.json>...")) throw new Error(text);
 * if (!text.includes("--report-json FILE") || !text.includes("-h, --help")) throw new Error(text);
 * ```
 */
export function commandHelp(command: string, options: Options = {}): string {
  const usage = USAGES[command];
  const [first, ...more] = usage.usage;
  return [
    `Usage: flowrun ${first}`,
    ...more.map((line) => `       flowrun ${line}`),
    "",
    usage.summary,
    "",
    "Options:",
    ...optionLines(usage, options),
    "",
    usage.examples.length === 1 ? "Example:" : "Examples:",
    ...usage.examples.map((line) => `  flowrun ${line}`),
    "",
    "See flowrun --help for every command and the exit codes.",
    "",
  ].join("\n");
}
