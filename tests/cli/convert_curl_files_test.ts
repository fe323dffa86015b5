/**
 * `convert curl` reads the files a command names only inside the working directory, and at
 * most 16 MiB of them in all. A file elsewhere (an absolute path, `../`, a symlink that leads
 * out) is never copied into the flow: its content is left out with a note, and a file the flow
 * sends by reference becomes an empty placeholder beside the flow, with a note. The converted
 * flow validates and runs against a server that checks what it receives.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const SECRET = "TOP-SECRET-OUTSIDE-7f3a";

Deno.test("convert curl: a file outside the working directory is never read into the flow", async () => {
  const root = await Deno.makeTempDir();
  const got: { path: string; type: string; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push({
      path: new URL(req.url).pathname,
      type: req.headers.get("content-type") ?? "",
      body: await req.text(),
    });
    return Response.json({ ok: true });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.mkdir(`${root}/outside`);
    await Deno.mkdir(`${root}/work/out`, { recursive: true });
    const secret = `${root}/outside/secret.txt`;
    await Deno.writeTextFile(secret, SECRET);
    await Deno.writeTextFile(`${root}/work/inside.json`, '{"inside":true}');
    await Deno.symlink(secret, `${root}/work/link.txt`);
    // A file of the same name already beside the flow is the user's: never sent in its place.
    await Deno.writeTextFile(`${root}/work/out/secret.txt`, "mine");
    const commands = [
      `curl ${base}/d -d @../outside/secret.txt`,
      `curl ${base}/json --json @${secret}`,
      `curl ${base}/binary-mixed --data-binary @${secret} -d x=1`,
      `curl ${base}/urlencode --data-urlencode n@../outside/secret.txt`,
      `curl ${base}/part-text -F 'n=<../outside/secret.txt'`,
      `curl ${base}/stdin -d @- < ../outside/secret.txt`,
      `curl ${base}/link -d @link.txt`,
      `curl ${base}/header -H @../outside/secret.txt`,
      `curl ${base}/part-file -F f=@../outside/secret.txt`,
      `curl ${base}/binary --data-binary @${secret}`,
      `curl ${base}/inside -H 'content-type: application/json' -d @inside.json`,
    ];
    await Deno.writeTextFile(`${root}/work/cmds.sh`, commands.join("\n") + "\n");
    const converted = await runCli(["convert", "curl", "cmds.sh", "-o", "out/flow.yaml"], {
      cwd: `${root}/work`,
    });
    assert.equal(converted.code, 0, converted.stderr);
    const yaml = await Deno.readTextFile(`${root}/work/out/flow.yaml`);
    assert.ok(!yaml.includes(SECRET), yaml);
    assert.ok(!converted.stderr.includes(SECRET), converted.stderr);
    // Each place is named: eight contents left out, two references sent from a placeholder.
    const notes = converted.stderr.match(/outside the working directory/g) ?? [];
    assert.ok(notes.length >= 3, converted.stderr);
    for (const path of ["../outside/secret.txt", secret, "link.txt"]) {
      assert.ok(converted.stderr.includes(`The file "${path}" is outside`), path);
    }
    assert.match(converted.stderr, /sends "secret-2\.txt" beside it instead, an empty placeholder/);
    // The placeholder is beside the flow, empty; the flow refers to it there.
    assert.equal(await Deno.readTextFile(`${root}/work/out/secret-2.txt`), "");
    assert.equal(await Deno.readTextFile(`${root}/work/out/secret.txt`), "mine");
    assert.match(yaml, /file: secret-2\.txt\b/);
    // A body that is the file alone (-d @F, --json @F, --data-binary @F, -d @- < F) is sent from it.
    assert.equal(yaml.match(/^ {6}body_file: secret-2\.txt$/gm)?.length, 4, yaml);
    assert.match(yaml, /^ {6}body_file: link\.txt$/m, yaml);
    assert.equal(await Deno.readTextFile(`${root}/work/out/link.txt`), "");
    const validated = await runCli(["validate", "out/flow.yaml"], { cwd: `${root}/work` });
    assert.equal(validated.code, 0, validated.stdout + validated.stderr + yaml);
    const run = await runCli(["run", "out/flow.yaml"], { cwd: `${root}/work` });
    assert.equal(run.code, 0, run.stdout + run.stderr + yaml);
    assert.equal(got.length, commands.length);
    assert.ok(got.every((r) => !r.body.includes(SECRET)), JSON.stringify(got));
    // The file inside the working directory is read and sent as curl sends it.
    const inside = got.find((r) => r.path === "/inside")!;
    assert.deepEqual([inside.type, inside.body], ["application/json", '{"inside":true}']);
    for (const path of ["/binary", "/d", "/json", "/link", "/stdin"]) {
      assert.equal(got.find((r) => r.path === path)!.body, "", path);
    }
    assert.equal(got.find((r) => r.path === "/json")!.type, "application/json");
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("convert curl: the files a command sends are capped in all, not only each", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // 8.5 MiB twice is 17 MiB: each fits under the 16 MiB cap, both together do not.
    const mib = 1024 * 1024;
    const half = 8.5 * mib;
    await Deno.writeTextFile(`${dir}/big.txt`, "a".repeat(half));
    await Deno.writeTextFile(`${dir}/huge.txt`, "b".repeat(17 * mib));
    await Deno.writeTextFile(
      `${dir}/cmds.sh`,
      `curl http://127.0.0.1:9/big -d @big.txt -d @big.txt\ncurl http://127.0.0.1:9/huge -d @huge.txt\n`,
    );
    const converted = await runCli(["convert", "curl", "cmds.sh", "-o", "flow.yaml"], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    const yaml = await Deno.readTextFile(`${dir}/flow.yaml`);
    const body = /^ {6}body: (.*)$/m.exec(yaml)?.[1] ?? "";
    // The first read whole, the second left out.
    assert.equal(body.replace(/&$/, ""), "a".repeat(half));
    assert.ok(!yaml.includes("bbbb"));
    assert.match(converted.stderr, /The file "big\.txt" was not read: .* more than 16 MiB/);
    assert.match(converted.stderr, /The file "huge\.txt" was not read: .* more than 16 MiB/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
