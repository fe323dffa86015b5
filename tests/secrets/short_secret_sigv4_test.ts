/**
 * AWS SigV4 credentials that cannot be found stop the step in flowrun's words around what they
 * quote: `aws_sigv4: No AWS credentials: there is no profile "<profile>" of <file>; set …`. With
 * short secrets that are those very words (passwords `profile`, `shared`) and a profile name or a
 * file path that quote them, the values (the profile, the file's path, the reason the file cannot
 * be read) are masked where the message is made and flowrun's words are not, in every artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";

/**
 * A flow signing its request with the credentials of `profile` (YAML); its var makes the run
 * know the password `shared` as a secret before the step begins.
 */
const flow = (name: string, profile: string) =>
  `name: ${name}
vars: {folder: "\${ENV.PASSWORD_2}"}
auth:
  aws_sigv4: {region: eu-west-1, service: execute-api, profile: "${profile}"}
steps:
  - name: get
    request: {url: "http://127.0.0.1:9/items"}
`;

const ENV = { PASSWORD_1: "profile", PASSWORD_2: "shared" };

const FIX = "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write the profile's " +
  "aws_access_key_id and aws_secret_access_key into the shared credentials file " +
  "(AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials) and name it with profile: or AWS_PROFILE.";

Deno.test("AWS SigV4's credential errors keep their words from a short secret", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-sigv4-" });
  try {
    // The credentials file is in a folder named as a password: its path is a value.
    await Deno.mkdir(`${dir}/shared`);
    const file = `${dir}/shared/credentials`;
    await Deno.writeTextFile(file, "[half-profile]\naws_access_key_id = AKIDEXAMPLE\n");
    const files = [`${dir}/none.yaml`, `${dir}/half.yaml`];
    await Deno.writeTextFile(files[0], flow("none", "${ENV.PASSWORD_1}"));
    await Deno.writeTextFile(files[1], flow("half", "half-${ENV.PASSWORD_1}"));
    const env = { ...ENV, AWS_SHARED_CREDENTIALS_FILE: file };
    const w = await runWritten(files, dir, env);
    assert.equal(w.code, 1, w.console);
    const shown = `${dir}/***/credentials`;
    const said = [
      `aws_sigv4: No AWS credentials: there is no profile "***" of ${shown}; ${FIX}`,
      `aws_sigv4: The profile "half-***" of ${shown} has no aws_secret_access_key; ${FIX}`,
    ];
    const steps = w.report.flows.flatMap((f) => f.steps);
    assert.deepEqual(steps.map((s) => s.message).sort(), [...said].sort());
    saidEverywhere(w, said, { console: false, artifacts: 4 });
    noLeak(w, ['"profile"', "half-profile", "/shared/"], /\*\*\* credentials|the \*\*\*|no \*\*\*/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a credentials file that cannot be read keeps its words from a short secret", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-sigv4-" });
  try {
    // A folder where the file should be: the read's reason quotes its path.
    await Deno.mkdir(`${dir}/shared`);
    await Deno.writeTextFile(`${dir}/f.yaml`, flow("folder", "${ENV.PASSWORD_1}"));
    const env = { ...ENV, AWS_SHARED_CREDENTIALS_FILE: `${dir}/shared` };
    const w = await runWritten([`${dir}/f.yaml`], dir, env);
    assert.equal(w.code, 1, w.console);
    const message = w.report.flows[0].steps[0].message!;
    assert.match(
      message,
      /^aws_sigv4: The AWS shared credentials file cannot be read: AWS_SHARED_CREDENTIALS_FILE names /,
    );
    assert.ok(message.includes(`names ${dir}/***, and `), message);
    assert.ok(message.endsWith("or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."), message);
    saidEverywhere(w, [message], { console: false, artifacts: 4 });
    noLeak(w, ["/shared"], /\*\*\* credentials/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
