/**
 * `deno task test`: the whole suite, every JSDoc `@example` included, in three parts, after the
 * bundle is written (`deno task bundle`, which the CLI processes the tests start then run) and
 * `deno check --doc-only` has type-checked every example (tests/doc_examples_test.ts runs them
 * all in one process: `deno test --doc` started an isolate for each, 3.6 CPU-minutes for 1,100).
 *
 * 1. **The quick part**: every test file but those of {@linkcode SLOW} and {@linkcode ALONE}
 *    (370 files, under half the CPU), type-checked once, then `deno test --parallel` (two files
 *    per core, or `DENO_JOBS`) in a few batches one after the other, so that no process holds
 *    what all of them leave behind (3.1 GB in one), {@linkcode WAITING_FIRST} started first.
 *    It ends with its own line
 *    (`quick part: ok | 1660 passed | 0 failed (1m40s)`), so a newcomer sees the bulk of the
 *    suite pass, or the first failures, in under two minutes on two cores;
 *    `deno task test --quick` stops there.
 * 2. **The slow part**: the files of {@linkcode SLOW}, in parallel one per core (the browser, TLS,
 *    fuzz, held-out conversion and install tests).
 * 3. The file in {@linkcode OWN_PROCESS} (it serves gRPC in the test process), then those in
 *    {@linkcode ALONE}, one at a time: tests that still time a signal (SIGINT
 *    answered within seconds of a fixed moment) or drive a browser, which a file running
 *    beside them on the same cores could make miss. Every other test holds on a busy machine:
 *    growth is a ratio within one process, work is counted, threads are ordered by handshakes
 *    (tests/support/timing.ts); absolute times are `bench/`'s.
 *
 * Every part runs even when one before it failed; the last lines name each failed test with the
 * first lines of its error, then the timing-sensitive ones among them with the command that
 * reruns each file alone ({@linkcode timingReport}), then add the parts up in `deno test`'s own form
 * (`ok | N passed | N failed`), which `.ci/run` reads; the exit code is 1 if any part failed.
 * With other arguments (`deno task test tests/run/`) it is one plain `deno test --parallel` of
 * those.
 *
 * Test files that run in parallel share one process: a test must not set environment variables
 * a CLI it starts (or another file's) would inherit, nor change the working directory.
 *
 * @module
 */

import { currentBundle } from "../cli/current_bundle.ts";
import { writeBundle } from "./bundle.ts";
import { examplesTypeCheck } from "./check_examples.ts";
import { batches, testFiles } from "./test_files.ts";

/**
 * The slow part: every file that took a CPU-second or more run alone (`deno test FILE` under
 * `/usr/bin/time`, user + system time, its subprocesses included), most costly first. Together
 * 63 of 435 files, about 210 of the 400 CPU-seconds: the browser, TLS and proxy tests, the
 * fuzzers, the converters run on held-out material, the install and bundle tests, the limits.
 * A new test file is in the quick part until it is listed here.
 */
export const SLOW: readonly string[] = [
  "tests/real/ghost_har_test.ts",
  "tests/real/directus_har_test.ts",
  "tests/real/directus_openapi_test.ts",
  "tests/real/redmine_har_test.ts",
  "tests/real/wordpress_har_test.ts",
  "tests/convert/openapi_named_items_test.ts",
  "tests/convert/postman_query_chars_test.ts",
  "tests/real/unleash_openapi_test.ts",
  "tests/real/unleash_postman_test.ts",
  "tests/real/unleash_secrets_test.ts",
  "tests/real/unleash_token_words_test.ts",
  "tests/kinds/websocket/read_test.ts",
  "tests/kinds/websocket/chat_test.ts",
  "tests/kinds/websocket/bounds_test.ts",
  "tests/kinds/websocket/tls_test.ts",
  "tests/kinds/websocket/proxy_test.ts",
  "tests/kinds/sse/proxy_test.ts",
  "tests/kinds/websocket/auth_test.ts",
  "tests/cli/run/repeat_test.ts",
  "tests/cli/run/repeat_memory_test.ts",
  "tests/kinds/sse/tls_test.ts",
  "tests/convert/har_websocket_test.ts",
  "tests/convert/har_websocket_browser_test.ts",
  "tests/cli/install_test.ts",
  "tests/leak_test.ts",
  "tests/doc_examples_test.ts",
  "tests/cli/convert_openapi_heldout_test.ts",
  "tests/cli/convert_openapi_box_test.ts",
  "tests/cli/compile_test.ts",
  "tests/cli/convert_postman_test.ts",
  "tests/cli/robust_test.ts",
  "tests/cli/convert_openapi_test.ts",
  "tests/cli/reproduce_test.ts",
  "tests/cli/convert_curl_heldout_test.ts",
  "tests/cli/convert_postman_newman_test.ts",
  "tests/cli/bundle_test.ts",
  "tests/http/body_limits_test.ts",
  "tests/cli/send_test.ts",
  "tests/cli/validate_options_test.ts",
  "tests/load/fuzz_test.ts",
  "tests/convert/openapi/bundle_test.ts",
  "tests/load/fast_yaml_test.ts",
  "tests/load/prototype_keys_test.ts",
  "tests/cases_test.ts",
  "tests/report/html_test.ts",
  "tests/http/response_fuzz_test.ts",
  "tests/run/merge_test.ts",
  "tests/io/file_inputs_test.ts",
  "tests/http/tls_proxy_test.ts",
  "tests/report/console_modes_test.ts",
  "tests/http/network_options_test.ts",
  "tests/run/workers/reports_test.ts",
  "tests/convert/postman_convert_test.ts",
  "tests/expr/path_test.ts",
  "tests/convert/openapi_test.ts",
  "tests/convert/har_browser_test.ts",
  "tests/secrets/redactor_test.ts",
  "tests/convert/verify_test.ts",
  "tests/cli/coverage_test.ts",
  "tests/cli/ci_test.ts",
  "tests/cli/convert_openapi_input_test.ts",
  "tests/load/deferred_flows_test.ts",
  "tests/http/auth_sigv4_test.ts",
  "tests/convert/curl_test.ts",
  "tests/cli/cli_test.ts",
  "tests/cli/convert_postman_large_test.ts",
  "tests/run/oauth2_test.ts",
  "tests/convert/apps_test.ts",
  "tests/convert/har_test.ts",
  "tests/layers_test.ts",
  "tests/size_test.ts",
  "tests/run/flaky_test.ts",
  "tests/report/streamed_test.ts",
  "tests/load/include_depth_test.ts",
  "tests/run/workers/shared_test.ts",
  "tests/check/groups_test.ts",
  "tests/cli/convert_openapi_auth_test.ts",
  "tests/load/openapi_shared_test.ts",
  "tests/load/mistakes_test.ts",
  "tests/load/foreach_test.ts",
  "tests/convert/two_recordings_test.ts",
  "tests/run/limits_test.ts",
  "tests/run/foreach_test.ts",
  "tests/convert/taskboard_test.ts",
  "tests/http/auth_command_test.ts",
  "tests/cli/convert_curl_docs_test.ts",
  "tests/cli/workers_redteam_test.ts",
  "tests/cli/workers_redteam_signal_test.ts",
  "tests/convert/splitapi_test.ts",
  "tests/cli/workers_redteam_disk_test.ts",
  "tests/cli/convert_curl_heldout_third_test.ts",
  // Issue 52: the real servers (installed from npm on the first run, then cached) and the
  // converters' end-to-end runs against servers the tests start.
  "tests/real/loopback_explorer_har_test.ts",
  "tests/real/postman_loopback_test.ts",
  "tests/real/verdaccio_har_test.ts",
  "tests/real/loopback_openapi_test.ts",
  "tests/real/loopback_har_test.ts",
  "tests/real/json_server_har_test.ts",
  "tests/real/socketio_har_test.ts",
  "tests/real/transmission_har_test.ts",
  "tests/real/syncthing_har_test.ts",
  "tests/convert/har_verify_restart_test.ts",
  "tests/export/artillery_kinds_test.ts",
  "tests/export/processor_kinds_test.ts",
  "tests/real/pdns_openapi_test.ts",
  "tests/real/passport_openapi_test.ts",
  "tests/real/etherpad_openapi_test.ts",
  "tests/real/qbittorrent_har_test.ts",
  "tests/real/unleash_har_test.ts",
  "tests/convert/har_unrecorded_create_test.ts",
  "tests/convert/har_client_named_test.ts",
  "tests/convert/har_flattened_listed_test.ts",
  "tests/convert/har_rate_limited_test.ts",
  "tests/convert/openapi_prose_sample_test.ts",
  "tests/convert/har_handed_paths_test.ts",
  "tests/convert/har_rpc_ids_test.ts",
  "tests/convert/openapi_signup_token_test.ts",
  "tests/real/netdata_openapi_test.ts",
  "tests/convert/openapi_said_needed_test.ts",
  "tests/export/artillery_tls_test.ts",
  "tests/convert/openapi_name_named_test.ts",
  "tests/convert/openapi_run_time_test.ts",
  "tests/real/jupyter_openapi_test.ts",
  "tests/convert/openapi_sole_handle_test.ts",
  "tests/convert/postman_dynamic_test.ts",
  "tests/expr/now_artillery_test.ts",
  "tests/kinds/websocket/proxy_audit55_test.ts",
  "tests/expr/now_test.ts",
  "tests/expr/random_shapes_test.ts",
  "tests/real/signalk_openapi_test.ts",
  "tests/convert/openapi_sibling_literals_test.ts",
  "tests/convert/openapi_stops_object_test.ts",
  "tests/convert/openapi_renamed_id_test.ts",
  "tests/convert/har_url_credentials_test.ts",
  "tests/convert/har_unrecorded_body_test.ts",
  "tests/convert/har_multistatus_test.ts",
  "tests/real/radicale_har_test.ts",
  "tests/real/notebook_har_test.ts",
  "tests/convert/har_origin_cookie_name_test.ts",
  "tests/convert/har_client_session_id_test.ts",
  "tests/convert/har_redirect_chain_cookie_test.ts",
  "tests/convert/har_websocket_last_answer_test.ts",
  "tests/convert/har_websocket_turns_test.ts",
  "tests/kinds/websocket/after_message_test.ts",
  "tests/convert/openapi_named_kind_test.ts",
  "tests/real/curl_commands_test.ts",
  "tests/convert/curl_token_test.ts",
  "tests/real/alertmanager_openapi_test.ts",
  "tests/real/etcd_openapi_test.ts",
  "tests/convert/openapi_time_window_test.ts",
  "tests/real/dokuwiki_har_test.ts",
  "tests/convert/har_rendered_app_test.ts",
  "tests/convert/har_digest_cookie_name_test.ts",
  "tests/convert/har_hidden_state_test.ts",
  "tests/convert/har_password_input_test.ts",
  "tests/convert/har_link_values_test.ts",
  "tests/convert/openapi_many_update_test.ts",
  "tests/convert/openapi_login_account_test.ts",
  "tests/convert/openapi_login_security_test.ts",
  "tests/convert/curl_transcript_test.ts",
  "tests/convert/har_logout_order_test.ts",
  "tests/convert/har_script_answer_test.ts",
  "tests/convert/har_form_client_name_test.ts",
  "tests/convert/openapi_named_listing_test.ts",
  "tests/convert/openapi_body_links_test.ts",
  "tests/convert/openapi_second_producer_test.ts",
  "tests/check/openapi_draft4_test.ts",
  "tests/convert/openapi_contradicting_example_test.ts",
  "tests/convert/openapi_sid_test.ts",
  "tests/cli/convert_openapi_browser_auth_test.ts",
  "tests/real/homebridge_openapi_test.ts",
  "tests/convert/openapi_table_api_test.ts",
  "tests/real/platformatic_openapi_test.ts",
  "tests/convert/openapi_body_listed_test.ts",
  "tests/real/recon_openapi_test.ts",
  "tests/real/httpbin_postman_test.ts",
  "tests/real/phpmyadmin_har_test.ts",
  "tests/real/homebridge_har_test.ts",
  "tests/real/sreview_openapi_test.ts",
  "tests/real/mediawiki_har_test.ts",
  "tests/real/django_har_test.ts",
  "tests/real/signalk_har_test.ts",
  "tests/real/ttrss_har_test.ts",
  "tests/real/roundcube_har_test.ts",
  "tests/real/shaarli_har_test.ts",
  "tests/real/icingaweb2_har_test.ts",
  "tests/real/postfixadmin_har_test.ts",
  "tests/real/adminjs_har_test.ts",
  "tests/real/cacti_har_test.ts",
  "tests/real/har_sanitized_test.ts",
  "tests/convert/openapi_fuzz_test.ts",
  "tests/convert/curl_fuzz_test.ts",
  "tests/convert/har_fuzz_test.ts",
  "tests/real/vendure_har_test.ts",
  "tests/real/zabbix_har_test.ts",
  "tests/real/better_auth_openapi_test.ts",
  "tests/real/rabbitmq_har_test.ts",
  "tests/real/deluge_har_test.ts",
  "tests/real/adminer_har_test.ts",
  "tests/real/znc_har_test.ts",
  "tests/real/parse_har_test.ts",
  "tests/real/prometheus_har_test.ts",
  "tests/kinds/registry_test.ts",
  "tests/real/har/node_red_stored_test.ts",
  "tests/cli/convert_postman_first_run_test.ts",
  "tests/cli/convert_openapi_links_test.ts",
  "tests/cli/cache_dir_trust_test.ts",
  "tests/cli/convert_curl_files_test.ts",
  "tests/convert/csrf_rotation_test.ts",
  "tests/convert/verify_embedded_test.ts",
  "tests/convert/verify_names_test.ts",
  "tests/convert/verify_neighbours_test.ts",
  "tests/cli/convert_curl_proxy_test.ts",
  "tests/cli/convert_curl_credentials_test.ts",
  "tests/convert/write_check_test.ts",
  "tests/convert/verify_asked_test.ts",
  // Real servers added since (WireMock's JVM, TiddlyWiki recorded in a browser): they started a
  // JVM and a browser inside the quick part (its memory peak of 1.9 GB was one of each beside it).
  "tests/real/wiremock_har_test.ts",
  "tests/real/wiremock_openapi_test.ts",
  "tests/real/wiremock_postman_test.ts",
  "tests/real/har/tiddlywiki_har_test.ts",
  "tests/real/har/tiddlywiki_stored_test.ts",
  // GitHub's 13 MB OpenAPI document: in the quick part at a load of 15 its schemas missed the
  // 2 s compile limit (904 bad-schema problems).
  "tests/real/corpus_scale_test.ts",
  // Issue 54: run alone while they asserted wall-clock limits; ratios and counts now.
  "tests/fuzz_test.ts",
  "tests/load/limits_test.ts",
  // Added 2026-11-26, a CPU-second or more each as their authors measured them: Artillery run
  // against servers (about 50), the real-document corpora, the CLI run as a subprocess many times.
  "tests/export/artillery_real_test.ts",
  "tests/real/corpus_openapi_test.ts",
  "tests/real/corpus_postman_test.ts",
  "tests/load/yaml_syntax_cost_test.ts",
  "tests/report/html_details_test.ts",
  "tests/report/har_report_test.ts",
  "tests/load/data_structured_test.ts",
  "tests/report/har_report_roundtrip_test.ts",
  "tests/load/yaml_syntax_slips_test.ts",
  "tests/cli/reproduce_started_test.ts",
  "tests/convert/openapi_actions_test.ts",
  "tests/convert/openapi_swagger2_test.ts",
  "tests/convert/openapi_loadable_test.ts",
  "tests/cli/provenance_words_test.ts",
  "tests/secrets/provenance_digest_test.ts",
  "tests/export/export_test.ts",
  // The gRPC files, back from OWN_PROCESS: their servers run in a process of their own now
  // (tests/kinds/grpc/served.ts), so an nghttp2 abort can no longer take this process.
  "tests/kinds/grpc/parity_test.ts",
  "tests/kinds/grpc/read_test.ts",
  "tests/kinds/grpc/run_test.ts",
  "tests/kinds/grpc/misbehave_test.ts",
  "tests/kinds/grpc/secrets_test.ts",
  "tests/kinds/grpc/proxy_audit55_test.ts",
  "tests/kinds/grpc/proxy_tls_test.ts",
  "tests/export/artillery_grpc_test.ts",
  "tests/export/processor_grpc_test.ts",
  "tests/export/processor_grpc_reflection_test.ts",
  "tests/export/processor_tls_test.ts",
  "tests/export/artillery_grpc_reflection_test.ts",
  "tests/export/processor_grpc_bin_test.ts",
  "tests/report/har_kinds_test.ts",
  "tests/convert/har_kinds_roundtrip_test.ts",
  // 20 gRPC servers started, each shut down after a run (5.8 CPU-seconds).
  "tests/kinds/grpc/channel_closed_test.ts",
];

/**
 * Started first in the quick part: files that cost little CPU but take seconds of waiting (an
 * OAuth2 device flow's polls, interop servers, a recorded app's pauses), so that their waits
 * overlap the many short files instead of ending the part.
 */
export const WAITING_FIRST: readonly string[] = [
  "tests/http/oauth2_device_test.ts",
  "tests/http/oauth2_device_interop_test.ts",
  "tests/run/always_test.ts",
  "tests/run/oauth2_device_test.ts",
  "tests/http/oauth2_interop_test.ts",
  "tests/cli/signals_blocked_test.ts",
];

/**
 * Each in a process of its own, after the slow part: the files whose tests still serve gRPC from
 * the test process (grpc-js on Deno's `node:http2`). Deno 2.9.6 aborts inside nghttp2 when a
 * GOAWAY reaches such a session (denoland/deno#36788: `find_stream_on_goaway_func: Assertion
 * 'stream->closed_next == NULL'`), and the abort takes every result of the `deno test` process it
 * happens in (the slow part's 700, twice in a row). The other gRPC tests serve from a process of
 * their own (tests/kinds/grpc/served.ts), and flowrun closes its channels when a run ends
 * (lib/kinds/grpc/channel.ts); reflection_test.ts's misbehaving reflection servers answer with
 * the test's own functions, so they stay in its process. Alone, an abort costs one file, which
 * {@linkcode denoTest} runs again. tests/test_task_test.ts fails a file outside this list that
 * starts a gRPC server in its own process.
 */
export const OWN_PROCESS: readonly string[] = [
  "tests/kinds/grpc/reflection_test.ts",
];

/**
 * Run last, each in a process of its own: tests that still time a signal (named with
 * tests/support/timing.ts's `TIMING`), or drive a browser through a real product's editor whose
 * clicks a loaded machine may miss. A failure here is reported as timing-sensitive
 * ({@linkcode timingReport}). The limits and fuzz tests left this list when their wall-clock
 * bounds became ratios (issue 54); the bounds and red-team tests stay for the product's own
 * wall-clock limits (a schema's 2 s to compile), which a loaded machine can reach.
 */
export const ALONE: readonly string[] = [
  "tests/real/har/node_red_har_test.ts",
  "tests/check/bounds_test.ts",
  "tests/red_team_b_test.ts",
  // Its runaway matches leave their helper threads spinning until the process ends (Deno 2.9
  // does not stop a terminated worker that spins: denoland/deno PR 35657): 14 CPU-seconds in 9 s
  // alone, and in a quick-part batch a core taken from every file after it.
  "tests/_util/regex_test.ts",
];

/** What one `deno test` run counted. */
export interface Tally {
  passed: number;
  failed: number;
  ignored: number;
}

/** `deno test`'s output as plain lines: it colours its output even into a pipe. */
function plainLines(output: string): string[] {
  // deno-lint-ignore no-control-regex
  return output.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
}

/** Lines of each failure's error kept for the end of the output (the first ones say what failed). */
const ERROR_LINES = 25;

/**
 * The failures of a `deno test` output's ERRORS section, each its heading (`name => file:line:col`)
 * and the first lines of its error, so that the end of a long run says what failed: `.ci/run`'s
 * last lines are often all a reader of a red CI gets.
 *
 * @example
 * ```ts
 * import { failureReport } from "./test.ts";
 * import assert from "node:assert/strict";
 * const output = [
 *   " ERRORS ",
 *   "",
 *   "a test => ./tests/a_test.ts:3:6",
 *   "error: AssertionError: Expected 1 to equal 2",
 *   "    at file:///x/tests/a_test.ts:4:3",
 *   "",
 *   " FAILURES ",
 *   "",
 *   "a test => ./tests/a_test.ts:3:6",
 *   "",
 *   "FAILED | 0 passed | 1 failed (1s)",
 * ].join("\n");
 * assert.deepEqual(failureReport(output), [
 *   "a test => ./tests/a_test.ts:3:6",
 *   "error: AssertionError: Expected 1 to equal 2",
 *   "    at file:///x/tests/a_test.ts:4:3",
 * ]);
 * assert.deepEqual(failureReport("ok | 1 passed | 0 failed (1s)"), []);
 * ```
 */
export function failureReport(output: string): string[] {
  const lines = plainLines(output);
  const start = lines.findLastIndex((l) => l.trim() === "ERRORS");
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.trim() === "FAILURES");
  const kept: string[] = [];
  let inBlock = 0;
  for (const line of lines.slice(start + 1, end < 0 ? undefined : end)) {
    if (/ => \S+:\d+:\d+$/.test(line)) inBlock = 0;
    if (line.trim() === "" || inBlock++ >= ERROR_LINES) continue;
    kept.push(line);
  }
  return kept;
}

/**
 * The marker ending the name of a test that still depends on the clock (tests/support/timing.ts
 * exports it as `TIMING`): a loaded machine can fail such a test where an idle one passes it.
 */
export const TIMING_MARKER = "[timing]";

/**
 * Of the failures {@linkcode failureReport} kept, those of tests marked timing-sensitive (their
 * name holds {@linkcode TIMING_MARKER}) or in a file of {@linkcode ALONE}, each with the command
 * that reruns its file alone: on a busy machine, the first thing to try before reading the code.
 *
 * @example
 * ```ts
 * import { timingReport } from "./test.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   timingReport([
 *     "signal answered [timing] => ./tests/a_test.ts:3:6",
 *     "error: AssertionError: took 2100 ms",
 *     "a plain test => ./tests/b_test.ts:9:6",
 *   ]),
 *   ["signal answered [timing]: rerun alone: deno test -A ./tests/a_test.ts"],
 * );
 * ```
 */
export function timingReport(failures: readonly string[]): string[] {
  const lines: string[] = [];
  for (const line of failures) {
    const heading = line.match(/^(.*) => (\S+):\d+:\d+$/);
    if (!heading) continue;
    const [, name, file] = heading;
    const alone = ALONE.includes(file.replace(/^\.\//, ""));
    if (!name.includes(TIMING_MARKER) && !alone) continue;
    const command = `rerun alone: deno test -A ${file}`;
    if (!lines.includes(`${name}: ${command}`)) lines.push(`${name}: ${command}`);
  }
  return lines;
}

/**
 * The counts of `deno test`'s summary line (`ok | 3 passed (2 steps) | 1 failed | 2 ignored (1s)`),
 * the last one in `output`; undefined when there is none (the run did not get that far).
 *
 * @example
 * ```ts
 * import { tally } from "./test.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(tally("x\nFAILED | 3 passed (2 steps) | 1 failed | 2 ignored (1s)\n"), {
 *   passed: 3,
 *   failed: 1,
 *   ignored: 2,
 * });
 * assert.equal(tally("error: Module not found"), undefined);
 * ```
 */
export function tally(output: string): Tally | undefined {
  const lines = plainLines(output);
  const line = lines.findLast((l) => /^(ok|FAILED) \| \d+ passed/.test(l));
  if (line === undefined) return undefined;
  const count = (word: string) => Number(line.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
  return { passed: count("passed"), failed: count("failed"), ignored: count("ignored") };
}

/**
 * The closing line for several runs, in `deno test`'s form; a run without a summary counts as one
 * failure, so a part that could not start is not a pass.
 *
 * @example
 * ```ts
 * import { summaryLine } from "./test.ts";
 * import assert from "node:assert/strict";
 * const runs = [{ passed: 5, failed: 0, ignored: 1 }, { passed: 2, failed: 1, ignored: 0 }];
 * assert.equal(summaryLine(runs, 90_000), "FAILED | 7 passed | 1 failed | 1 ignored (1m30s)");
 * assert.equal(summaryLine([undefined], 1_000), "FAILED | 0 passed | 1 failed (1s)");
 * ```
 */
export function summaryLine(runs: readonly (Tally | undefined)[], ms: number): string {
  const sum = { passed: 0, failed: 0, ignored: 0 };
  for (const run of runs) {
    sum.passed += run?.passed ?? 0;
    sum.failed += run?.failed ?? 1;
    sum.ignored += run?.ignored ?? 0;
  }
  const seconds = Math.round(ms / 1000);
  const time = seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
  const ignored = sum.ignored > 0 ? ` | ${sum.ignored} ignored` : "";
  return `${
    sum.failed > 0 ? "FAILED" : "ok"
  } | ${sum.passed} passed | ${sum.failed} failed${ignored} (${time})`;
}

/**
 * Test files run at once in a part, `perCore` per core unless `DENO_JOBS` says otherwise. The
 * quick part's files mostly wait (on the servers, subprocesses and timers their tests start), so
 * it runs two per core: one left the cores half idle. The slow part's files compute, and two per
 * core only made each slower: a fuzzed flow's 3 s limit was missed (3.3 s) beside them.
 */
function parallelJobs(perCore: number): string {
  return Deno.env.get("DENO_JOBS") ?? String(perCore * (navigator.hardwareConcurrency || 1));
}

/**
 * Runs `deno test` with these arguments, its output passed on as it comes; gives its counts. A
 * process the runtime itself ended (SIGABRT or SIGSEGV, before any summary) is run again (twice at most), and
 * says so: Deno 2.9.6 aborts inside nghttp2 when a GOAWAY reaches an idle `node:http2` session
 * (denoland/deno#36788, `find_stream_on_goaway_func: Assertion 'stream->closed_next == NULL'`), and
 * the gRPC tests' sessions were such; one abort took the slow part's 700 results with it. A crash
 * that comes back fails the part as before.
 */
async function denoTest(
  args: string[],
  jobs?: string,
): Promise<{ code: number; tally: Tally | undefined; failures: string[] }> {
  let run = await denoTestOnce(args, jobs);
  for (let again = 1; again <= 2 && run.tally === undefined && run.aborted; again++) {
    console.log(
      `\n::: deno test was ended by the runtime (exit ${run.code}) before its summary: run again (${again} of 2)\n`,
    );
    run = await denoTestOnce(args, jobs);
  }
  return run.abortSeen && run.tally ? await againAlone(run, run.tally) : run;
}

/**
 * A part in whose output the runtime aborted a process (a gRPC test server the tests serve from
 * a process of their own, tests/kinds/grpc/served.ts, meets the same nghttp2 abort as the test
 * processes did) runs each file that failed again, alone, once: a file that then passes counts
 * its failures as passed, and the log says so; one that fails again keeps its first failures.
 */
async function againAlone(run: PartRunOnce, tally: Tally): Promise<PartRunOnce> {
  const cleared = new Set<string>();
  for (const [file, count] of failedFiles(run.failures)) {
    console.log(`\n::: ${file} failed where the runtime aborted a process: run again alone\n`);
    const again = await denoTestOnce([file]);
    if (again.code !== 0 || again.tally?.failed !== 0) continue;
    cleared.add(file);
    tally.failed -= count;
    tally.passed += count;
  }
  const failures = run.failures.filter((_, i) => !cleared.has(fileOf(run.failures, i) ?? ""));
  return { ...run, failures, code: tally.failed === 0 ? 0 : run.code, tally };
}

/** The file of the failure heading at or before line `i` of a failure report. */
function fileOf(failures: readonly string[], i: number): string | undefined {
  const heading = failures.slice(0, i + 1).findLast((l) => / => \S+:\d+:\d+$/.test(l));
  return heading && / => (\S+):\d+:\d+$/.exec(heading)![1];
}

/**
 * The files of a failure report's headings, each with its number of failed tests.
 *
 * @example
 * ```ts
 * import { failedFiles } from "./test.ts";
 * import assert from "node:assert/strict";
 * const report = ["a => ./tests/a_test.ts:3:6", "error: x", "b => ./tests/a_test.ts:9:6", "c => ./tests/c_test.ts:1:6"];
 * assert.deepEqual([...failedFiles(report)], [["./tests/a_test.ts", 2], ["./tests/c_test.ts", 1]]);
 * ```
 */
export function failedFiles(failures: readonly string[]): Map<string, number> {
  const files = new Map<string, number>();
  for (const line of failures) {
    const file = / => (\S+):\d+:\d+$/.exec(line)?.[1];
    if (file) files.set(file, (files.get(file) ?? 0) + 1);
  }
  return files;
}

/** What one `deno test` process gave. */
type PartRunOnce = Awaited<ReturnType<typeof denoTestOnce>>;

/** The runtime's own abort, said by itself or by a served server's close (tests/kinds/grpc/served.ts). */
const RUNTIME_ABORT = /find_stream_on_goaway_func|had ended by itself \(SIG(?:ABRT|SEGV)\)/;

/** One `deno test` process; `aborted` when a signal of the runtime's own crash ended it. */
async function denoTestOnce(
  args: string[],
  jobs?: string,
): Promise<
  {
    code: number;
    tally: Tally | undefined;
    failures: string[];
    aborted: boolean;
    abortSeen: boolean;
  }
> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", ...args],
    ...(jobs ? { env: { DENO_JOBS: jobs } } : {}),
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  // Only the end is kept: the errors and the summary come last, and the whole output is megabytes.
  let tail = "";
  let abortSeen = false;
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    const text = decoder.decode(chunk, { stream: true });
    abortSeen ||= RUNTIME_ABORT.test(tail.slice(-200) + text);
    tail = (tail + text).slice(-262_144);
  }
  const { code, signal } = await child.status;
  const aborted = signal === "SIGABRT" || signal === "SIGSEGV" || code === 134 || code === 139;
  return { code, tally: tally(tail), failures: failureReport(tail), aborted, abortSeen };
}

/**
 * deno.json with `excluded` left out of `deno test`, written to a temporary directory: `--ignore`
 * is dropped as soon as `deno test` is given more than one path, and each part is given the files
 * it starts first before `.`. Its paths are made absolute, since the file is read from elsewhere
 * (a new path-valued key in deno.json needs the same here); the lock file is passed on its own.
 */
async function partConfig(root: string, excluded: readonly string[]): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const absolute = (paths: readonly string[] = []) => paths.map((path) => `${root}/${path}`);
  config.exclude = absolute(config.exclude);
  config.test = { exclude: absolute(excluded) };
  // The package imports itself by name (docs/versioning.md); "exports" would be read from /tmp.
  config.imports[config.name] = `${root}/${config.exports.replace(/^\.\//, "")}`;
  delete config.name;
  delete config.exports;
  delete config.publish;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-test-task-" });
  await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify(config));
  return `${dir}/deno.json`;
}

/** What one part (one `deno test` process) gave. */
type PartRun = Awaited<ReturnType<typeof denoTest>>;

/** One `deno test --parallel` of `paths` but `excluded`, `perCore` files per core at once. */
async function parallelPart(
  root: string,
  excluded: readonly string[],
  paths: readonly string[],
  perCore: number,
): Promise<PartRun> {
  const config = await partConfig(root, excluded);
  try {
    return await denoTest(
      [`--config=${config}`, `--lock=${root}/deno.lock`, "--parallel", ...paths],
      parallelJobs(perCore),
    );
  } finally {
    await Deno.remove(config.replace(/\/deno\.json$/, ""), { recursive: true });
  }
}

/**
 * Writes the bundle first (scripts/bundle.ts), so the CLI the tests start runs what an installed
 * flowrun runs, each process about 25 ms sooner. If it cannot be written, the tests run from
 * source (tests/cli/bundle_test.ts then fails and says why).
 */
async function bundle(): Promise<void> {
  try {
    const { files, inputs } = await writeBundle();
    console.log(`bundle: ${files} files from ${inputs} inputs`);
  } catch (error) {
    console.log(`bundle: not written, the CLI runs from source (${(error as Error).message})`);
  }
}

/**
 * Type-checks every runnable example of the JSDoc and Markdown (`deno check --doc-only`), which
 * tests/doc_examples_test.ts runs; counted as one test.
 */
async function checkExamples(root: string): Promise<PartRun> {
  console.log("::: deno check --doc-only (every example's types)");
  const success = await examplesTypeCheck(root);
  // Named in "What failed" like any test: unnamed, a CI log's tail said "1 failed" and nothing
  // more, and the whole run had to be repeated to find which example it was.
  return checkRun(
    success,
    "deno check --doc-only => an example of the JSDoc or Markdown does not type-check (above)",
  );
}

/** A check counted as one test: passed, or failed and named in "What failed" as `failure`. */
function checkRun(success: boolean, failure: string): PartRun {
  const failures = success ? [] : [failure];
  return {
    code: success ? 0 : 1,
    tally: { passed: 1 - failures.length, failed: failures.length, ignored: 0 },
    failures,
  };
}

/**
 * Says whether the bundle was still the one cli.ts runs when the tests ended: had an input
 * changed during the run, the CLI processes after it ran from source, and the run would not
 * have shown what the bundle does.
 */
async function bundleStillCurrent(): Promise<void> {
  const current = await currentBundle();
  console.log(
    current
      ? "bundle: still current at the end; the CLI processes ran it"
      : "bundle: not current at the end; CLI processes after the change ran from source",
  );
}

/**
 * Batches of the quick part, each one `deno test --parallel` process, one after the other: one
 * process over all 370 files held 3.1 GB by its end (what each file's run leaves behind is
 * only given back when the process ends); a batch ends at its slowest file, so more of them
 * would leave cores idle longer.
 */
const QUICK_BATCHES = 3;

/**
 * Type-checks `files` in one process (`deno check`), so that the batches that run them need
 * not each check the modules they share; counted as one test.
 */
async function checkFiles(root: string, files: readonly string[]): Promise<PartRun> {
  console.log(`::: deno check (the ${files.length} files' types)`);
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", ...files],
    cwd: root,
    stdin: "null",
  }).spawn().status;
  return checkRun(success, "deno check => the types of the quick part's files (above)");
}

/**
 * The quick part: every test file but those of {@linkcode SLOW} and {@linkcode ALONE}, checked
 * once, then run in {@linkcode QUICK_BATCHES} batches, {@linkcode WAITING_FIRST} at the head of
 * the first, two files per core at once.
 */
async function quickPart(root: string): Promise<PartRun[]> {
  const elsewhere = new Set([...SLOW, ...ALONE, ...OWN_PROCESS]);
  const files = (await testFiles(root)).filter((file) => !elsewhere.has(file));
  const runs = [await checkFiles(root, files)];
  for (const batch of batches(files, WAITING_FIRST, QUICK_BATCHES)) {
    runs.push(await denoTest(["--no-check", "--parallel", ...batch], parallelJobs(2)));
  }
  return runs;
}

/** The line printed when the quick part ends, its time since the start of the command. */
function quickLine(runs: readonly PartRun[], ms: number, quickOnly: boolean): string {
  const line = summaryLine(runs.map((run) => run.tally), ms);
  return quickOnly
    ? `quick part: ${line}`
    : `quick part: ${line}; the slow part follows (${SLOW.length} files, then ${
      OWN_PROCESS.length + ALONE.length
    } alone)`;
}

async function main(args: string[]): Promise<number> {
  const quickOnly = args[0] === "--quick";
  if (args.length > 0 && !quickOnly) {
    return (await denoTest(["--doc", "--parallel", ...args])).code;
  }
  const started = performance.now();
  await bundle();
  const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const runs: PartRun[] = [await checkExamples(root)];
  console.log("::: the quick part");
  runs.push(...await quickPart(root));
  console.log(`\n${quickLine(runs, performance.now() - started, quickOnly)}\n`);
  if (!quickOnly) {
    console.log("::: the slow part");
    runs.push(await parallelPart(root, [...ALONE, ...OWN_PROCESS], SLOW, 1));
    for (const file of OWN_PROCESS) runs.push(await denoTest([file]));
    // Each in a process of its own: a helper thread an earlier file left spinning on a runaway
    // pattern would otherwise take the CPU these limits are measured against.
    for (const file of ALONE) runs.push(await denoTest([file]));
  }
  await bundleStillCurrent();
  const failures = runs.flatMap((run) => run.failures);
  if (failures.length > 0) console.log(`\nWhat failed:\n${failures.join("\n")}`);
  const timing = timingReport(failures);
  if (timing.length > 0) {
    console.log(
      `\nTiming-sensitive (they depend on the clock; a busy machine can fail them):\n${
        timing.join("\n")
      }`,
    );
  }
  console.log(`\n${summaryLine(runs.map((run) => run.tally), performance.now() - started)}`);
  return runs.some((run) => run.code !== 0) ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
