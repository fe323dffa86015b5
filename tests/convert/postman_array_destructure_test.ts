/**
 * `const [comment1, comment2] = responseJson.data.thread.comments;`: each name an element of a
 * list in the answer, as a course's forum collection reads a thread's comments and replies
 * before checking each one's fields (91 of its checks). Only an object pattern was read, so
 * every check on the elements stayed a comment. Now an array pattern names the elements by
 * position (a hole skips one, a nested pattern reads deeper); each check gets Newman's verdict
 * against a small server, one written to fail.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman array destructuring: each name reads its element, and its checks get Newman's verdicts", async () => {
  const thread = {
    comments: [
      { id: "c-1", likeCount: 2, replies: [{ id: "r-1" }] },
      { id: "c-2", likeCount: 1, replies: [] },
      { id: "c-3", likeCount: 0, replies: [] },
    ],
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ data: { thread } }),
  );
  const dir = await Deno.makeTempDir();
  try {
    const script = [
      "const responseJson = pm.response.json();",
      "const [comment1, comment2] = responseJson.data.thread.comments;",
      "const [, , third] = responseJson.data.thread.comments;",
      "const [{ replies: [reply] }] = responseJson.data.thread.comments;",
      "pm.test('each comment', () => {",
      "  pm.expect(comment1.id).to.equal('c-1');",
      "  pm.expect(comment1.likeCount).to.equal(2);",
      "  pm.expect(comment2.likeCount).to.equal(1);",
      "  pm.expect(third.id).to.equal('c-3');",
      "  pm.expect(reply.id).to.equal('r-1');",
      "});",
      "pm.test('written to fail', () => { pm.expect(comment2.likeCount).to.equal(5); });",
    ];
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Thread", schema: V21 },
      item: [{
        name: "Get Thread",
        event: [{ listen: "test", script: { exec: script } }],
        request: { method: "GET", url: `http://127.0.0.1:${server.addr.port}/threads/t-1` },
      }],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /untranslated, from/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const report = `${dir}/report.json`;
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", report]);
    assert.equal(run.code, 1, run.stdout + run.stderr + flow.text);
    const [step] = JSON.parse(await Deno.readTextFile(report)).flows[0].steps;
    const verdicts = (name: string) =>
      step.assertions.filter((a: { name?: string }) => a.name === name).map((
        a: { passed: boolean },
      ) => a.passed);
    assert.deepEqual(verdicts("each comment"), [true, true, true, true, true], flow.text);
    assert.deepEqual(verdicts("written to fail"), [false], flow.text);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
