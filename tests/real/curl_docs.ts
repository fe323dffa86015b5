/**
 * `convert curl` on the projects' own documented curl examples, as a new
 * user pastes them: the vendored file (`fixtures/curl_docs/<project>.sh`)
 * is converted with default options, `validate` must accept the flow, and
 * it runs once on a fresh instance with only the variables its header asks
 * for. Shared by curl_docs_test.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readReport, type ReportStep } from "./measure.ts";
import { runCli } from "../support/cli.ts";

/** Where the vendored examples are. */
export const DOCS = new URL("./fixtures/curl_docs/", import.meta.url).pathname;

/** One project's examples and how a user runs them. */
export interface DocsCase {
  /** The fixture's name (`pdns` for `fixtures/curl_docs/pdns.sh`). */
  file: string;
  /**
   * The value the user gives each variable the flow asks for (`what` is
   * the header's description); throws for one a new user cannot know.
   */
  value(name: string, what: string): string;
  /** The doc's own answer where it is not a 2xx (httpbin's `/status/418`: 418), by step. */
  answers?: Record<string, number>;
  /** The steps no fresh instance answers with the doc's success, each with why. */
  impossible: Record<string, string>;
  /** Credentials the commands hold, never to be written in the flow. */
  secrets: string[];
  /** Words equal to a credential the flow must keep as written (`grant_type: password`). */
  kept?: string[];
}

/** What a case's conversion and run gave. */
export interface DocsResult {
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

/** The doc's answer: the one it names, else a 2xx. */
const succeeded = (c: DocsCase) => (s: ReportStep) => {
  const status = s.response?.status ?? 0;
  const named = c.answers?.[s.name];
  return named === undefined ? status >= 200 && status < 300 : status === named;
};

/**
 * Converts `fixtures/curl_docs/<file>.sh` into `dir` with default options,
 * validates it, and runs it with the variables `value` gives (each one the
 * header names); asserts no secret is written and every `kept` word is.
 */
export async function convertAndRunDocs(c: DocsCase, dir: string): Promise<DocsResult> {
  const flow = `${dir}/${c.file}.yaml`;
  const converted = await runCli(["convert", "curl", `${DOCS}${c.file}.sh`, "-o", flow]);
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
    `${c.file}: ${passed.length} of ${steps.length} examples got the doc's answer\n${
      steps.map(line).join("\n")
    }`,
  );
  return { yaml, asked, steps, passed, failed };
}

/**
 * Asserts that the steps that failed are exactly the ones `c` names as
 * impossible on a fresh instance (a fix that makes one pass shows too).
 */
export function assertOnlyImpossible(c: DocsCase, result: DocsResult): void {
  const failed = [...result.failed].sort();
  const expected = Object.keys(c.impossible).sort();
  assert.deepEqual(
    failed,
    expected,
    `failed: ${failed.join(", ") || "none"}; impossible: ${
      expected.join(", ") || "none"
    }\n${result.yaml}`,
  );
}
