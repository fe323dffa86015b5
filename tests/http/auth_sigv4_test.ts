/**
 * `auth: {aws_sigv4: …}` through the CLI against the demo API's `/aws/*`
 * route, which checks the signature as AWS does: credentials from the
 * standard environment variables, a session token, a profile of a shared
 * credentials file, the block's own keys; a JSON body, a body from a file
 * and a multipart body hashed as sent; a wrong secret or a tampered
 * signature refused by the server; the secret key and the session token in
 * no output.
 */
import assert from "node:assert/strict";
import {
  AWS_ACCESS_KEY_ID,
  AWS_SECRET_ACCESS_KEY,
  AWS_SESSION_TOKEN,
  AWS_TEMP_ACCESS_KEY_ID,
} from "../../examples/demo_signed_auth.ts";
import { startDemoApi } from "../../examples/demo_api.ts";
import { signV4 } from "../../lib/http/sigv4.ts";
import { runCli } from "../support/cli.ts";
import { runEveryReport } from "../support/run_reports.ts";

const STEPS = `steps:
  - name: get
    request: {url: "\${ENV.BASE_URL}/aws/things/a%20b?z=1&a=x+y&b=%7E"}
    assert:
      status: 200
      json:
        - {path: $.json.service, equals: execute-api}
  - name: put_json
    request:
      method: PUT
      url: "\${ENV.BASE_URL}/aws/things"
      headers: {X-Custom: "  a   b "}
      body: {name: "café"}
    assert:
      status: 200
      json:
        - {path: $.json.body_bytes, equals: 16}
  - name: file_body
    request:
      method: POST
      url: "\${ENV.BASE_URL}/aws/upload"
      body_file: data.bin
    assert: {status: 200}
  - name: multipart
    request:
      method: POST
      url: "\${ENV.BASE_URL}/aws/form"
      multipart: {field: hello, file: {file: data.bin}}
    assert: {status: 200}
`;

function flow(block: string): string {
  return `name: sigv4\nauth:\n  aws_sigv4: ${block}\n${STEPS}`;
}

const ENV_BLOCK = "{region: us-east-1, service: execute-api}";

/** Runs a flow in a folder of its own (with `data.bin` and `credentials`), every report read back. */
async function run(
  text: string,
  env: Record<string, string>,
  credentials = "",
  extra: string[] = [],
) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sigv4-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, text);
    await Deno.writeFile(`${dir}/data.bin`, new Uint8Array([0, 1, 2, 255, 13, 10]));
    await Deno.writeTextFile(`${dir}/credentials`, credentials);
    return await runEveryReport(dir, {
      // Nothing from the machine running the tests: no profile, no file, no keys.
      AWS_SHARED_CREDENTIALS_FILE: `${dir}/credentials`,
      AWS_PROFILE: "",
      AWS_ACCESS_KEY_ID: "",
      AWS_SECRET_ACCESS_KEY: "",
      AWS_SESSION_TOKEN: "",
      ...env,
    }, extra);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function assertNoSecrets(outputs: string[]) {
  for (const text of outputs) {
    for (const secret of [AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN]) {
      assert.ok(!text.includes(secret), `${secret} in ${text.slice(0, 300)}`);
    }
  }
}

Deno.test("aws_sigv4: the standard environment variables; JSON, file and multipart bodies hashed", async () => {
  const api = await startDemoApi();
  try {
    const r = await run(flow(ENV_BLOCK), {
      BASE_URL: api.url,
      AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.report.flows[0].steps.length, 4);
    // Every header the step sends is signed, host and the payload hash among them.
    assert.match(r.stdout, /> x-amz-content-sha256: [0-9a-f]{64}/);
    assert.match(
      r.stdout,
      /"signed_headers": \["content-type","host","x-amz-content-sha256","x-amz-date","x-custom"\]/,
    );
    assertNoSecrets(r.outputs);
  } finally {
    await api.close();
  }
});

Deno.test("aws_sigv4 with --trace: the traceparent is sent unsigned, and the server takes it", async () => {
  const api = await startDemoApi();
  try {
    const r = await run(
      flow(ENV_BLOCK),
      { BASE_URL: api.url, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY },
      "",
      ["--trace"],
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /> traceparent: 00-[0-9a-f]{32}-[0-9a-f]{16}-01/);
    // Signed as without --trace: a tracing proxy may rewrite the traceparent on the way.
    assert.match(
      r.stdout,
      /"signed_headers": \["content-type","host","x-amz-content-sha256","x-amz-date","x-custom"\]/,
    );
  } finally {
    await api.close();
  }
});

Deno.test("aws_sigv4: a session token from the environment is sent, signed and masked", async () => {
  const api = await startDemoApi();
  try {
    const env = {
      BASE_URL: api.url,
      AWS_ACCESS_KEY_ID: AWS_TEMP_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY,
      AWS_SESSION_TOKEN,
    };
    const r = await run(flow(ENV_BLOCK), env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /"x-amz-security-token"/);
    assertNoSecrets(r.outputs);
    // Without the token the temporary key is refused by the server.
    const bare = await run(flow(ENV_BLOCK), { ...env, AWS_SESSION_TOKEN: "" });
    assert.equal(bare.code, 1);
    assert.match(bare.stdout, /The security token included in the request is invalid/);
  } finally {
    await api.close();
  }
});

Deno.test("aws_sigv4: a named profile, and AWS_PROFILE, of the shared credentials file", async () => {
  const api = await startDemoApi();
  try {
    const file =
      `# flowrun test\n[default]\naws_access_key_id = AKIDWRONG\naws_secret_access_key = wrong\n\n` +
      `[ci]\naws_access_key_id=${AWS_TEMP_ACCESS_KEY_ID}\naws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}\n` +
      `aws_session_token = ${AWS_SESSION_TOKEN}\n`;
    const named = await run(flow("{region: us-east-1, service: execute-api, profile: ci}"), {
      BASE_URL: api.url,
      // A profile named outright wins over the environment's keys.
      AWS_ACCESS_KEY_ID: "AKIDIGNORED",
      AWS_SECRET_ACCESS_KEY: "ignored",
    }, file);
    assert.equal(named.code, 0, named.stdout + named.stderr);
    assertNoSecrets(named.outputs);
    const viaEnv = await run(flow(ENV_BLOCK), { BASE_URL: api.url, AWS_PROFILE: "ci" }, file);
    assert.equal(viaEnv.code, 0, viaEnv.stdout + viaEnv.stderr);
    // The default profile's wrong secret: the server says the signature does not match.
    const fallback = await run(flow(ENV_BLOCK), { BASE_URL: api.url }, file);
    assert.equal(fallback.code, 1);
    assert.match(fallback.stdout, /The security token included in the request is invalid/);
    const missing = await run(flow("{region: us-east-1, service: s3, profile: nope}"), {
      BASE_URL: api.url,
    }, file);
    assert.equal(missing.code, 1);
    assert.match(
      missing.report.flows[0].steps[0].message,
      /^aws_sigv4: No AWS credentials: there is no profile "nope" of .*credentials; set AWS_ACCESS_KEY_ID/,
    );
    // A credentials file that is a folder or a device is named with its variable, not an
    // "internal error while running the step".
    for (const [path, what] of [["/tmp", "a directory"], ["/dev/zero", "a character device"]]) {
      const unreadable = await run(flow(ENV_BLOCK), {
        BASE_URL: api.url,
        AWS_SHARED_CREDENTIALS_FILE: path,
      });
      assert.equal(unreadable.code, 1, unreadable.stdout + unreadable.stderr);
      const message = unreadable.report.flows[0].steps[0].message;
      assert.ok(
        message.startsWith(
          `aws_sigv4: The AWS shared credentials file cannot be read: AWS_SHARED_CREDENTIALS_FILE names ${path}, and it is ${what}`,
        ),
        message,
      );
    }
  } finally {
    await api.close();
  }
});

Deno.test("aws_sigv4: a wrong secret, or a signature changed after signing, is refused by the server", async () => {
  const api = await startDemoApi();
  try {
    const block = "{region: eu-west-1, service: execute-api, " +
      'access_key_id: "${ENV.MY_KEY_ID}", secret_access_key: "${ENV.MY_SECRET}"}';
    const right = await run(flow(block), {
      BASE_URL: api.url,
      MY_KEY_ID: AWS_ACCESS_KEY_ID,
      MY_SECRET: AWS_SECRET_ACCESS_KEY,
    });
    assert.equal(right.code, 0, right.stdout + right.stderr);
    assertNoSecrets(right.outputs);
    const wrong = await run(flow(block), {
      BASE_URL: api.url,
      MY_KEY_ID: AWS_ACCESS_KEY_ID,
      MY_SECRET: `${AWS_SECRET_ACCESS_KEY}x`,
    });
    assert.equal(wrong.code, 1);
    assert.equal(wrong.report.flows[0].steps[0].response.status, 403);
    assert.match(wrong.stdout, /The request signature we calculated does not match/);
    // One signature, sent as signed and with one hex digit changed.
    const url = new URL(`${api.url}/aws/x?b=2`);
    const signed = signV4({
      method: "GET",
      path: url.pathname,
      query: url.search.slice(1),
      headers: [["host", url.host]],
      payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    }, {
      credentials: { accessKeyId: AWS_ACCESS_KEY_ID, secretAccessKey: AWS_SECRET_ACCESS_KEY },
      region: "us-east-1",
      service: "execute-api",
      date: new Date(),
    });
    const send = async (headers: [string, string][]) => {
      const response = await fetch(url, { headers });
      await response.body?.cancel();
      return response.status;
    };
    assert.equal(await send(signed.headers), 200);
    const tampered = signed.headers.map(([name, value]): [string, string] =>
      name === "authorization"
        ? [name, value.replace(/.$/, (c) => c === "0" ? "1" : "0")]
        : [name, value]
    );
    assert.equal(await send(tampered), 403);
  } finally {
    await api.close();
  }
});

Deno.test("aws_sigv4: payload: unsigned sends UNSIGNED-PAYLOAD (S3); another word is refused at load", async () => {
  const api = await startDemoApi();
  try {
    const s3 = "{region: us-east-1, service: s3, payload: unsigned}";
    const env = { BASE_URL: api.url, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY };
    const r = await run(flow(s3).replace("equals: execute-api", "equals: s3"), env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /> x-amz-content-sha256: UNSIGNED-PAYLOAD/);
    assert.doesNotMatch(r.stdout, /> x-amz-content-sha256: [0-9a-f]{64}/);
    // Another service does not take an unsigned body: the demo, like AWS, refuses it.
    const api_gw = await run(
      flow("{region: us-east-1, service: execute-api, payload: unsigned}"),
      env,
    );
    assert.equal(api_gw.code, 1);
    const dir = await Deno.makeTempDir({ prefix: "flowrun-sigv4-" });
    try {
      await Deno.writeTextFile(`${dir}/f.yaml`, flow("{region: r, service: s, payload: maybe}"));
      const bad = await runCli(["validate", `${dir}/f.yaml`]);
      assert.equal(bad.code, 2, bad.stdout + bad.stderr);
      assert.match(
        bad.stdout + bad.stderr,
        /f\.yaml:3:\d+ error\[wrong-type\]: Expected "payload" of "aws_sigv4" of .* to be one of signed, unsigned, got the string "maybe"/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    await api.close();
  }
});
