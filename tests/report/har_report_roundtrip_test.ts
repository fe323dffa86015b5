/**
 * The round trip of issue 55: a run's HAR (`--report-har`) is a recording
 * `flowrun convert har` turns back into a flow, and that flow runs green
 * against a fresh instance of the app, sending the same requests in the
 * same order. Taskboard (tests/support/taskboard_app.ts) has new keys, ids
 * and id offsets per instance, so a flow that replayed recorded values
 * instead of carrying them would fail.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { PASSWORD, startTaskboard } from "../support/taskboard_app.ts";
import { parseHar } from "../../lib/convert/har_model.ts";
import { harProblems } from "./har_report_shape.ts";

const FLOW = `name: projects
steps:
  - name: login
    request:
      method: POST
      url: \${vars.base}/api/login
      body: {email: ann@taskboard.test, password: "\${ENV.TB_PASSWORD}", next: /}
    assert: {status: 200}
    capture: {token: $.json.token}
  - name: create
    request:
      method: POST
      url: \${vars.base}/api/projects
      headers:
        authorization: Bearer \${steps.login.token}
        idempotency-key: 7f9c2b1e-4d3a-4c5b-9e8f-0a1b2c3d4e5f
      body: {name: Roadmap, description: Q3 plans}
    assert: {status: 201}
    capture: {id: $.json.id}
  - name: add_task
    request:
      method: POST
      url: \${vars.base}/api/projects/\${steps.create.id}/tasks
      headers:
        authorization: Bearer \${steps.login.token}
      body: {title: Write it down, client_ref: 0b3c6a2e-9d1f-4e7a-8c5b-1f2e3d4c5b6a}
    assert: {status: 201}
    capture: {task: $.json.id}
  - name: read task
    request:
      url: \${vars.base}/api/projects/\${steps.create.id}/tasks/\${steps.add_task.task}
      headers:
        authorization: Bearer \${steps.login.token}
    assert:
      status: 200
      json:
        - {path: $.json.title, equals: Write it down}
`;

/** The app's calls with the ids each instance makes up written as placeholders. */
const shape = (calls: string[]) =>
  calls.map((c) =>
    c.replace(/prj_[0-9a-f]+/g, "{project}").replace(/\/tasks\/\d+/, "/tasks/{task}")
  );

Deno.test("run → HAR → convert har → run against a fresh instance: green, the same requests in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-trip-" });
  const first = await startTaskboard();
  let calls: string[];
  try {
    await Deno.writeTextFile(`${dir}/projects.yaml`, FLOW);
    const run = await runCli(
      [
        "run",
        `${dir}/projects.yaml`,
        "--var",
        `base=${first.origin}`,
        "--report-har",
        `${dir}/run.har`,
      ],
      { env: { TB_PASSWORD: PASSWORD } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    calls = [...first.calls];
  } finally {
    await first.close();
  }
  assert.deepEqual(shape(calls), [
    "POST /api/login",
    "POST /api/projects",
    "POST /api/projects/{project}/tasks",
    "GET /api/projects/{project}/tasks/{task}",
  ]);
  const text = await Deno.readTextFile(`${dir}/run.har`);
  assert.ok(!text.includes(PASSWORD), "the password is masked");
  assert.deepEqual(harProblems(JSON.parse(text)), []);
  // The converter's reader takes every entry, and has nothing to say about the file.
  const notes: string[] = [];
  assert.equal(parseHar(text, notes).records.length, 4);
  assert.deepEqual(notes, []);

  const converted = await runCli([
    "convert",
    "har",
    `${dir}/run.har`,
    "-o",
    `${dir}/converted.yaml`,
  ]);
  assert.equal(converted.code, 0, converted.stderr);
  const flow = await Deno.readTextFile(`${dir}/converted.yaml`);
  // The ids the app made are carried from the responses that made them, not replayed.
  assert.match(flow, /capture:\s+project_id: \$\.json\.id/);
  const sent = flow.split("\n").filter((line) => !line.trimStart().startsWith("#")).join("\n");
  assert.doesNotMatch(sent, /prj_[0-9a-f]{12}/, "no recorded id is sent (comments name them)");
  // The HAR masks each secret with a label of its own, so the token the login answered is
  // captured where a later request sends it; only what the user typed is asked for.
  assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./);
  assert.match(flow, /^ {6}token: \$\.json\.token$/m);
  assert.match(flow, /authorization: Bearer \$\{steps\.login\.capture\.token\}/);

  const fresh = await startTaskboard();
  try {
    const again = await runCli(["run", `${dir}/converted.yaml`], {
      env: { BASE_URL: fresh.origin, LOGIN_PASSWORD: PASSWORD },
    });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.deepEqual(shape(fresh.calls), shape(calls));
  } finally {
    await fresh.close();
  }
  await Deno.remove(dir, { recursive: true });
});
