/**
 * Secrets in gRPC steps, by where they went (never by their names): a
 * token from the environment sent as `authorization` metadata and in a
 * message, and a token the server returned in a message field that the
 * next step sends as metadata — masked in every artifact a run writes:
 * the console, the JSON, JUnit, HTML and HAR reports and the log.
 */
import assert from "node:assert/strict";
import { runArtifacts } from "./support.ts";
import { servedAtlas } from "./served.ts";

const ENV_TOKEN = "env-s3cret-value-42";
const SERVER_TOKEN = "tok-9f8e7d6c5b4a";

const target = `      target: "127.0.0.1:\${vars.port}"\n      proto: protos/atlas.proto\n`;
const FLOW = `name: secrets
vars: { port: "0" }
steps:
  - name: login
    grpc:
${target}      method: atlas.Atlas/GetPlace
      message: { latitude: 1, longitude: 1 }
      metadata: { authorization: "Bearer \${ENV.API_TOKEN}" }
    capture: { token: $.json.name }
  - name: use
    grpc:
${target}      method: atlas.Atlas/GetPlace
      message: { latitude: 1, longitude: 1 }
      metadata: { authorization: "Bearer \${steps.login.capture.token}", x-echo: "\${steps.login.capture.token}" }
  - name: chat
    grpc:
${target}      method: atlas.Atlas/TripChat
      messages: [{ message: "\${ENV.API_TOKEN}" }, { message: "\${steps.login.capture.token}" }]
      metadata: { authorization: "Bearer \${ENV.API_TOKEN}" }
    assert:
      json: [{ path: $.json, length: 5 }]
`;

Deno.test("a token in metadata and messages, sent or received, is masked in every artifact", async () => {
  const server = await servedAtlas();
  try {
    const { code, artifacts, steps } = await runArtifacts(FLOW, server.port, [], {
      API_TOKEN: ENV_TOKEN,
    });
    assert.equal(code, 1, artifacts.console);
    // The tokens were really sent where the flow put them.
    assert.deepEqual(server.calls.map((c) => c.authorization), [
      `Bearer ${ENV_TOKEN}`,
      `Bearer ${SERVER_TOKEN}`,
      `Bearer ${ENV_TOKEN}`,
    ]);
    // The console, JSON, JUnit, HTML, HAR and the log, each read back.
    assert.equal(Object.keys(artifacts).length, 6);
    for (const [name, text] of Object.entries(artifacts)) {
      assert.ok(!text.includes(ENV_TOKEN), `${name} shows the environment's token`);
      assert.ok(!text.includes(SERVER_TOKEN), `${name} shows the server's token`);
    }
    // The failing step's details are in the console: the messages sent and received, masked.
    assert.match(artifacts.console, /echo: \*+/);
    assert.equal(steps[2].status, "failed");
  } finally {
    await server.close();
  }
});
