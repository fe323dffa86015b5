/**
 * A `grpc:` step that fails says why in flowrun's words around what it quotes: a response that
 * does not decode (`Message 1 from atlas.Atlas/GetPlace does not decode as atlas.Place: <the
 * decoder's words>; flowrun cancelled the call.`), a stream cut at `max_messages`, a target that
 * is no target. With short secrets that are those very words (passwords `decode`, `first`,
 * `call`, `target`), the values (the decoder's words, the target as given) are masked where the
 * message is made and flowrun's words and the flow's names are not, in every artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";
import { flowDir } from "../kinds/grpc/support.ts";
import { servedAtlas } from "../kinds/grpc/served.ts";

const at = `      target: "127.0.0.1:\${vars.port}"\n      proto: protos/atlas.proto\n`;
const well = `      target: "127.0.0.1:\${vars.well}"\n      proto: protos/atlas.proto\n`;
const sent = `      metadata: {x-a: "\${ENV.PASSWORD_1}", x-b: "\${ENV.PASSWORD_2}", ` +
  `x-c: "\${ENV.PASSWORD_3}", x-d: "\${ENV.PASSWORD_4}", x-e: "\${ENV.PASSWORD_5}", ` +
  `x-f: "\${ENV.PASSWORD_6}"}\n`;

/** Sends every password; a response that does not decode, a stream cut short, a bad target. */
const FLOW = `name: grpc
vars: { port: "0" }
steps:
  - name: garbage
    grpc:
${at}${sent}      method: atlas.Atlas/GetPlace
      message: {}
  - name: endless
    always: true
    grpc:
${well}      method: atlas.Atlas/ListPlaces
      message: {}
      max_messages: 3
  - name: warming
    always: true
    grpc:
${well}      method: atlas.Atlas/GetPlace
      message: {}
  - name: nowhere
    always: true
    grpc:
      target: "\${ENV.PASSWORD_4}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: {}
`;

const ENV = {
  PASSWORD_1: "decode",
  PASSWORD_2: "first",
  PASSWORD_3: "call",
  PASSWORD_4: "target",
  // A word of the server's status details: a value, masked.
  PASSWORD_5: "warming",
  PASSWORD_6: "host",
};

Deno.test("a grpc step's verdicts and errors keep their words from a short secret", async () => {
  const server = await servedAtlas({ bad: "garbage" });
  const other = await servedAtlas({ bad: "unavailable-twice" });
  const dir = await flowDir(FLOW);
  try {
    const ports = ["--var", `port=${server.port}`, "--var", `well=${other.port}`];
    const w = await runWritten([`${dir}/flow.yaml`], dir, ENV, ports);
    assert.equal(w.code, 1, w.console);
    const steps = w.report.flows[0].steps;
    const verdicts = [
      'Message 1 from atlas.Atlas/GetPlace does not decode as atlas.Place: field 1 ("name") came ' +
      "as wire type 0, not as a string; flowrun cancelled the call.",
      "The stream of atlas.Atlas/ListPlaces brought more than 3 messages (max_messages); flowrun " +
      "cancelled the call and kept the first 3.",
    ];
    const failed = steps.slice(0, 2).flatMap((s) =>
      s.assertions.filter((a) => a.actual === false).map((a) => a.message)
    );
    assert.deepEqual(failed, verdicts);
    const said = [
      "atlas.Atlas/GetPlace is unavailable (UNAVAILABLE): *** up.",
      "Expected the gRPC target to be host:port, grpc://host:port or grpcs://host:port, " +
      'got "***".',
    ];
    assert.deepEqual(steps.slice(2).map((s) => s.message), said);

    // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
    saidEverywhere(w, said, { console: false, artifacts: 4 });
    for (const verdict of verdicts) {
      assert.ok(w.texts.filter((t) => t.includes(verdict)).length >= 3, verdict);
    }
    // No value a password stood in is shown; no word of flowrun's is masked.
    const leaks = ['got "target"', '"x-a": "decode"', '"x-a":"decode"', "warming up"];
    noLeak(w, leaks, /not \*\*\*|flowrun \*\*\*|the \*\*\* 3|is \*\*\*|the \*\*\*|\*\*\*:port/);
  } finally {
    await server.close();
    await other.close();
    await Deno.remove(dir, { recursive: true });
  }
});
