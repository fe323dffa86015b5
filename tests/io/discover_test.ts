import assert from "node:assert/strict";
import { discoverFlowEntries } from "../../lib/io/discover.ts";

Deno.test("symlinked flow files and folders are found, and a link loop ends", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-links-" });
  try {
    await Deno.mkdir(`${dir}/shared/suite`, { recursive: true });
    await Deno.writeTextFile(`${dir}/shared/suite/login.yaml`, "");
    await Deno.writeTextFile(`${dir}/shared/one.yaml`, "");
    await Deno.mkdir(`${dir}/app/flows`, { recursive: true });
    await Deno.writeTextFile(`${dir}/app/flows/own.yaml`, "");
    await Deno.symlink(`${dir}/shared/suite`, `${dir}/app/flows/suite`);
    await Deno.symlink(`${dir}/shared/one.yaml`, `${dir}/app/flows/linked.yaml`);
    await Deno.symlink(`${dir}/app`, `${dir}/app/flows/loop`);
    await Deno.symlink(`${dir}/nowhere`, `${dir}/app/flows/dangling.yaml`);
    const entries = await discoverFlowEntries([`${dir}/app/flows`]);
    // Each real file once: the loop leads back to a folder already walked. The dangling
    // link stays, so reading it reports the broken link instead of dropping a flow.
    assert.deepEqual(entries.map((e) => e.key).sort(), [
      "dangling.yaml",
      "linked.yaml",
      "own.yaml",
      "suite/login.yaml",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
