/**
 * `convert curl`: a command that sends a file the user does not have. A
 * database's API pages write points with `--data-binary @cpu_data.txt`,
 * upload with `-F file=@…` and `-T …`; the flow named the missing file, the
 * runner checked every file before sending anything, and the whole flow was
 * refused: not one of the page's other commands ran. A file a command sends
 * by reference that is not there gets an empty placeholder beside the flow
 * (as a file outside the working directory does), named in the summary with
 * what to put there, so the printed run command runs every command; each run
 * warns of every file a step sends that is still empty, and the file the
 * user then puts there is the one sent. A flow written by hand is still
 * refused whole when a file it names is missing.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** A server that keeps what each request sent: its path, its body's text. */
function keeping() {
  const got: { path: string; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push({ path: new URL(req.url).pathname, body: await req.text() });
    return new Response(null, { status: 204 });
  });
  return { got, server, origin: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("a file a command sends that is missing gets a placeholder; every command runs", async () => {
  const { got, server, origin } = keeping();
  const docs = [
    `curl -i -XPOST '${origin}/write?db=mydb' --data-binary @cpu_data.txt`,
    `curl -F file=@photo.png ${origin}/upload`,
    `curl -T up.bin ${origin}/put`,
    `curl -H 'Content-Type: application/json' -d @body.json ${origin}/json`,
    `curl --json @data/points.json ${origin}/points`,
    // A docs placeholder for the file: named without the marks Windows refuses in a name.
    `curl -XPOST "${origin}/query" -F "q=@<path_to_file>" -F "async=true"`,
    `curl ${origin}/ping`,
  ].join("\n") + "\n";
  try {
    await withCurlFlow(docs, async ({ dir, converted, runFlow }) => {
      const names = [
        "cpu_data.txt",
        "photo.png",
        "up.bin",
        "body.json",
        "points.json",
        "path_to_file",
      ];
      for (const name of names) {
        assert.equal(await Deno.readTextFile(`${dir}/out/${name}`), "", name);
        assert.match(
          converted.stderr,
          new RegExp(`put your file at out/${name.replace(".", "\\.")}`),
        );
      }
      const run = await runFlow();
      assert.equal(run.code, 0, run.stdout + run.stderr);
      // Never silently an empty body: each run names every placeholder still empty.
      assert.match(
        run.stderr,
        /warning\[empty-file\]: step "write" of out\/flow\.yaml sends out\/cpu_data\.txt;/,
      );
      assert.match(run.stderr, /step "upload" of out\/flow\.yaml sends out\/photo\.png;/);
      assert.deepEqual(got.map((r) => r.path), [
        "/write",
        "/upload",
        "/put",
        "/json",
        "/points",
        "/query",
        "/ping",
      ]);
      // The file the user puts there is the one sent.
      got.length = 0;
      await Deno.writeTextFile(`${dir}/out/cpu_data.txt`, "cpu value=0.64\n");
      const again = await runFlow();
      assert.equal(again.code, 0, again.stdout + again.stderr);
      assert.equal(got[0].body, "cpu value=0.64\n");
      assert.ok(!again.stderr.includes("cpu_data.txt"), again.stderr);
    }, { flow: "out/flow.yaml" });
  } finally {
    await server.shutdown();
  }
});

Deno.test("no placeholder for a path with a variable, a TLS file or a file of the user's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/out`);
    // A file of that name beside the flow is the user's own: the placeholder takes another name.
    await Deno.writeTextFile(`${dir}/out/data.txt`, "mine");
    await Deno.writeTextFile(
      `${dir}/docs.sh`,
      [
        "curl -XPOST http://127.0.0.1:9/a --data-binary @$DATA_FILE",
        "curl --cacert ca.pem https://127.0.0.1:9/b",
        "curl -XPOST http://127.0.0.1:9/c --data-binary @data.txt",
      ].join("\n") + "\n",
    );
    const converted = await runCli(["convert", "curl", "docs.sh", "-o", "out/flow.yaml"], {
      cwd: dir,
    });
    assert.equal(converted.code, 0, converted.stderr);
    const names = [];
    for await (const e of Deno.readDir(`${dir}/out`)) names.push(e.name);
    assert.deepEqual(names.sort(), ["data-2.txt", "data.txt", "flow.yaml"]);
    assert.equal(await Deno.readTextFile(`${dir}/out/data.txt`), "mine");
    assert.match(converted.stderr, /put your file at out\/data-2\.txt/);
    assert.ok(!/placeholder.*(DATA_FILE|ca\.pem)/.test(converted.stderr), converted.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("written to standard output, the placeholder is where the command names the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/docs.sh`, "curl -T up.bin http://127.0.0.1:9/put/\n");
    const converted = await runCli(["convert", "curl", "docs.sh"], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stdout, /body_file: up\.bin$/m);
    assert.equal(await Deno.readTextFile(`${dir}/up.bin`), "");
    assert.match(converted.stderr, /put your file at up\.bin\./);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file a command sends that is there is sent from where it is", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/cpu_data.txt`, "cpu value=1\n");
    await Deno.writeTextFile(
      `${dir}/docs.sh`,
      "curl -XPOST 'http://127.0.0.1:9/write' --data-binary @cpu_data.txt\n",
    );
    const converted = await runCli(["convert", "curl", "docs.sh", "-o", "out/flow.yaml"], {
      cwd: dir,
    });
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(
      await Deno.readTextFile(`${dir}/out/flow.yaml`),
      /body_file: "?\.\.\/cpu_data\.txt/,
    );
    assert.ok(!converted.stderr.includes("placeholder"), converted.stderr);
    await assert.rejects(Deno.stat(`${dir}/out/cpu_data.txt`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a flow written by hand that names a missing file is still refused before any request", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/flow.yaml`,
      "name: f\nsteps:\n  - name: s\n    request: {method: POST, url: 'http://127.0.0.1:9/', body_file: gone.txt}\n",
    );
    const validated = await runCli(["validate", "flow.yaml"], { cwd: dir });
    assert.equal(validated.code, 2, validated.stdout + validated.stderr);
    assert.match(validated.stdout + validated.stderr, /Could not read "gone\.txt"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
