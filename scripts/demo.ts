/**
 * `deno task demo`: starts the demo API on a free port, runs the example flows
 * and then the example suite (a shared login through --setup, a sweep through
 * --teardown) against it with the CLI (as a user would), stops the server,
 * and exits with the runner's exit code. Extra arguments go to `flowrun run`.
 *
 * @module
 */
import { startDemoApi } from "../examples/demo_api.ts";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "./permissions.ts";

const root = new URL("..", import.meta.url).pathname;
const api = await startDemoApi();
console.log(`demo API listening on ${api.url}\n`);
let code = 3;
try {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...RUNNER_PERMISSIONS,
      ...RUNNER_V8_FLAGS,
      `${root}cli.ts`,
      "run",
      "examples/flows",
      // Trace-aware examples rely on every request carrying a traceparent.
      "--trace",
      ...Deno.args,
    ],
    cwd: root,
    env: { BASE_URL: api.url },
    stdin: "null",
  }).spawn();
  code = (await child.status).code;
  // The suite shows setup, teardown, cleanup steps, conditions and data rows together.
  if (code === 0) {
    console.log("\nexamples/suite, with a shared login (--setup) and a sweep (--teardown):\n");
    const suite = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...RUNNER_PERMISSIONS,
        ...RUNNER_V8_FLAGS,
        `${root}cli.ts`,
        "run",
        "examples/suite/flows",
        "--setup",
        "examples/suite/shared/login.yaml",
        "--teardown",
        "examples/suite/shared/sweep.yaml",
        ...Deno.args,
      ],
      cwd: root,
      env: { BASE_URL: api.url },
      stdin: "null",
    }).spawn();
    code = (await suite.status).code;
  }
} finally {
  await api.close();
}
Deno.exit(code);
