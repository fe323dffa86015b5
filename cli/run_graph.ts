/**
 * Every module `flowrun run` evaluates, imported from here so that Deno
 * finds them all one level below cli/run.ts rather than one import depth at
 * a time (6 ms of a one-request run's start-up). Written by
 * scripts/run_graph.ts; a test fails when it is out of date.
 *
 * @module
 */
import "./args.ts";
import "./artifacts.ts";
import "./ci_annotations.ts";
import "./exit.ts";
import "./flow_sources.ts";
import "./help.ts";
import "./output.ts";
import "./signals.ts";
import "./spool.ts";
import "../lib/_util/bounded_cache.ts";
import "../lib/_util/compare.ts";
import "../lib/_util/duration.ts";
import "../lib/_util/internal_error.ts";
import "../lib/_util/json_head.ts";
import "../lib/_util/on_demand.ts";
import "../lib/_util/own_property.ts";
import "../lib/_util/regex.ts";
import "../lib/_util/suggest.ts";
import "../lib/check/assert.ts";
import "../lib/check/capture.ts";
import "../lib/check/json_value.ts";
import "../lib/check/operators.ts";
import "../lib/check/schema.ts";
import "../lib/check/xpath.ts";
import "../lib/expr/path.ts";
import "../lib/expr/path_engine.ts";
import "../lib/expr/template.ts";
import "../lib/http/body_blocks.ts";
import "../lib/http/body_limits.ts";
import "../lib/http/cookie_jar.ts";
import "../lib/http/curl.ts";
import "../lib/http/deadlines.ts";
import "../lib/http/network_reason.ts";
import "../lib/http/read_body.ts";
import "../lib/http/redirect.ts";
import "../lib/http/request.ts";
import "../lib/http/request_error.ts";
import "../lib/http/response.ts";
import "../lib/http/send.ts";
import "../lib/http/url.ts";
import "../lib/io/client_check.ts";
import "../lib/io/io.ts";
"../lib/load/set_discover.ts";
"../lib/load/set_finish.ts";
"../lib/load/set_held.ts";
"../lib/load/set_includes.ts";
"../lib/load/set_loader.ts";
"../lib/load/set_read.ts";
"../lib/load/set_rows.ts";
"../lib/load/set_special.ts";
"../lib/load/set_steps.ts";
"../lib/load/set_types.ts";
import
import
import
import
import
import
import
import
import
import
import "../lib/load/body.ts";
import "../lib/load/captures.ts";
import "../lib/load/checks.ts";
import "../lib/load/conditions.ts";
import "../lib/load/context.ts";
import "../lib/load/data.ts";
import "../lib/load/data_file.ts";
import "../lib/load/engines.ts";
import "../lib/load/expand_includes.ts";
import "../lib/load/fast_yaml.ts";
import "../lib/load/flow_cache.ts";
import "../lib/load/headers.ts";
import "../lib/load/include.ts";
import "../lib/load/load_flow.ts";
import "../lib/load/loop.ts";
import "../lib/load/nodes.ts";
import "../lib/load/options.ts";
import "../lib/load/order.ts";
import "../lib/load/ref_checks.ts";
import "../lib/load/references.ts";
import "../lib/load/request.ts";
import "../lib/load/schema_compile.ts";
import "../lib/load/schema_problem.ts";
import "../lib/load/steps.ts";
import "../lib/load/suite.ts";
import "../lib/load/tags.ts";
import "../lib/load/vars.ts";
import "../lib/load/yaml.ts";
import "../lib/load/yaml_engine.ts";
import "../lib/load/yaml_limits.ts";
import "../lib/model/errors.ts";
import "../lib/model/events.ts";
import "../lib/model/flow.ts";
import "../lib/model/limits.ts";
import "../lib/model/masking.ts";
import "../lib/model/operators.ts";
import "../lib/model/result.ts";
import "../lib/model/version.ts";
import "../lib/report/console.ts";
import "../lib/report/console_step.ts";
import "../lib/report/failures.ts";
import "../lib/report/problems.ts";
import "../lib/report/progress.ts";
import "../lib/report/queued.ts";
import "../lib/report/reporter.ts";
import "../lib/report/style.ts";
import "../lib/report/terminal.ts";
import "../lib/run/attempt.ts";
import "../lib/run/context.ts";
import "../lib/run/flows.ts";
import "../lib/run/poll.ts";
import "../lib/run/step.ts";
import "../lib/run/step_result.ts";
import "../lib/secrets/decode.ts";
import "../lib/secrets/discover.ts";
import "../lib/secrets/mod.ts";
import "../lib/secrets/names.ts";
import "../lib/secrets/redactor.ts";
import "../lib/secrets/substring_table.ts";
import "../lib/secrets/userinfo.ts";
import "../lib/select/filter.ts";
import "../lib/select/shard.ts";
import "../lib/select/shard_time.ts";
import "../lib/select/tags.ts";
