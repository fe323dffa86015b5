/**
 * A secret built from public parts masks the secret, never the parts: a var
 * `password: "pw-${RUN_ID}"` is masked as a whole wherever it appears, but
 * the run id itself (in the header, URLs, bodies, the reproduce line and
 * every report) stays readable, however the flows interleave. The same for
 * a non-secret var or capture a secret is made from (`pw-${vars.id}`, an
 * include's `with: {password: "pw-${steps.s.capture.id}"}`), while a piece
 * of the secret's own part quoted by a server is still masked.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withFiles } from "../support/with_files.ts";

/** Echoes the JSON body it gets under `got`, with the path, and quotes `quote` from the body. */
function server() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    const got = text ? JSON.parse(text) : {};
    // A server that quotes part of what it was sent: the 20 characters after the password's first 3.
    const quote = typeof got.password === "string" ? `bad: ${got.password.slice(3, 23)}` : "";
    return Response.json({ path: new URL(req.url).pathname, got, quote });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** Writes `files` into a new directory, runs `args` there; gives all it wrote, read back. */
async function run(files: Record<string, string>, args: string[]) {
  return await withFiles(files, async (dir) => {
    const cli = await runCli(
      ["run", ...args, "--report-json", "out.json", "--log-file", "run.ndjson", "--jobs", "4"],
      { cwd: dir },
    );
    return {
      cli,
      console: cli.stdout + cli.stderr,
      json: await Deno.readTextFile(`${dir}/out.json`),
      log: await Deno.readTextFile(`${dir}/run.ndjson`),
    };
  });
}

const RUN_ID = "r20261125-060431-503cc2a9";
/** What the flow of an include's test creates: its path is captured. */
const ITEM = "x0123456789abcdef0123";

/** A flow that logs in with `password` (YAML) as `user`, and fails, so the body is printed. */
function login(name: string, vars: string, user: string, password: string, base: string) {
  return `name: ${name}\nvars: {${vars}}\nsteps:\n  - name: login\n    request:\n` +
    `      method: POST\n      url: "${base}/login/\${RUN_ID}"\n` +
    `      body: {user: "${user}", password: "${password}"}\n` +
    `    assert: {json: [{path: $.json.missing, exists: true}]}\n`;
}

/** A flow that only shows the run id: in its URL, its body and a failing check. */
function plain(name: string, base: string) {
  return `name: ${name}\nsteps:\n  - name: get\n    request:\n      method: POST\n` +
    `      url: "${base}/plain/\${RUN_ID}"\n      body: {run: "\${RUN_ID}"}\n` +
    `    assert: {json: [{path: $.json.got.run, equals: nope}]}\n`;
}

Deno.test("a secret var made from ${RUN_ID} masks the secret, never the run id", async () => {
  const srv = server();
  try {
    const files: Record<string, string> = {
      "a.yaml": login("a", 'password: "pw-${RUN_ID}"', "u-${RUN_ID}", "${vars.password}", srv.base),
      "only.yaml": login(
        "only",
        'password: "${RUN_ID}"',
        "v-${RUN_ID}",
        "${vars.password}",
        srv.base,
      ),
    };
    // Flows that print the run id after the secret was registered, and beside it under --jobs 4.
    for (let i = 1; i <= 4; i++) files[`p${i}.yaml`] = plain(`p${i}`, srv.base);
    const out = await run(files, [".", "--run-id", RUN_ID]);
    assert.equal(out.cli.code, 1, out.console);
    for (
      const [what, text] of Object.entries({ console: out.console, json: out.json, log: out.log })
    ) {
      assert.ok(!text.includes(`pw-${RUN_ID}`), `${what} holds the secret:\n${text}`);
      assert.ok(
        !/u-\*\*\*|u\*\*\*|\*\*\*-|\*\*\*cc2a9/.test(text),
        `${what} masks a run id:\n${text}`,
      );
    }
    assert.match(out.console, new RegExp(`flowrun \\S+ · run ${RUN_ID} · 6 flows`));
    assert.match(out.console, new RegExp(`reproduce: .* --run-id ${RUN_ID}\\b`));
    const report = JSON.parse(out.json);
    assert.equal(report.runId ?? report.run_id, RUN_ID);
    const body = JSON.stringify(report);
    assert.ok(body.includes(`/plain/${RUN_ID}`) && body.includes(`u-${RUN_ID}`), body);
    // The password is masked as a whole where it was sent and where the server echoed it.
    assert.match(body, /\\"password\\":\\"\*\*\*\\"/);
  } finally {
    await srv.close();
  }
});

Deno.test("a secret made from a non-secret var or capture masks the secret, not them", async () => {
  const srv = server();
  try {
    const out = await run({
      // A var from ${RANDOM.UUID}, shown as the user and inside the password.
      "a.yaml": login(
        "a",
        'id: "${RANDOM.UUID}", password: "pw-${vars.id}"',
        "u-${vars.id}",
        "${vars.password}",
        srv.base,
      ),
      // A capture handed to an included login as its password.
      "b.yaml":
        `name: b\nsteps:\n  - name: make\n    request: {url: "${srv.base}/make/${ITEM}"}\n` +
        `    capture: {id: $.json.path}\n` +
        `  - name: in\n    include: common/login.yaml\n` +
        `    with: {password: "pw-\${steps.make.capture.id}", user: "\${steps.make.capture.id}"}\n`,
      "common/login.yaml": login(
        "login",
        'user: "", password: ""',
        "${vars.user}",
        "${vars.password}",
        srv.base,
      ),
    }, ["a.yaml", "b.yaml", "--run-id", RUN_ID]);
    assert.equal(out.cli.code, 1, out.console);
    const uuid = out.json.match(/"user\\?":\\?"u-([0-9a-f-]{36})/)?.[1];
    assert.ok(uuid, out.json);
    for (const text of [out.console, out.json, out.log]) {
      // The log has no bodies: only the requests' URLs.
      if (text !== out.log) assert.ok(text.includes(`u-${uuid}`), `the user is readable:\n${text}`);
      assert.ok(text.includes(`/make/${ITEM}`), `the captured path is readable:\n${text}`);
      assert.ok(!text.includes(`pw-${uuid}`) && !text.includes(`pw-/make/`), text);
    }
    // Where the included login sent both, the user is readable and the password masked.
    assert.match(
      out.json,
      new RegExp(`\\\\"user\\\\":\\\\"/make/${ITEM}\\\\",\\\\"password\\\\":\\\\"\\*\\*\\*\\\\"`),
    );
  } finally {
    await srv.close();
  }
});

Deno.test("a piece of a secret's own part, quoted by a server, is still masked", async () => {
  const srv = server();
  try {
    const out = await run({
      "a.yaml": login(
        "a",
        'password: "pw-${RANDOM.HEX_32}-${RUN_ID}"',
        "u-${RUN_ID}",
        "${vars.password}",
        srv.base,
      ),
    }, ["a.yaml", "--run-id", RUN_ID]);
    assert.equal(out.cli.code, 1, out.console);
    // The server's quote is 20 characters of the random part: a piece of the secret.
    assert.match(out.console, /"quote": "bad: \*\*\*"/);
    assert.ok(out.console.includes(`u-${RUN_ID}`), out.console);
  } finally {
    await srv.close();
  }
});

Deno.test("a --var secret that holds the given run id masks itself, not the run id", async () => {
  const srv = server();
  try {
    const out = await run({
      "a.yaml": login("a", 'password: ""', "u-${RUN_ID}", "${vars.password}", srv.base),
    }, ["a.yaml", "--run-id", RUN_ID, "--var", `password=pw-${RUN_ID}`]);
    assert.equal(out.cli.code, 1, out.console);
    for (const text of [out.console, out.json, out.log]) {
      assert.ok(!text.includes(`pw-${RUN_ID}`), text);
      assert.ok(!/u-\*\*\*|u\*\*\*|\*\*\*-|\*\*\*cc2a9/.test(text), text);
    }
    assert.ok(out.console.includes(`u-${RUN_ID}`), out.console);
    assert.match(out.console, /--var password="\$PASSWORD"/);
  } finally {
    await srv.close();
  }
});
