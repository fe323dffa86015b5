/**
 * `convert curl` on curl commands written here for real servers, in the
 * styles each server's users write: the file (`fixtures/curl_commands/<server>.sh`)
 * is converted with default options, `validate` must accept the flow, and
 * it runs once on a fresh instance with only the variables its header asks
 * for. Shared by curl_commands_test.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readReport, type ReportStep } from "./measure.ts";
import { runCli } from "../support/cli.ts";

/** Where the commands are. */
export const COMMANDS = new URL("./fixtures/curl_commands/", import.meta.url).pathname;

/** One server's commands and how a user runs them. */
export interface CommandsCase {
  /** The fixture's name (`pdns` for `fixtures/curl_commands/pdns.sh`). */
  file: string;
  /** How many requests the commands send: each one a step. */
  requests: number;
  /**
   * The value the user gives each variable the flow asks for (`what` is
   * the header's description); throws for one a new user cannot know.
   */
  value(name: string, what: string): string;
  /** The intended answer where it is not a 2xx (httpbin's `/status/418`: 418), by step. */
  answers?: Record<string, number>;
  /** Credentials the commands hold, never to be written in the flow. */
  secrets: string[];
  /** Words equal to a credential the flow must keep as written (`grant_type: password`). */
  kept?: string[];
}

/** What a case's conversion and run gave. */
export interface CommandsResult {
  yaml: string;
  asked: Map<string, string>;
  steps: ReportStep[];
  passed: string[];
  failed: string[];
}

/** The variables a converted flow's header asks for (required and optional), with what it says of each. */
export function headerVariables(yaml: string): Map<string, string> {
  const asked = new Map<string, string>();
  for (const line of yaml.split("\n")) {
    if (!line.startsWith("#")) break;
    const m = /^#\s{3}([A-Z][A-Z0-9_]*)\s+(.*)$/.exec(line);
    if (m) asked.set(m[1], m[2]);
  }
  return asked;
}

/** The intended answer: the one the case names, else a 2xx. */
const succeeded = (c: CommandsCase) => (s: ReportStep) => {
  const status = s.response?.status ?? 0;
  const named = c.answers?.[s.name];
  return named === undefined ? status >= 200 && status < 300 : status === named;
};

/**
 * Converts `fixtures/curl_commands/<file>.sh` into `dir` with default options,
 * validates it, and runs it with the variables `value` gives (each one the
 * header names); asserts no secret is written and every `kept` word is.
 */
export async function convertAndRun(c: CommandsCase, dir: string): Promise<CommandsResult> {
  const flow = `${dir}/${c.file}.yaml`;
  const converted = await runCli(["convert", "curl", `${COMMANDS}${c.file}.sh`, "-o", flow]);
  assert.equal(converted.code, 0, converted.stderr);
  const yaml = await Deno.readTextFile(flow);
  for (const secret of c.secrets) {
    assert.ok(!yaml.includes(secret), `the flow writes the credential ${secret}:\n${yaml}`);
  }
  for (const word of c.kept ?? []) {
    assert.ok(yaml.includes(word), `the flow lost ${word}:\n${yaml}`);
  }
  const asked = headerVariables(yaml);
  const env: Record<string, string> = {};
  for (const [name, what] of asked) env[name] = c.value(name, what);
  const validated = await runCli(["validate", flow], { env });
  const said = validated.stdout + validated.stderr;
  assert.equal(validated.code, 0, `validate refused the flow:\n${said}\n${yaml}`);
  const report = `${dir}/${c.file}.report.json`;
  const run = await runCli(["run", flow, "--report-json", report], { env });
  const { steps } = await readReport(report).catch(() => {
    throw new Error(`no report (exit ${run.code}):\n${run.stderr}\n${yaml}`);
  });
  const passed = steps.filter(succeeded(c)).map((s) => s.name);
  const failed = steps.filter((s) => !succeeded(c)(s)).map((s) => s.name);
  const line = (s: ReportStep) =>
    `  ${s.name}: ${s.response?.status ?? s.status}${s.message ? ` ${s.message}` : ""}`;
  console.error(
    `${c.file}: ${passed.length} of ${steps.length} commands got the intended answer\n${
      steps.map(line).join("\n")
    }`,
  );
  return { yaml, asked, steps, passed, failed };
}

/**
 * Asserts that every command became a step and every step got its intended
 * answer: the commands were written for a fresh instance.
 */
export function assertAllSucceeded(c: CommandsCase, result: CommandsResult): void {
  const { steps, failed, yaml } = result;
  assert.equal(steps.length, c.requests, `${c.requests} requests, ${steps.length} steps:\n${yaml}`);
  assert.deepEqual(failed, [], `failed: ${failed.join(", ")}\n${yaml}`);
}
