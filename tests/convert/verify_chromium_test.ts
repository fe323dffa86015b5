/**
 * `--verify` on browser recordings (Csrfspa, recorded in Chromium with
 * Playwright and chrome-har): with `--no-correlate` every value a response
 * handed out becomes a variable asked of the user (a rotating CSRF token in
 * a header, a JSON field, a query value and a cookie; the session cookie;
 * an API key the page read from a response). `--verify` against a fresh
 * instance repairs each from the live response that produces it, tries
 * every step (no "0 tries"), and the flow it writes passes on a third fresh
 * instance asking only the password.
 */
import assert from "node:assert/strict";
import { PASSWORD, startCsrfspa } from "../apps/csrfspa/server.ts";
import { runCli } from "../support/cli.ts";
import { runAsUser } from "../support/convert_apps.ts";

for (const form of ["pw", "cdp"]) {
  const har = new URL(`../apps/csrfspa/recordings/journey.${form}.har`, import.meta.url).pathname;
  Deno.test(`--verify repairs every value asked of the user in csrfspa journey.${form}.har`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-chromium-" });
    try {
      const second = startCsrfspa();
      let verified;
      try {
        verified = await runCli(
          [
            "convert",
            "har",
            har,
            "--no-correlate",
            "--verify",
            second.origin,
            "-o",
            `${dir}/f.yaml`,
          ],
          { env: { LOGIN_PASSWORD: PASSWORD } },
        );
      } finally {
        await second.close();
      }
      const flow = await Deno.readTextFile(`${dir}/f.yaml`).catch(() => "");
      assert.equal(verified.code, 0, `${verified.stderr}\n${flow}`);
      assert.match(verified.stderr, /^Verified 10 steps against .*: all pass after \d+ repairs/m);
      assert.doesNotMatch(verified.stderr, /0 tries/);
      // Only the password is asked of the user now.
      assert.match(verified.stderr, /^Set before running: LOGIN_PASSWORD\.$/m);
      assert.ok(!flow.includes(PASSWORD), "the password was written");
      const third = startCsrfspa();
      try {
        const known = (name: string) => name === "LOGIN_PASSWORD" ? PASSWORD : undefined;
        const { run, steps } = await runAsUser(`${dir}/f.yaml`, third.origin, known);
        const failed = steps.filter((s) => s.status !== "passed").map((s) => s.name);
        assert.ok(run.code === 0 && failed.length === 0, `${failed}\n${run.stdout}\n${run.stderr}`);
        assert.deepEqual(third.errors, []);
      } finally {
        await third.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
