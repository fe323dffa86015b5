import assert from "node:assert/strict";
import {
  AwsCredentialsError,
  findAwsCredentials,
  MAX_AWS_CREDENTIALS_BYTES,
  parseAwsProfiles,
} from "../../lib/io/aws_credentials.ts";
import { InputFileError } from "../../lib/io/input_error.ts";

Deno.test("the shared credentials file: sections, comments, spacing, CRLF, config-style names", () => {
  const profiles = parseAwsProfiles(
    "; top comment\r\n[default]\r\naws_access_key_id=AKID1\r\n" +
      "  AWS_Secret_Access_Key =  s/1+x==  # trailing\r\n\r\n[profile dev]\r\n" +
      "aws_session_token = tok;en\r\nstray line\r\n[ spaced ]\r\nk = v\r\n",
  );
  assert.deepEqual([...profiles.keys()], ["default", "dev", "spaced"]);
  assert.equal(profiles.get("default")!.get("aws_secret_access_key"), "s/1+x==");
  // A ';' inside a value (no space before it) is part of the value.
  assert.equal(profiles.get("dev")!.get("aws_session_token"), "tok;en");
  assert.equal(profiles.get("spaced")!.get("k"), "v");
});

Deno.test("credentials: the environment, else AWS_PROFILE or default of the file; a named profile wins", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/credentials`;
    await Deno.writeTextFile(
      path,
      "[default]\naws_access_key_id=D\naws_secret_access_key=ds\n" +
        "[ci]\naws_access_key_id=C\naws_secret_access_key=cs\naws_session_token=ct\n[half]\naws_access_key_id=H\n",
    );
    const env = (vars: Record<string, string>) => (name: string) =>
      ({ AWS_SHARED_CREDENTIALS_FILE: path, ...vars })[name];
    const keys = { AWS_ACCESS_KEY_ID: "E", AWS_SECRET_ACCESS_KEY: "es" };
    assert.equal(findAwsCredentials(env(keys)).accessKeyId, "E");
    assert.equal(findAwsCredentials(env(keys), "ci").sessionToken, "ct");
    assert.equal(findAwsCredentials(env({})).accessKeyId, "D");
    assert.equal(findAwsCredentials(env({ AWS_PROFILE: "ci" })).source, `profile "ci" of ${path}`);
    assert.throws(
      () => findAwsCredentials(env({ AWS_ACCESS_KEY_ID: "E" }), "nope"),
      (e) =>
        e instanceof AwsCredentialsError &&
        e.message.startsWith(
          `No AWS credentials: there is no profile "nope" of ${path} (only AWS_ACCESS_KEY_ID is set`,
        ),
    );
    assert.throws(
      () => findAwsCredentials(env({}), "half"),
      (e) =>
        e instanceof AwsCredentialsError &&
        /profile "half" .* has no aws_secret_access_key/.test(e.message),
    );
    // No file at all, and no home: said, not thrown as a read error.
    assert.throws(
      () =>
        findAwsCredentials((name) =>
          name === "AWS_SHARED_CREDENTIALS_FILE" ? `${dir}/none` : undefined
        ),
      AwsCredentialsError,
    );
    assert.throws(() => findAwsCredentials(() => undefined), /~\/\.aws\/credentials/);
    // A file past the bound, a folder or a device is refused by the read, not parsed, and said
    // naming the file and the variable (seen: "internal error while running the step").
    await Deno.writeTextFile(path, "#".repeat(MAX_AWS_CREDENTIALS_BYTES + 1));
    for (const bad of [path, dir, "/dev/zero"]) {
      assert.throws(
        () => findAwsCredentials((n) => n === "AWS_SHARED_CREDENTIALS_FILE" ? bad : undefined),
        (e) =>
          e instanceof AwsCredentialsError && !(e instanceof InputFileError) &&
          e.message.startsWith(
            `The AWS shared credentials file cannot be read: AWS_SHARED_CREDENTIALS_FILE names ${bad}, and `,
          ) && e.message.endsWith("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
