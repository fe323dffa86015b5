/**
 * `convert curl` with `-u`, `--digest` and `--aws-sigv4`: the demo API's Basic, Digest and
 * SigV4 routes answer the real curl, and the converted flow (its steps' `auth:` blocks) passes
 * against the same routes with the credentials set as the summary asks; no credential is in
 * the flow.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../../examples/demo_api.ts";
import { OAUTH2_PASSWORD, OAUTH2_USER } from "../../examples/demo_oauth2.ts";
import {
  AWS_ACCESS_KEY_ID,
  AWS_SECRET_ACCESS_KEY,
  DIGEST_PASSWORD,
  DIGEST_USER,
} from "../../examples/demo_signed_auth.ts";
import { runCli } from "../support/cli.ts";
import { hasCurl } from "../support/has_curl.ts";

/** The commands, as an API's docs would print them, against `base`. */
const commands = (base: string) =>
  [
    `curl -u "${OAUTH2_USER}:${OAUTH2_PASSWORD}" ${base}/basic/me`,
    `curl --digest -u "${DIGEST_USER}:${DIGEST_PASSWORD}" ${base}/digest/md5`,
    `curl --aws-sigv4 "aws:amz:us-east-1:execute-api" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" "${base}/aws/orders?status=open"`,
    `curl --aws-sigv4 "aws:amz:us-east-1:execute-api" -u "${AWS_ACCESS_KEY_ID}:${AWS_SECRET_ACCESS_KEY}" -X PUT -H "content-type: application/json" -d '{"note":"signed"}' ${base}/aws/orders/1`,
  ].join("\n") + "\n";

Deno.test({
  name: "curl's -u, --digest and --aws-sigv4 become auth: blocks that pass where curl passes",
  ignore: !hasCurl,
  async fn() {
    const api = await startDemoApi();
    const dir = await Deno.makeTempDir();
    const aws = { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY };
    try {
      await Deno.writeTextFile(`${dir}/cmds.sh`, commands(api.url));
      // The real curl, so the routes are known to take what curl sends.
      for (const line of commands(api.url).trim().split("\n")) {
        const out = await new Deno.Command("bash", {
          args: ["-c", `${line} -s -o /dev/null -w '%{http_code}'`],
          env: aws,
          stdout: "piped",
        }).output();
        assert.equal(new TextDecoder().decode(out.stdout), "200", line);
      }
      const converted = await runCli(["convert", "curl", "cmds.sh", "-o", "flow.yaml"], {
        cwd: dir,
      });
      assert.equal(converted.code, 0, converted.stderr);
      assert.match(
        converted.stderr,
        /^Set before running: BASIC_PASSWORD, DIGEST_PASSWORD, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY\.$/m,
      );
      const yaml = await Deno.readTextFile(`${dir}/flow.yaml`);
      for (const secret of [OAUTH2_PASSWORD, DIGEST_PASSWORD, AWS_SECRET_ACCESS_KEY]) {
        assert.ok(!yaml.includes(secret), secret);
      }
      assert.doesNotMatch(yaml, /authorization/i);
      const run = await runCli(["run", "flow.yaml", "--report-json", "r.json"], {
        cwd: dir,
        env: { BASIC_PASSWORD: OAUTH2_PASSWORD, DIGEST_PASSWORD, ...aws },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr + yaml);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      const steps = report.flows[0].steps;
      assert.deepEqual(steps.map((s: { status: string }) => s.status), [
        "passed",
        "passed",
        "passed",
        "passed",
      ]);
      // Each answered 200, as curl was answered (a converted command checks no status itself).
      assert.deepEqual(steps.map((s: { response: { status: number } }) => s.response.status), [
        200,
        200,
        200,
        200,
      ]);
      // Digest answers the challenge: two attempts, as curl sends two requests.
      assert.equal(steps[1].attempts, 2);
    } finally {
      await api.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
