/**
 * An included file that reads `${setup.…}` cannot run on its own: run (or
 * validated) alone, it is refused before anything is sent with a message
 * that names the setup outputs it needs and how to give them (issue 40,
 * item 8c).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

Deno.test("an included file that reads setup outputs, run alone, names the setup it needs", async () => {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-alone-" });
  try {
    await Deno.mkdir(`${dir}/shared`);
    await Deno.writeTextFile(
      `${dir}/shared/profile.yaml`,
      `name: profile\nsteps:\n  - name: get\n    request: {url: "\${setup.base}/p", headers: {authorization: "Bearer \${setup.token}"}}\n`,
    );
    for (const cmd of ["run", "validate"]) {
      const r = await runCli([cmd, `${dir}/shared/profile.yaml`], { env: { NO_COLOR: "1" } });
      const out = r.stdout + r.stderr;
      assert.equal(r.code, 2, out);
      assert.match(out, /1 problem in 1 file/, "one problem, not one per use");
      assert.match(out, /profile\.yaml:4:\d+ error\[unknown-output\]/);
      assert.match(
        out,
        /hint: This flow reads the run's setup outputs \("base", "token"\), so it cannot run on its own: run it with --setup FILE, a setup flow that declares them under outputs\./,
      );
    }
    assert.equal(requests, 0);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
