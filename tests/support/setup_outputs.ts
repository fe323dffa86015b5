/**
 * A setup flow's outputs read by one flow: the flow both setup-output tests
 * run (`list` with the setup's token; `mine`, guarded on the setup's `id`
 * with `exists`), and a run of it with `--setup` whose report's step
 * statuses are read back by step name.
 *
 * @module
 */
import { runCli } from "./cli.ts";

/** The flow reading `${setup.token}` and, when it exists, `${setup.id}`. */
export const accountFlow = (url: string): string =>
  `name: account
steps:
  - name: list
    request: {method: GET, url: "${url}/items", headers: {authorization: "Bearer \${setup.token}"}}
    assert: {status: 200}
  - name: mine
    if: {value: "\${setup.id}", exists: true}
    request: {method: GET, url: "${url}/accounts/\${setup.id}", headers: {authorization: "Bearer \${setup.token}"}}
    assert: {status: 200}
`;

/** The JSON report's part these tests read. */
export type Report = {
  flows: {
    name: string;
    status: string;
    steps: { name: string; status: string; message?: string }[];
  }[];
};

/** What a run said: its exit code, each step's status and message by name, and its output. */
export interface SetupRun {
  code: number;
  steps: Map<string, string>;
  messages: Map<string, string>;
  said: string;
}

/** Each step's status of a JSON report, by step name. */
export function stepStatuses(report: Report): Map<string, string> {
  return new Map(report.flows.flatMap((f) => f.steps.map((s) => [s.name, s.status])));
}

/** Runs `accountFlow(url)` with `setup` as the `--setup` flow, in a folder of its own. */
export async function runWithSetup(url: string, setup: string): Promise<SetupRun> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-setup-outputs-" });
  try {
    await Deno.writeTextFile(`${dir}/setup.yaml`, setup);
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(`${dir}/flows/account.yaml`, accountFlow(url));
    const out = await runCli([
      "run",
      `${dir}/flows`,
      ...["--setup", `${dir}/setup.yaml`, "--report-json", `${dir}/report.json`],
    ]);
    const report: Report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const messages = new Map(
      report.flows.flatMap((f) => f.steps.map((s) => [s.name, s.message ?? ""])),
    );
    return { code: out.code, steps: stepStatuses(report), messages, said: out.stdout + out.stderr };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
