/**
 * Looking for a near spelling of an unset environment variable lists names
 * only: it must not read every variable through the run's env reader, which
 * would count each as read (the manifest's env_read) and register the values
 * of secret-looking ones as secrets (PWD would mask every path).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

Deno.test("an unset ${ENV.X} reads no other variable: env_read and paths stay as they are", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-env-hint-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      'name: r\nsteps:\n  - name: a\n    request: { url: "${ENV.FLOWRUN_API_URL}/x" }\n',
    );
    // PWD names a folder of the path, so masking its value would turn the path into ***.
    const env = { PWD: dir, FLOWRUN_DB_PASSWORD: "s3cret-value" };
    const run = await runCli(["run", `${dir}/f.yaml`, "--manifest", `${dir}/m.json`], { env });
    assert.equal(run.code, 2, run.stderr);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/m.json`));
    assert.deepEqual(manifest.env_read, ["FLOWRUN_API_URL"]);
    assert.ok(manifest.command.includes(`${dir}/f.yaml`), JSON.stringify(manifest.command));
    const validate = await runCli(["validate", `${dir}/f.yaml`], { env });
    assert.ok(validate.stdout.includes(`${dir}/f.yaml:4:22`), validate.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
