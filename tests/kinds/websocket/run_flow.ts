/**
 * Runs a flow file through the CLI as a subprocess with every artifact
 * (`--out-dir`: JSON, JUnit, HTML, log) and reads them back, for the
 * websocket step's end-to-end tests.
 */
import { runBounded } from "../../support/cli.ts";

/** A step of the JSON report, as far as these tests read it. */
export interface ReportStep {
  name: string;
  status: string;
  attempts: number;
  message?: string;
  failure_kind?: string;
  request?: { method: string; url: string; headers?: Record<string, string>; body?: string };
  response?: { status: number; headers?: Record<string, string>; body?: string };
  assertions?: { path: string; passed: boolean; message: string; actual?: unknown }[];
  captures?: string[];
}

/** What a run gave: exit code, console, and each artifact, text and parsed. */
export interface FlowRun {
  code: number;
  stdout: string;
  stderr: string;
  killed: boolean;
  steps: ReportStep[];
  json: string;
  junit: string;
  html: string;
  log: string;
}

/**
 * Writes `yaml` to a temporary folder and runs it with `args` and `env`,
 * killed after 60 s (a hang fails the test); `interruptWhen` sends SIGINT
 * once the standard output satisfies it.
 */
export async function runFlow(
  yaml: string,
  options: {
    args?: string[];
    env?: Record<string, string>;
    interruptWhen?: (stdout: string) => boolean;
    interruptOn?: Promise<unknown>;
  } = {},
): Promise<FlowRun> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ws-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, yaml);
    const run = await runBounded(
      ["run", `${dir}/flow.yaml`, "--out-dir", `${dir}/out`, ...options.args ?? []],
      {
        env: options.env,
        ms: 60_000,
        interruptWhen: options.interruptWhen,
        interruptOn: options.interruptOn,
      },
    );
    const read = (name: string) => Deno.readTextFile(`${dir}/out/${name}`).catch(() => "");
    const json = await read("report.json");
    const steps = json
      ? JSON.parse(json).flows.flatMap((f: { steps: ReportStep[] }) => f.steps)
      : [];
    return {
      ...run,
      steps,
      json,
      junit: await read("junit.xml"),
      html: await read("report.html"),
      log: await read("run.log.ndjson"),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
