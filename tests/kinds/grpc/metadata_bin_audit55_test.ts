/**
 * Binary metadata both ways (issue 55, "metadata in and out"): a `-bin`
 * name's value is written as base64, as a response's `-bin` values are
 * shown, and sent as those bytes; a value that is not base64 is one
 * positioned problem at load, or the step's error when an expression made
 * it (nothing sent); a secret sent that way is masked in every artifact.
 * The server is grpc-js's, started here: it echoes each `-bin` metadata it
 * got in its trailers.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { flowDir } from "./support.ts";
import { runReporting } from "../../support/run_reports.ts";
import { served } from "./served.ts";

const SECRET = "c2VjcmV0LWJpbi10b2tlbi05OQ=="; // base64 of "secret-bin-token-99"

function flow(port: number, metadata: string): string {
  return `name: bin
steps:
  - name: place
    grpc:
      target: "127.0.0.1:${port}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 1, longitude: 2 }
      metadata: ${metadata}
    assert:
      status: 0
      headers: { x-trace-bin: "AAEC/w==" }
`;
}

Deno.test("a -bin metadata value is written as base64 and sent as its bytes; the answer's -bin trailers checkable; a secret masked", async () => {
  const server = await served("echo");
  const dir = await flowDir(
    flow(server.port, `{ x-trace-bin: "AAEC/w==", x-token-bin: "\${ENV.BIN_TOKEN}" }`),
  );
  try {
    const run = await runReporting(`${dir}/flow.yaml`, `${dir}/out`, { BIN_TOKEN: SECRET });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const secretBytes = [...new TextEncoder().encode("secret-bin-token-99")].join(",");
    assert.deepEqual(server.got.sort(), ["x-token-bin " + secretBytes, "x-trace-bin 0,1,2,255"]);
    for (const name of ["report.json", "junit.xml", "report.html", "run.log.ndjson", "run.har"]) {
      const text = await Deno.readTextFile(`${dir}/out/${name}`);
      assert.ok(!text.includes(SECRET), `${name} shows the -bin secret`);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a -bin value that is not base64: a positioned problem at load, the step's error when an expression made it", async () => {
  const server = await served("echo");
  const bad = await flowDir(flow(server.port, `{ x-trace-bin: "not base64!" }`));
  const late = await flowDir(flow(server.port, `{ x-trace-bin: "\${ENV.NOT_B64}" }`));
  try {
    const validate = await runCli(["validate", `${bad}/flow.yaml`]);
    assert.equal(validate.code, 2, validate.stdout + validate.stderr);
    assert.match(
      validate.stdout + validate.stderr,
      /flow\.yaml:9:\d+ error\[bad-base64\]: The value of "x-trace-bin" is not base64/,
    );
    const run = await runCli(["run", `${late}/flow.yaml`, "--report-json", `${late}/r.json`], {
      env: { NOT_B64: "#nope#" },
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const step = JSON.parse(await Deno.readTextFile(`${late}/r.json`)).flows[0].steps[0];
    assert.equal(step.status, "error");
    assert.match(step.message, /The value of "x-trace-bin" is not base64/);
    assert.deepEqual(server.got, [], "nothing was sent");
  } finally {
    await server.close();
    await Deno.remove(bad, { recursive: true });
    await Deno.remove(late, { recursive: true });
  }
});
