/**
 * The processor's part for WebSocket, SSE and gRPC steps (kind_step.ts): the
 * function each such step's `function:` item names calls `flowrunKind`,
 * which makes the exchange (processor_websocket.ts, processor_sse.ts,
 * processor_grpc.ts, processor_grpc_reflection.ts),
 * emits its time as the histogram `flowrun.<kind>.<step>` and what it sent
 * and received as counters, then applies the step's checks and captures to
 * a response of the kind's shape with the hooks HTTP steps use
 * (processor_checks.ts): a failed check or a capture that finds nothing
 * fails the virtual user as a failed expectation does, a connection that
 * fails too.
 *
 * @module
 */
import { DEFAULT_MAX_BODY_BYTES } from "../http/body_limits.ts";
import type { ExportScope } from "./scope.ts";
import { GRPC_SOURCE } from "./processor_grpc.ts";
import { GRPC_JSON_SOURCE } from "./processor_grpc_json.ts";
import { GRPC_REFLECTION_SOURCE } from "./processor_grpc_reflection.ts";
import { SSE_SOURCE } from "./processor_sse.ts";
import { WEBSOCKET_SOURCE } from "./processor_websocket.ts";

const SHARED = `
/**
 * A package the processor may use, loaded lazily: from beside the script
 * (npm install there), else from Artillery's own dependencies (the script
 * runs inside Artillery, whose entry is the main module), else undefined.
 */
function optionalModule(name) {
  const { createRequire } = require("node:module");
  const bases = [__filename, require.main && require.main.filename, process.argv[1]];
  for (const base of bases) {
    if (!base) continue;
    try {
      return createRequire(base)(name);
    } catch {
      // Not there: the next place.
    }
  }
  return undefined;
}

/** Each PEM file beside the script (tls/N.pem, tls/N.key), read once per process. */
const pemFiles = new Map();
function pemFile(file) {
  if (!pemFiles.has(file)) {
    const { readFileSync, existsSync } = require("node:fs");
    const path = require("node:path");
    const beside = path.join(__dirname, file);
    pemFiles.set(file, readFileSync(existsSync(beside) ? beside : path.resolve(file), "utf8"));
  }
  return pemFiles.get(file);
}

/**
 * A step's TLS as Node's TLS options, or undefined when it has none: its
 * CAs trusted besides the system's, its client certificate, and insecure
 * (no certificate or host name check), as flowrun run's --cacert,
 * --cert/--key and --insecure.
 */
function tlsOptions(tls) {
  if (!tls) return undefined;
  const { rootCertificates } = require("node:tls");
  return {
    ...(tls.ca && { ca: [...rootCertificates, ...tls.ca.map(pemFile)] }),
    ...(tls.cert && { cert: pemFile(tls.cert), key: pemFile(tls.key) }),
    ...(tls.insecure && { rejectUnauthorized: false, checkServerIdentity: () => undefined }),
  };
}

/** A message's text as flowrun keeps it: parsed when it is JSON, else as it came. */
function parsed(text) {
  if (!/\\S/.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether one test of an until filter holds for a message (until.ts writes the tests). */
function untilTest(test, message) {
  let value = message;
  for (const key of test.at) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !(key in value)) {
      return test.op === "!=";
    }
    value = value[key];
  }
  if (test.op === "exists") return true;
  if (test.op === "==") return same(value, test.value);
  if (test.op === "!=") return !same(value, test.value);
  if (test.op.endsWith("=") && same(value, test.value)) return true;
  const comparable = typeof value === typeof test.value &&
    (typeof value === "number" || typeof value === "string");
  if (!comparable) return false;
  return test.op[0] === "<" ? value < test.value : value > test.value;
}

/** Whether the message just received makes \`until\` hold, as its filter over [message] would. */
const untilHolds = (until, message) => until.any.some((tests) => tests.every((t) => untilTest(t, message)));

/** The failed until check, as flowrun words it, when until was asked and never held. */
function untilFailures(spec, count, what, why) {
  if (!spec.until || why === undefined) return [];
  const arrived = count === 1 ? "the 1 " + what + " that arrived" : "the " + count + " " + what + "s that arrived";
  // A WebSocket step's paths are a list, each quoted, joined with "and", as flowrun run says them.
  const paths = [].concat(spec.until).map((u) => u.source);
  const sources = paths.map((source) => JSON.stringify(source)).join(" and ");
  return ["until " + sources + " did not hold in " + arrived + why + "."];
}

/** A WebSocket URL as the jar matches it: ws:// as http://, wss:// as https://. */
const jarUrl = (url) => url.replace(/^ws/i, "http");

/**
 * The spec with the cookies of the user's jar for its URL after the step's
 * own cookie header: Artillery's jar, which its HTTP requests fill, standing for
 * flowrun's (used only with cookie_jar, as in flowrun run).
 */
function withJar(spec, jar) {
  const cookies = jar && typeof jar.getCookieStringSync === "function"
    ? jar.getCookieStringSync(jarUrl(spec.url)) : "";
  if (!cookies) return spec;
  const headers = {};
  for (const [name, value] of Object.entries(spec.headers || {})) headers[name.toLowerCase()] = value;
  headers.cookie = headers.cookie ? text(headers.cookie) + "; " + cookies : cookies;
  return { ...spec, headers };
}

/** Keeps the cookies an answer set in the user's jar, as Artillery keeps an HTTP response's. */
function keepCookies(context, url, lines) {
  if (!context._jar || !lines || lines.length === 0) return;
  context._enableCookieJar = true;
  for (const line of lines) {
    try {
      context._jar.setCookieSync(line, jarUrl(url));
    } catch {
      // One that does not parse is skipped, as Artillery skips it.
    }
  }
}

/**
 * The spec with its auth's credentials added as flowrun adds them: the
 * step's own header or query parameter wins, a cookie is appended.
 */
function withAuth(spec, auth) {
  const headers = {};
  for (const [name, value] of Object.entries(spec.headers || {})) headers[name.toLowerCase()] = value;
  const add = (name, value) => {
    if (!(name in headers)) headers[name] = value;
  };
  for (const [name, value] of Object.entries(auth.headers || {})) add(name.toLowerCase(), value);
  if (auth.auth) add("authorization", "Basic " + Buffer.from(text(auth.auth.user) + ":" + text(auth.auth.pass)).toString("base64"));
  const cookies = Object.entries(auth.cookie || {}).map(([name, value]) => name + "=" + text(value));
  if (cookies.length) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join("; ");
  // An API key in the query: appended to the URL as written, percent-encoded, before its #.
  let url = spec.url;
  for (const [name, value] of Object.entries(auth.qs || {})) {
    const parsed = new URL(url);
    if (parsed.searchParams.has(name)) continue;
    const hash = url.indexOf("#");
    const head = hash < 0 ? url : url.slice(0, hash);
    const pair = encodeURIComponent(name) + "=" + encodeURIComponent(text(value));
    url = head + (parsed.search ? "&" : "?") + pair + (hash < 0 ? "" : url.slice(hash));
  }
  return { ...spec, url, headers };
}

/** A step's checks and captures on the response its exchange gave: the sentences of what failed. */
function kindVerdict(step, res, vars, events) {
  const failed = res.failures.slice();
  for (const check of step.checks) {
    const { ok, text } = verdict(check, res, vars);
    events.emit("counter", "flowrun.checks." + (ok ? "ok" : "failed"), 1);
    if (!ok) failed.push(text);
  }
  for (const capture of step.captures) {
    const [found, value] = readAt(res, capture.at);
    if (found) vars[capture.as] = value;
    else failed.push("capture " + capture.as + ": nothing found");
  }
  return failed;
}

/** A WebSocket, SSE or gRPC step: the exchange, its metrics, then its checks and captures. */
function flowrunKind(step, context, events, done) {
  const v = context.vars;
  if (step.ifTrue && !module.exports[step.ifTrue](v)) return done();
  const metric = "flowrun." + step.kind + "." + step.name;
  const started = performance.now();
  let spec;
  try {
    spec = render(step.spec, v);
    if (step.jar) spec = withJar(spec, context._jar);
    if (step.auth) spec = withAuth(spec, render(step.auth, v));
  } catch (error) {
    // A URL the user's values made that does not parse, as flowrun's bad-url.
    return done(error);
  }
  const exchange = { sse: sseExchange, websocket: webSocketExchange, grpc: grpcExchange }[step.kind];
  // A promise made of a synchronous throw too (no gRPC client, a bad target): it fails the user.
  new Promise((resolve) => resolve(exchange(spec, step.timeoutMs, tlsOptions(step.tls)))).then((res) => {
    const ms = performance.now() - started;
    events.emit("histogram", metric, ms);
    events.emit("counter", metric + ".received", res.received);
    if (res.sent !== undefined) events.emit("counter", metric + ".sent", res.sent);
    res.timings = { phases: { total: ms } };
    if (step.jar) keepCookies(context, spec.url, res.setCookies);
    const failed = kindVerdict(step, res, v, events);
    return failed.length === 0 ? done() : fail({ name: step.name }, failed, done);
  }, (error) => {
    events.emit("counter", metric + ".errors", 1);
    if (global.artillery) global.artillery.suggestedExitCode = 21;
    const why = (error.cause && error.cause.message) || error.message;
    console.log("not ok " + step.name + ": " + why);
    return done(new Error("The " + step.kind + " step " + step.name + " failed: " + why));
  });
}
`;

/** The processor's body limit: --max-body when exporting, else flowrun's default. */
function limitSource(scope: ExportScope): string {
  const given = scope.maxBodyBytes !== undefined;
  return `\n// The most bytes an answer, a stream or a message may hold: ${
    given ? "--max-body when exporting" : "flowrun's default --max-body"
  }.\nconst MAX_BODY_BYTES = ${scope.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES};\n`;
}

/**
 * The processor's functions for the WebSocket and SSE steps `scope` met
 * (none when it met none), and their names, to export.
 *
 * @example
 * ```ts
 * import { kindFunctions } from "./processor_kinds.ts";
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * if (kindFunctions(scope).source !== "") throw new Error();
 * scope.kindSteps.set("flowrunSse1", { kind: "sse", name: "s" });
 * const got = kindFunctions(scope);
 * if (got.names[0] !== "flowrunSse1" || !got.source.includes("function sseExchange(")) throw new Error();
 * ```
 */
export function kindFunctions(scope: ExportScope): { source: string; names: string[] } {
  if (scope.kindSteps.size === 0) return { source: "", names: [] };
  const steps = [...scope.kindSteps].map(([name, data]) => {
    const { kind, name: step } = data as { kind: string; name: string };
    return `/** The ${kind} step ${
      JSON.stringify(step)
    }. */\nfunction ${name}(context, events, done) {\n` +
      `  return flowrunKind(${JSON.stringify(data)}, context, events, done);\n}\n`;
  });
  return {
    source: `${
      limitSource(scope)
    }${SHARED}${WEBSOCKET_SOURCE}${SSE_SOURCE}${GRPC_SOURCE}${GRPC_JSON_SOURCE}${GRPC_REFLECTION_SOURCE}\n${
      steps.join("\n")
    }`,
    names: [...scope.kindSteps.keys()],
  };
}
