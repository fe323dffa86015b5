/**
 * An inline data row may read the flow's own vars that read no column of
 * the rows (`url: "${vars.base}/a"`): they are evaluated first, then the
 * row, then the vars that read a column. A row that reads one of those is
 * one problem that says why and what a row may read, not "move it above".
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** Records the path and the `x-who` header of every request. */
function server() {
  const seen: string[] = [];
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${new URL(req.url).pathname} ${req.headers.get("x-who")}`);
    return new Response("ok");
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, seen, close: () => srv.shutdown() };
}

/** Writes `text` as f.yaml in a new directory and runs `args` on it there. */
async function cli(text: string, args: string[]) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-row-vars-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, text);
    const run = await runCli([...args.slice(0, 1), "f.yaml", ...args.slice(1)], { cwd: dir });
    return { ...run, out: run.stdout + run.stderr };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an inline data row reads the flow's vars, and --var over them; vars read the row", async () => {
  const srv = server();
  const flow = `name: rows\nvars:\n  base: "${srv.base}"\n  user: ann\n` +
    `  who: "\${vars.name}-\${vars.user}"\n` +
    `data:\n  - {name: a, url: "\${vars.base}/a/\${user}"}\n  - {name: b, url: "\${base}/b"}\n` +
    `steps:\n  - name: s\n    request: {url: "\${vars.url}", headers: {x-who: "\${vars.who}"}}\n`;
  try {
    const validate = await cli(flow, ["validate"]);
    assert.equal(validate.code, 0, validate.out);
    const run = await cli(flow, ["run", "--jobs", "1"]);
    assert.equal(run.code, 0, run.out);
    assert.deepEqual(srv.seen, ["/a/ann a-ann", "/b b-ann"]);
    const again = await cli(flow, ["run", "--jobs", "1", "--var", "user=bo"]);
    assert.equal(again.code, 0, again.out);
    assert.deepEqual(srv.seen.slice(2), ["/a/bo a-bo", "/b b-bo"]);
  } finally {
    await srv.close();
  }
});

Deno.test("a row that reads a var made from a row's column is one problem that says what a row may read", async () => {
  const flow = `name: rows\nvars:\n  base: "http://x.test"\n  who: "\${vars.name}-x"\n` +
    `  path: "/\${vars.who}"\n` +
    `data:\n  - {name: a, url: "\${vars.base}\${vars.path}"}\n` +
    `steps:\n  - name: s\n    request: {url: "\${vars.url}"}\n`;
  for (const command of ["validate", "run"]) {
    const run = await cli(flow, [command]);
    assert.equal(run.code, 2, run.out);
    const problems = run.out.split("\n").filter((l) => / error\[/.test(l));
    assert.deepEqual(problems, [
      'f.yaml:7:33 error[unknown-var]: A data row cannot read var "path" (in "${vars.path}"): ' +
      'it reads the row\'s column "name", and rows are set before such vars.',
    ], command);
    assert.match(
      run.out,
      /hint: A row value may read the flow's vars that read no column, --var parameters, the columns to its left, \$\{setup\.…\}, \$\{ENV\.…\}, \$\{RUN_ID\}, \$\{TRACE_ID\}, \$\{RANDOM\.…\} and \$\{NOW\.…\}\./,
    );
  }
});

Deno.test("a row value that reads a column to its right says so, with what a row may read", async () => {
  const flow = `name: rows\ndata:\n  - {url: "http://x.test/\${vars.id}", id: 7}\n` +
    `steps:\n  - name: s\n    request: {url: "\${vars.url}"}\n`;
  const run = await cli(flow, ["validate"]);
  assert.equal(run.code, 2, run.out);
  assert.match(
    run.out,
    /f\.yaml:3:26 error\[unknown-var\]: A data row's value reads "id" \(in "\$\{vars\.id\}"\), a column to its right\.\n(.*\n){2} {2}hint: Columns are set left to right: write "id" before the column that reads it\. A row value may read the flow's vars that read no column/,
  );
});
