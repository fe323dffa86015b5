import assert from "node:assert/strict";
import { refuseFlowFilesAsOutputs } from "../../../cli/run/outputs.ts";
import { UsageError } from "../../../lib/model/errors.ts";

Deno.test("an artifact path that is a flow file, also through a symlink, is refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const flow = `${dir}/flow.yaml`;
    await Deno.writeTextFile(flow, "name: x\n");
    await Deno.symlink(flow, `${dir}/link.json`);
    await refuseFlowFilesAsOutputs({ json: `${dir}/report.json`, junit: undefined }, [flow]);
    await refuseFlowFilesAsOutputs({}, [flow]);
    await assert.rejects(
      refuseFlowFilesAsOutputs({ json: `${dir}/link.json` }, [flow]),
      (error) =>
        error instanceof UsageError && error.code === "unwritable" &&
        error.message ===
          `Cannot write a report to "${dir}/link.json": it is the flow file "${flow}".`,
    );
    await assert.rejects(
      refuseFlowFilesAsOutputs({ html: `${dir}/./flow.yaml` }, [flow]),
      UsageError,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
