/**
 * What a gRPC step does again on every call, counted rather than timed
 * (the machine is shared): how often a message is checked and encoded when
 * the same one is sent again. (What a call costs against the plain grpc-js
 * loop is bench/grpc.ts's to measure: bytes allocated per call depend on
 * how far V8 has optimised the code, too loosely for a test's bound.) The
 * server is the atlas server (tests/fixtures/grpc) in a process of its own:
 * the kind's client stays open after a test, and Deno (2.9.6) can crash when
 * a grpc-js server in the same process is shut down under an open client.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../../lib/api.ts";
import { evaluate, render, toText } from "../../../lib/expr/template.ts";
import { grpcAttempt } from "../../../lib/kinds/grpc/attempt.ts";
import type { GrpcSpec } from "../../../lib/kinds/grpc/spec.ts";
import { flowDir } from "./support.ts";

const POINT = { latitude: 405551234, longitude: -744442468 };

/** The spec of each step of a flow of `messages.length` GetPlace steps, as the loader reads it. */
async function specs(port: number, messages: string[], times = 1): Promise<GrpcSpec[][]> {
  const steps = messages.map((message, i) =>
    `  - name: s${i}\n    grpc:\n      target: "127.0.0.1:${port}"\n` +
    `      proto: protos/atlas.proto\n      method: atlas.Atlas/GetPlace\n` +
    `      message: ${message}\n`
  );
  const dir = await flowDir(`name: cost\nsteps:\n${steps.join("")}`);
  try {
    const out: GrpcSpec[][] = [];
    for (let i = 0; i < times; i++) {
      const { flows } = await loadFlows([`${dir}/flow.yaml`]);
      out.push(flows[0].steps.map((s) => s.call!.spec as GrpcSpec));
    }
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The atlas server in a process of its own: its port, and how to stop it. */
async function atlasServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = new URL("../../fixtures/grpc/atlas_server.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", server],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  await child.stdout.cancel();
  return {
    port: Number(new TextDecoder().decode(value).trim()),
    close: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** A KindCall as the runner gives it, with an empty scope. */
function kindCall() {
  const scope = {} as Parameters<typeof render>[1];
  return {
    render: (value: Parameters<typeof render>[0]) => render(value, scope),
    text: (template: Parameters<typeof evaluate>[0]) => toText(evaluate(template, scope)),
    timeoutMs: 30_000,
    signal: new AbortController().signal,
    network: () => ({ insecure: false }),
    maxBodyBytes: 10 * 1024 * 1024,
    secret: () => {},
  };
}

Deno.test("cost: a message sent again is not checked and encoded again; another one is", async () => {
  const server = await atlasServer();
  try {
    const messages = [JSON.stringify(POINT), "{ latitude: 1, longitude: 1 }"];
    const [[first, second]] = await specs(server.port, messages);
    const counted = { prepare: 0, encode: 0 };
    for (const spec of [first, second]) {
      const codec = spec.codec!;
      spec.codec = {
        ...codec,
        prepare: (value, at) => (counted.prepare++, codec.prepare(value, at)),
        encode: (value) => (counted.encode++, codec.encode(value)),
      };
    }
    // Both steps call the same method, as their codecs say, but each has its own codec object:
    // what is kept is kept per codec.
    const call = kindCall();
    for (let i = 0; i < 5; i++) assert.equal((await grpcAttempt(first, call)).response?.status, 0);
    assert.deepEqual(counted, { prepare: 1, encode: 1 });
    const answer = await grpcAttempt(second, call);
    assert.equal(JSON.parse(answer.response!.body).name, "tok-9f8e7d6c5b4a");
    assert.deepEqual(counted, { prepare: 2, encode: 2 });
  } finally {
    await server.close();
  }
});

Deno.test("cost: a flow read again (as before every run) gets the same method, so what is kept serves it", async () => {
  const server = await atlasServer();
  try {
    const [[once], [again]] = await specs(server.port, [JSON.stringify(POINT)], 2);
    assert.notEqual(once, again);
    assert.equal(once.codec, again.codec);
  } finally {
    await server.close();
  }
});
