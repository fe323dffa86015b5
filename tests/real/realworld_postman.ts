/**
 * The RealWorld project's Postman collection on a RealWorld backend, with
 * Newman and with flowrun, compared: Newman runs it against fresh instance A with the
 * variables the project's `run-api-tests.sh` sets; flowrun converts it with
 * default options and runs it as its summary prints it, with the variables
 * the summary names set to the same values, against fresh instance B; both
 * through one recording proxy. Goal: the same requests in the same order
 * with the same bodies and statuses, and every check Newman ran with
 * Newman's outcome. Shared by `conduit_postman_test.ts`,
 * `conduit_koa_postman_test.ts` and `conduit_moleculer_postman_test.ts`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { printedRun, readReport, type ReportStep } from "./measure.ts";
import { newmanRun } from "./newman_child.ts";
import type { NewmanRequest } from "./postman_newman.ts";
import { type Received, startRecordingProxy } from "./postman_proxy.ts";
import type { RealWorldBackend } from "./realworld_openapi.ts";

/** What `run-api-tests.sh` sets, as a user of the collection would. */
const VARIABLES: Record<string, string> = {
  USERNAME: "u1795690000",
  EMAIL: "u1795690000@mail.com",
  PASSWORD: "password",
};

/**
 * `METHOD /path?query body` of each request, with what each instance made
 * its own way read by where it came from: an answer's `article.slug`
 * (the title and a random suffix) as `{slug}`, an answer's `comment.id`
 * (a UUID) as `{comment}`.
 */
function lines(received: readonly Received[]): string[] {
  const made = received.flatMap((r) => {
    const answer = parsed(r.answer);
    return [[answer?.article?.slug, "{slug}"], [answer?.comment?.id, "{comment}"]]
      .filter(([value]) => typeof value === "string" && value !== "") as [string, string][];
  });
  const named = (text: string) => made.reduce((t, [v, name]) => t.replaceAll(v, name), text);
  return received.map((r) => {
    const body = parsed(r.body);
    return named(`${r.method} ${r.target} ${body === undefined ? r.body : JSON.stringify(body)}`);
  });
}

// deno-lint-ignore no-explicit-any
function parsed(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Each request's checks as `✔ name` / `✘ name`, sorted: Newman's `tests[…]`, flowrun's named checks. */
function newmanChecks(sent: readonly NewmanRequest[]): string[][] {
  return sent.map((r) => r.assertions.map((a) => `${a.passed ? "✔" : "✘"} ${a.name}`).sort());
}

function flowrunChecks(steps: readonly ReportStep[]): string[][] {
  return steps.map((s) =>
    ((s.assertions ?? []) as { name?: string; passed: boolean }[])
      // A check without a name is flowrun's note of an `if` branch not taken.
      .filter((a) => a.name !== undefined)
      .map((a) => `${a.passed ? "✔" : "✘"} ${a.name}`).sort()
  );
}

/** The environment and `--var` pairs a conversion summary names, set to the user's values. */
function asSummaryAsks(summary: string): { env: Record<string, string>; vars: string[] } {
  const env: Record<string, string> = {};
  const vars: string[] = [];
  const before = /^Set before running: (.*)\.$/m.exec(summary)?.[1] ?? "";
  for (const [, name] of before.matchAll(/(\w+) \(\{\{(\w+)\}\}\)/g)) env[name] = VARIABLES[name];
  const unset = /^No value in the collection or environment for (.*): sent as written/m
    .exec(summary)?.[1] ?? "";
  for (const [, name] of unset.matchAll(/\{\{(\w+)\}\}/g)) {
    vars.push("--var", `${name}=${VARIABLES[name]}`);
  }
  return { env, vars };
}

/** `flowrun convert postman` with default options (and the environment file, if any): the printed run and what it asks. */
async function convert(collection: string, dir: string, environment: Record<string, string>) {
  const options: string[] = [];
  if (Object.keys(environment).length > 0) {
    const values = Object.entries(environment).map(([key, value]) => ({
      key,
      value,
      enabled: true,
    }));
    await Deno.writeTextFile(`${dir}/env.json`, JSON.stringify({ name: "Integration", values }));
    options.push("--environment", `${dir}/env.json`);
  }
  const converted = await runCli([
    "convert",
    "postman",
    collection,
    ...options,
    "-o",
    `${dir}/flows`,
  ]);
  assert.equal(converted.code, 0, converted.stdout + converted.stderr);
  assert.match(converted.stderr, /^Assertions: \d+ translated, 0 untranslated/m);
  const args = printedRun(converted.stderr);
  assert.ok(args, `no Run: line in\n${converted.stderr}`);
  const asked = asSummaryAsks(converted.stderr);
  assert.deepEqual(Object.keys(asked.env), ["APIURL", "PASSWORD"], converted.stderr);
  return [args, asked] as const;
}

/** What both runners did: the requests the instances received and each request's checks. */
export interface Measured {
  newman: string[];
  flowrun: string[];
  statuses: string[];
  newmanChecks: string[][];
  flowrunChecks: string[][];
  /** The requests the two instances answered with the same lists of text in other orders. */
  reordered: number[];
}

/** Every array of text in a JSON value, in the order met. */
function textLists(value: unknown): string[][] {
  if (Array.isArray(value)) {
    const own = value.every((v) => typeof v === "string") ? [value as string[]] : [];
    return [...own, ...value.flatMap(textLists)];
  }
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(textLists);
  return [];
}

/**
 * Whether two answers hold the same lists of text, some in another order:
 * the backend's listings join an article's tags with no `ORDER BY` (on
 * random UUID keys), so each instance lists them in an order of its own,
 * and a check of the first tag may pass on one and fail on the other.
 */
function reordered(a: string, b: string): boolean {
  const [x, y] = [textLists(parsed(a)), textLists(parsed(b))];
  const same = (p: string[][], q: string[][]) => JSON.stringify(p) === JSON.stringify(q);
  const sorted = (l: string[][]) => l.map((t) => [...t].sort());
  return !same(x, y) && same(sorted(x), sorted(y));
}

/**
 * Newman and flowrun on the collection at `source` against fresh instances
 * of `backend` behind one proxy. `environment` (none for `run-api-tests.sh`'s
 * run) is a Postman environment the user keeps beside the collection:
 * Newman gets its values as variables, and the conversion the file
 * (`--environment`).
 */
export async function measurePostman(
  dir: string,
  source: string,
  backend: RealWorldBackend["with"],
  environment: Record<string, string> = {},
): Promise<Measured> {
  const proxy = startRecordingProxy();
  try {
    const collection = `${dir}/Conduit.postman_collection.json`;
    await Deno.copyFile(source, collection);
    const apiUrl = `${proxy.origin}/api`;
    const [newmanSent, newmanReceived] = await backend(async (a) => {
      proxy.point(a.origin);
      // A user's own run is the project's run-api-tests.sh: each variable given by name.
      const given = { APIURL: apiUrl, ...VARIABLES, ...environment };
      const sent = await newmanRun(collection, dir, Object.entries(given).map((p) => p.join("=")));
      return [sent, proxy.received()] as const;
    });
    const [args, asked] = await convert(collection, dir, environment);
    const [steps, flowrunReceived] = await backend(async (b) => {
      proxy.point(b.origin);
      const report = `${dir}/report.json`;
      await runCli([...args, ...asked.vars, "--report-json", report], {
        env: { ...asked.env, APIURL: apiUrl },
      });
      const read = await readReport(report).catch(() => undefined);
      assert.ok(read, "no report");
      return [read.steps, proxy.received()] as const;
    });
    return {
      newman: lines(newmanReceived),
      flowrun: lines(flowrunReceived),
      statuses: newmanReceived.map((r, i) => [r, flowrunReceived[i]] as const)
        .filter(([a, b]) => b && a.status !== b.status)
        .map(([a, b]) => `${a.method} ${a.target}: Newman ${a.status}, flowrun ${b.status}`),
      newmanChecks: newmanChecks(newmanSent),
      flowrunChecks: flowrunChecks(steps),
      reordered: newmanReceived.flatMap((r, i) =>
        flowrunReceived[i] && reordered(r.answer, flowrunReceived[i].answer) ? [i] : []
      ),
    };
  } finally {
    await proxy.close();
  }
}

const count = (c: string[][], mark = "") => c.flat().filter((t) => t.startsWith(mark)).length;

/** Prints the numbers, then asserts flowrun did what Newman did, with `checks` checks run by Newman. */
export function compare(
  label: string,
  what: string,
  m: Measured,
  requests: number,
  checks: number,
) {
  const failing = m.newman.flatMap((line, i) =>
    m.newmanChecks[i].filter((c) => c.startsWith("✘")).map((c) => `${line.split(" {")[0]} ${c}`)
  );
  console.error(
    `RealWorld (${label}), ${what}: Newman sent ${m.newman.length} requests, flowrun ${m.flowrun.length}; ` +
      `checks: Newman ${count(m.newmanChecks, "✔")}/${count(m.newmanChecks)} passed, flowrun ${
        count(m.flowrunChecks, "✔")
      }/${count(m.flowrunChecks)}; statuses differ: ${m.statuses.join("; ") || "none"}; ` +
      `lists in other orders: ${
        m.reordered.map((i) => m.newman[i].split(" {")[0]).join("; ") || "none"
      }; ` +
      `failing under Newman: ${failing.join("; ")}`,
  );
  assert.equal(m.newman.length, requests);
  assert.deepEqual(m.flowrun, m.newman);
  assert.deepEqual(m.statuses, []);
  assert.equal(count(m.newmanChecks), checks);
  // Where the instances listed the same texts in other orders, the same checks, verdicts their own.
  const unmarked = (c: string[][]) =>
    c.map((checks, i) => m.reordered.includes(i) ? checks.map((t) => t.slice(2)).sort() : checks);
  assert.deepEqual(unmarked(m.flowrunChecks), unmarked(m.newmanChecks));
}
