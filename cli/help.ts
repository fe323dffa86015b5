/**
 * The text of `flowrun --help`.
 *
 * @module
 */
import { VERSION } from "../lib/model/version.ts";

/**
 * The help text: every command, option and exit code.
 *
 * @example
 * ```ts
 * import { HELP } from "./help.ts";
 * if (!HELP.includes("flowrun run <path>")) throw new Error();
 * ```
 */
export const HELP: string = `flowrun ${VERSION} — run YAML API test flows

Usage:
  flowrun run <path>... [options]   run flow files, or directories of *.yaml/*.yml
  flowrun merge <report.json>... [--report-junit FILE] [--report-json FILE]
                [--coverage-min PERCENT]
                                    merge the JSON reports of several shards into one
  flowrun validate <path>... [--no-env] [--format text|json] [options]
                                    check flow files as run would, sending nothing (exit 0 or 2);
                                    takes run's options that change what is loaded: --var,
                                    --vars-file, --env-file, --secret, --setup, --teardown,
                                    --tag, --filter, --shard, --shard-timings, --auth-file,
                                    --allow-commands, --file-root
  flowrun report html <report.json>... -o FILE [--trace-link TEMPLATE]
                                    render saved JSON reports (merged) as one HTML page
  flowrun convert har <file.har> [second.har] [-o FILE] [--name NAME] [--include-host HOST]...
                      [--exclude-url REGEX]... [--spelling a|b] [--include-html]
                      [--verify [BASE_URL]] [--no-correlate]
                                    turn recorded browser traffic into a flow; with a second
                                    recording of the same journey, values that differ are
                                    dynamic and values equal in both are constants; --verify
                                    replays it step by step against a live instance and
                                    repairs it from the live responses (exit 1 if a step
                                    still fails)
                                    (the flow to stdout or FILE, a summary to stderr)
  flowrun convert curl [FILE|-] [-o FILE] [--name NAME] [--spelling a|b]
                                    turn curl command lines (a browser's "Copy as cURL" for
                                    bash or cmd, or an API's docs; stdin for - or no FILE)
                                    into a flow, one step per request; secrets become
                                    environment variables the summary names
  flowrun convert postman COLLECTION.json [--environment ENV.json] -o DIR
                                    turn a Postman collection (v2.0 or v2.1) into flow files,
                                    one per top-level folder; test scripts become checks and
                                    captures, lines not understood stay as comments beside
                                    their steps; secrets and base URLs become environment
                                    variables the summary names
  flowrun convert openapi DOC -o DIR
                                    turn an OpenAPI 3.0/3.1 or Swagger 2.0 document ($refs too)
                                    into a starter suite: a flow per tag, a step per operation,
                                    values from its examples or schemas, credentials from its
                                    securitySchemes, status and openapi: checks; the summary
                                    names the environment variables and placeholders to fill in
  flowrun send [METHOD] URL [-H 'NAME: VALUE']... [-d TEXT|@FILE | --json TEXT|@FILE |
               --form NAME=VALUE...] [-L] [--fail] [--flow] [options]
                                    send one request and print it and the response as
                                    run -vv does, secrets masked; values are expanded as in
                                    a flow (\${ENV.TOKEN}); --flow prints it as a flow file;
                                    exit 0 on any response, 1 without one (or --fail and a
                                    status of 400 or more)
  flowrun export artillery <path>... -o DIR [--duration D] [--rate N [--ramp-to N] | --users N]
                                    write the flows as an Artillery load test: a scenario per
                                    flow, captures and checks as Artillery's, secrets left
                                    environment variables; the summary names what is not
                                    expressed (docs/load-testing.md)
  flowrun --help                    show this help
  flowrun help <command>            a command's usage, options and an example
                                    (also: flowrun <command> --help)
  flowrun --version                 show the version, Deno version and target

Options for run:
  --report-junit FILE   write a JUnit XML report (written even when flows fail)
  --report-json FILE    write a JSON report (schema/report.schema.json)
  --report-html FILE    write a self-contained HTML report for people
  --report-har FILE     write every request and response as HAR 1.2, secrets masked
                        (for browser devtools; convert har reads it)
  --log-file FILE       write a structured log, one JSON object per line
  --manifest FILE       write the run manifest (files, checksums, environment names, CI)
  --report-codequality FILE
                        write GitLab's code quality report (Code Climate JSON) of the failures
  --out-dir DIR         write junit.xml, report.json, report.html, run.log.ndjson and
                        manifest.json into DIR (the options above still win)
  --cache-dir DIR       keep checked flows in DIR between runs: an unchanged flow file is
                        read back instead of checked again (safe to delete)
  --vars-file FILE      run parameters from a YAML or JSON map (repeatable; --var wins);
                        an auth: block in it is the run's auth, as --auth-file's would be
  --auth-file FILE      the run's auth: a YAML file with one auth: block (basic, bearer,
                        api_key, oauth2, digest, aws_sigv4) for steps and flows without one
  --allow-commands      let flow files and the auth file run programs for a bearer token
                        (bearer: {command: [gh, auth, token]}); refused without it
  --file-root DIR       the folder the files flows name (includes, check, body and data
                        files) must be in (default: the working directory; for flows
                        outside it, the folder above theirs)
  --env-file FILE       environment variables in dotenv syntax (repeatable; the real
                        environment wins)
  --var NAME=VALUE      set a run parameter; overrides a flow var (repeatable)
  --secret NAME         treat the value of NAME (a --var or environment variable)
                        as a secret: masked in every output (repeatable)
  --run-id ID           the run id behind \${RUN_ID} (default: generated)
  --timeout DURATION    per-request timeout: 30000 (ms), 500ms, 30s, 2m (default 30s)
  --max-body SIZE       largest response body read, decompressed (default 10MiB; e.g. 512KiB)
  --max-body-memory SIZE  largest body held in memory for body checks (default 64MiB,
                        at most 500MiB); a larger one goes to a temporary file
  --jobs N              flows run at once (default: the number of CPUs; 1 is sequential)
  --workers N|auto      threads that run the --jobs flows, the main thread one of them
                        (default auto: one per CPU, 50 flows each at least; 1: main alone)
  --repeat N            run each selected flow N times (a quick smoke load on one machine),
                        on the main thread; prints a latency summary (p50/p95/p99/max,
                        errors by kind, requests/s); reports list each flow's first run
                        and the first 20 failed ones (docs/load-testing.md)
  --concurrency C       the same as --jobs C: at most C flow runs at once
  --shard I/N           run the I-th of N parts of the flow files, or "auto" to read
                        I and N from CI variables (CI_NODE_INDEX/CI_NODE_TOTAL, …)
  --shard-timings FILE  balance --shard by the flow durations in an earlier JSON report
                        (repeatable; unknown files count as average ones)
  --filter PATTERN      run only flows whose name or path matches (repeatable)
  --tag EXPR            run only flows (and steps) whose tags match, e.g. "smoke and not slow"
  --setup FILE          a flow run once before the others; its outputs are \${setup.NAME}
                        (repeatable)
  --teardown FILE       a flow run after the others, whatever happened (repeatable);
                        with --setup or --teardown the paths may be left out
  --fail-fast           start no new flows after the first failure
  --retries N           re-run a flow that did not pass up to N times (0-10, default 0);
                        one that then passes is flaky: exit 0 unless --fail-on-flaky
  --fail-on-flaky       exit 1 when a flow passed only on a re-run
  --history FILE        an earlier JSON report: each flow's streak and new failures are
                        shown in the console and the HTML report (repeatable, at most 20)
  --cacert FILE         also trust this PEM CA certificate (repeatable)
  --cert FILE --key FILE
                        a PEM client certificate and key, for servers that require one
  --proxy URL           send requests through this http://, https:// or socks5:// proxy
                        (default: HTTP_PROXY / HTTPS_PROXY from the environment)
  --no-proxy LIST       hosts reached without the proxy, comma-separated (.domain, *)
  --insecure            do not check servers' TLS certificates (warns; prefer --cacert)
  --cookie-jar          every flow run keeps cookies like a browser (each flow its own jar)
  --trace               send a W3C traceparent on every request that has none (one trace
                        per flow run, \${TRACE_ID}); trace ids go into every report
  --trace-link TEMPLATE
                        show trace ids as links, e.g. http://jaeger:16686/trace/{trace_id}
  --openapi FILE        report which operations and documented responses of this OpenAPI
                        document the run exercised (repeatable; JSON or YAML)
  --coverage            report OpenAPI coverage of the documents the flows' openapi:
                        checks name (always included once coverage is on)
  --coverage-min PERCENT
                        fail the run (exit 1) when a document's operations are exercised
                        less than this, e.g. 80
  --list                print the flow files the run would execute and exit
  --console MODE        detailed (every step), compact (a line per passing flow, failures
                        in full) or failures (failing flows only); default: detailed on a
                        terminal, compact otherwise. Flows print as they end, then a recap
                        of the failures and the summary
  -v, --verbose         every step in full: headers both ways, bodies, passing checks,
                        captures; -vv: whole bodies
  --color, --no-color   force colours on or off (default: on a terminal; FORCE_COLOR and
                        NO_COLOR are honoured)
  --no-annotations      on GitHub Actions, no ::error annotations or job summary

Steps (each holds one of these keys; capture, assert, loop, retries, if and always work alike):
  request:    an HTTP request                                      docs/flow-format.md
  grpc:       a gRPC call, unary or streaming, from .proto files or server reflection
                                                                   docs/grpc.md
  websocket:  send messages, receive until a condition or a bound  docs/websocket.md
  sse:        read server-sent events until a condition or a bound docs/sse.md
  include:    another flow file, run as this step                  docs/flow-format.md

Exit codes:
  0    every flow passed
  1    at least one flow failed (assertion, status, capture or request error)
  2    usage or flow-file error; no request was sent (requested reports say so)
  3    internal error of the runner (please report it)
  4    the run finished, but a requested artifact could not be written (stderr says which)
  130  interrupted by SIGINT (143: SIGTERM); every requested artifact is still written
`;
