/** Report paths are checked before anything is sent: none may be a flow file. */
import assert from "node:assert/strict";
import { refuseInputsAsOutputs } from "../../lib/io/preflight.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { tempDir } from "../support/fs.ts";

Deno.test("a report path that is a flow file is refused however it is spelled", async () => {
  const dir = await tempDir();
  try {
    await Deno.mkdir(`${dir}/flows`);
    const flow = `${dir}/flows/login.yaml`;
    await Deno.writeTextFile(flow, "name: login\n");
    await Deno.symlink(flow, `${dir}/alias.json`);
    await Deno.link(flow, `${dir}/hard.json`);
    for (
      const output of [
        flow,
        `${dir}/flows/../flows/login.yaml`,
        `${dir}/alias.json`,
        `${dir}/hard.json`,
      ]
    ) {
      await assert.rejects(
        () => refuseInputsAsOutputs([`${dir}/fine.json`, output], [flow]),
        (e: unknown) =>
          e instanceof UsageError && e.code === "unwritable" &&
          e.message === `Cannot write a report to "${output}": it is the flow file "${flow}".`,
      );
    }
    await Deno.writeTextFile(`${dir}/copy.json`, "name: login\n");
    await refuseInputsAsOutputs([`${dir}/copy.json`, `${dir}/new.json`, "/dev/null"], [flow]);
    assert.equal(await Deno.readTextFile(flow), "name: login\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
